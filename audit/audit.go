// Package audit is what an audit of the journal reads and adds beside
// replay.Verify: a source bound to the stream's last sequence (or an
// export file, with progress), a source that warns of messages that are
// not events, the messages the stream lost, where a campaign's chain
// breaks, the --seed and --at options, the audit of a journal just
// restored (Restored), what the proof files given concluded
// (ProofResults), and the verdict: which error an audit exits with once
// its report is printed. The commands (journal replay, explain,
// stats, log, restore) are wired in cmd/journal; what they need of it —
// the store, the warnings' writer, the language — is given as parameters.
//
// Invariants:
//   - Every pass over a BoundSource reads the same events: the read stops
//     at the last sequence of the filter when the source was bound,
//     whatever is written after.
//   - A message of the stream that is not an event reaches every reader:
//     Verify lists it, and Warned tells warn of it for any other reader;
//     a line of an export that is not an event is the reader's to refuse.
//   - Warnings are written in English and rendered in the language given
//     (i18n.Render); errors are English, as every error of the journal.
//   - A nil *Losses (a store that cannot say what its streams miss)
//     counts nothing and reports nothing.
//   - --at resolves against the times recorded in the events, never the
//     clock; a time without a zone is read in local time.
//   - A verdict says what the report and the findings say, in this order:
//     lost messages, then the alarms of receipts given to check (when the
//     report is OK), then mismatches — each an exitcode.MismatchError
//     (exit 4) — then flags alone (exitcode.ErrFlagged, exit 5). Lost
//     messages fail an audit even when every event read verifies.
package audit

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/exportfile"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/textout"
)

// Store is what an audit reads of the journal's store: its events on a
// filter. A store that also says its last sequence on a filter
// (Last(ctx, filter)) is read up to it (BoundSource), and one that says
// what its streams miss (MissingStore) is asked for its losses (Lost).
type Store interface {
	Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error
}

// Filter is an audit's subject filter: campaign's events, or every
// campaign's when campaign is "".
func Filter(campaign string) (string, error) {
	if campaign == "" {
		return events.AllFilter, nil
	}
	return events.CampaignFilter(campaign)
}

// BoundSource reads the store's events on filter up to the last sequence
// there now, so that every pass of an audit reads the same events while
// others go on writing. empty says that there are none. Each event comes
// with its stored bytes, and a message that is not an event in its place
// (replay.StoreSource): a pass of Verify lists it; give the source to any
// other reader through Warned.
func BoundSource(ctx context.Context, st Store, filter string) (src replay.Source, empty bool, err error) {
	to := uint64(0)
	if l, ok := st.(interface {
		Last(ctx context.Context, filter string) (uint64, error)
	}); ok {
		if to, err = l.Last(ctx, filter); err != nil {
			return nil, false, err
		}
		empty = to == 0
	}
	return replay.StoreSource(st.Read, events.Query{Subject: filter, To: to}), empty, nil
}

// Warned is src for a reader other than Verify, which skips a message of
// the stream that is not an event: warn is told of each.
func Warned(src replay.Source, warn func(events.Foreign) error) replay.Source {
	return func(ctx context.Context, fn func(replay.Input) error) error {
		return src(ctx, func(in replay.Input) error {
			if f := in.Foreign; f != nil && f.Line == 0 {
				if err := warn(events.Foreign{Seq: f.Seq, Subject: f.Subject, Err: msgerr.New(f.Reason)}); err != nil {
					return err
				}
			}
			return fn(in)
		})
	}
}

// FileSource reads an export (package exportfile) in passes, with a
// progress line on stderr when it is a terminal; a copy of a FIFO or a
// pipe is removed by the function handed to atExit, which the caller runs
// when the command ends. done clears any progress line; it may be called
// more than once.
func FileSource(path string, passes int, stderr io.Writer, atExit func(func())) (src replay.Source, done func(), err error) {
	o := exportfile.Options{Passes: passes, Spooled: func(name string) {
		atExit(func() { _ = os.Remove(name) })
	}}
	if textout.IsTerminal(stderr) {
		o.Progress = stderr
	}
	return exportfile.Source(path, o)
}

// SourceError names the export file (if any) in a read error.
func SourceError(err error, file string) error {
	if file != "" && errors.Is(err, replay.ErrMalformed) {
		return msgerr.Errorf("%s: %w", file, err)
	}
	return err
}
