package jetstore

import (
	"context"
	"errors"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// ErrLastSpansStreams is returned by ReadLast (with errors.ErrUnsupported)
// for a filter over the streams of several partitions, whose last messages
// are not one message.
var ErrLastSpansStreams = msgerr.New("the last message of a filter over several partitions' streams")

// ReadLast delivers the last message on q.Subject, a filter within one
// stream (a campaign's subject), as Read would deliver it: to fn when it
// is an event of a type q keeps, else to q.OnForeign; it returns its
// sequence, 0 when there is none (nothing is delivered). q.From and q.To
// are not used. It is one request to the stream leader (as Last), which
// answers with the message itself, so it is current on a cluster.
//
// A cold load from a checkpoint (command) asks this first: when the last
// sequence is the checkpoint's, the message delivered is the checkpoint's
// own, and the load reads nothing more. The server reads the message's
// block, which the load would read anyway; a read from the checkpoint's
// sequence would also count the messages pending after it.
func (s *Store) ReadLast(ctx context.Context, q events.Query, fn func(events.Recorded) error) (uint64, error) {
	if err := q.Validate(); err != nil {
		return 0, err
	}
	ts := s.targets(q.Filter())
	if len(ts) != 1 {
		return 0, msgerr.Errorf("jetstore: %w (%w): %s", ErrLastSpansStreams, errors.ErrUnsupported, q.Filter())
	}
	m, err := s.lastMsg(ctx, ts[0].stream, ts[0].filter)
	if err != nil || m == nil {
		return 0, err
	}
	rec, err := events.DecodeRecordedOwned(m.Seq, s.campaignSubject(m.Subject), m.Data)
	switch {
	case err != nil:
		if err := q.ReportForeign(err); err != nil {
			return m.Seq, err
		}
	case q.WantsType(rec.Event.Type):
		if err := fn(rec); err != nil {
			return m.Seq, err
		}
	}
	return m.Seq, nil
}
