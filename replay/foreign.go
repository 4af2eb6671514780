package replay

import (
	"context"
	"errors"
	"fmt"

	"github.com/campaign-journal/journal/events"
)

// ForeignMessage is input of an audit that is not an event: a message of
// the stream that does not decode as a journal event of its subject (Seq
// and Subject; see events.Foreign), or a line of an export that does not
// decode (Line). Only something that wrote past the commands can have put
// it there. Verify lists each in its Report, which then fails.
type ForeignMessage struct {
	Seq     uint64 `json:"seq,omitempty"`
	Subject string `json:"subject,omitempty"`
	Line    int    `json:"line,omitempty"`
	Reason  string `json:"reason"`
}

// ForeignOf describes a message of the stream that a read skipped.
func ForeignOf(f events.Foreign) ForeignMessage {
	return ForeignMessage{Seq: f.Seq, Subject: f.Subject, Reason: f.Err.Error()}
}

// String names the message and says why it is not an event.
func (m ForeignMessage) String() string {
	switch {
	case m.Line != 0:
		return fmt.Sprintf("line %d: not a journal event: %s", m.Line, m.Reason)
	case m.Subject != "":
		return fmt.Sprintf("sequence %d (%s): not a journal event: %s", m.Seq, m.Subject, m.Reason)
	}
	return "not a journal event: " + m.Reason
}

// foreignKey is the context key under which a pass of Verify takes the
// foreign input its Source reports (ReportForeign).
type foreignKey struct{}

// withForeign returns a context whose Source reports foreign input to sink.
func withForeign(ctx context.Context, sink func(ForeignMessage)) context.Context {
	return context.WithValue(ctx, foreignKey{}, sink)
}

// ReportForeign tells the audit pass that called a Source with ctx about
// input that is not an event, and reports whether the pass took it: a
// pass of Verify does, lists it in its Report and goes on; other passes
// do not, and the Source decides (this package's JSON Lines sources end
// the read with ErrMalformed). A store's read fits with events.Query's
// OnForeign:
//
//	q.OnForeign = func(f events.Foreign) error {
//		if !replay.ReportForeign(ctx, replay.ForeignOf(f)) {
//			return f // or warn, and go on
//		}
//		return nil
//	}
func ReportForeign(ctx context.Context, m ForeignMessage) bool {
	sink, ok := ctx.Value(foreignKey{}).(func(ForeignMessage))
	if ok {
		sink(m)
	}
	return ok
}

// foreignLine is the ForeignMessage of an export's line that did not
// decode with err.
func foreignLine(line int, err error) ForeignMessage {
	reason := err.Error()
	if f, ok := errors.AsType[events.Foreign](err); ok {
		reason = f.Err.Error()
	}
	return ForeignMessage{Line: line, Reason: reason}
}
