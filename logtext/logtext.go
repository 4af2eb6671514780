// Package logtext writes a campaign's log (journal log) and export
// (journal export) for the command line: the transcript's lines, for
// people or one JSON object each, and the events verbatim, as read from
// the store.
//
// Invariants:
//   - It only reads: every read is a Read of the store it is given, on
//     the campaign's filter; nothing is written to the store.
//   - An export is the stored bytes of each event (the bytes the
//     campaign's chain hashes), one per line, never a re-encoding.
//   - A session's export ends at that session's end: the campaign up to
//     it, everything its sheets depend on.
//   - A line for people shows its time in the user's zone (time.Local,
//     which honours $TZ), with the zone's name.
package logtext

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/textout"
)

// Reader reads the events of a query in order (the store's Read).
type Reader interface {
	Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error
}

// Text is the line for people: sequence, short id, local time with its
// zone, the transcript text and, for a voided event, the mark.
func Text(l projections.LogLine, lang i18n.Lang) string {
	line := fmt.Sprintf("%6d  %s  %s  %s", l.Seq, l.ShortID, textout.LocalTime(l.Time), l.Text)
	if v := l.VoidedBy; v != nil {
		line += "  " + lang.T("log.voided_by", v.Seq, projections.ShortID(v.EventID), v.Reason)
	}
	return line
}

// WriteLine writes the transcript line tl as one line of the log: its
// short id and its void (from voids), as JSON when asJSON, else Text.
func WriteLine(w io.Writer, tl projections.Line, voids projections.Voids, asJSON bool, lang i18n.Lang) {
	l := projections.LogLine{Line: tl}
	l.ShortID = projections.ShortID(l.EventID)
	l.VoidedBy = voids[l.EventID]
	if asJSON {
		b, _ := json.Marshal(l)
		fmt.Fprintln(w, string(b))
	} else {
		fmt.Fprintln(w, Text(l, lang))
	}
}

// ReadVoids reads the voids recorded on filter up to upTo (0: now).
func ReadVoids(ctx context.Context, st Reader, filter string, upTo uint64) (projections.Voids, error) {
	v := projections.Voids{}
	err := st.Read(ctx, events.Query{Subject: filter, To: upTo, Types: []string{events.TypeEventVoided}}, func(r events.Recorded) error {
		v.Add(r)
		return nil
	})
	return v, err
}

// errExported stops reading once a session export has its last event.
var errExported = msgerr.New("export complete")

// HasSession refuses a session the campaign never started.
func HasSession(ctx context.Context, st Reader, filter, campaign, session string) error {
	found := false
	err := st.Read(ctx, events.Query{Subject: filter, Types: []string{events.TypeSessionStarted}}, func(r events.Recorded) error {
		if r.Event.Session == session {
			found = true
			return errExported
		}
		return nil
	})
	if err != nil && !errors.Is(err, errExported) {
		return err
	}
	if !found {
		return msgerr.Errorf("campaign %s has no session %s", campaign, clip.Text(session))
	}
	return nil
}

// Stored gives an event's exact stored bytes, as the store's read gave
// them (events.Recorded.Raw), so that an export writes each event
// verbatim (the bytes the campaign's chain hashes), not a re-encoding.
func Stored(r events.Recorded) ([]byte, error) {
	if r.Raw == nil {
		return nil, msgerr.Errorf("export: the store gave no stored bytes for event %s (seq %d)", r.Event.ID, r.Seq)
	}
	return r.Raw, nil
}

// Export writes the events of q to out, each as stored (Stored), one per
// line; with a session, up to that session's end. It returns how many it
// wrote.
func Export(ctx context.Context, st Reader, q events.Query, session string, out *bufio.Writer) (int, error) {
	n := 0
	ended := false
	err := st.Read(ctx, q, func(r events.Recorded) error {
		if ended {
			return errExported
		}
		b, err := Stored(r) // verbatim: the bytes the chain hashes
		if err != nil {
			return err
		}
		n++
		out.Write(b)
		ended = session != "" && r.Event.Session == session && r.Event.Type == events.TypeSessionEnded
		return out.WriteByte('\n')
	})
	if errors.Is(err, errExported) {
		err = nil
	}
	return n, err
}
