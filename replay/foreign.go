package replay

import (
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

// foreignLine is the ForeignMessage of an export's line that did not
// decode with err.
func foreignLine(line int, err error) ForeignMessage {
	reason := err.Error()
	if f, ok := errors.AsType[events.Foreign](err); ok {
		reason = f.Err.Error()
	}
	return ForeignMessage{Line: line, Reason: reason}
}
