package jetstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
)

// ErrLastSpansStreams is returned by ReadLast (with errors.ErrUnsupported)
// for a filter over the streams of several partitions, whose last messages
// are not one message.
var ErrLastSpansStreams = errors.New("the last message of a filter over several partitions' streams")

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
		return 0, fmt.Errorf("jetstore: %w (%w): %s", ErrLastSpansStreams, errors.ErrUnsupported, q.Filter())
	}
	t := ts[0]
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	req, err := json.Marshal(struct {
		LastFor   string `json:"last_by_subj"`
		NoHeaders bool   `json:"no_hdr"`
	}{t.filter, true})
	if err != nil {
		return 0, err
	}
	resp, err := s.nc.RequestWithContext(ctx, s.prefix+"STREAM.MSG.GET."+t.stream, req)
	if err != nil {
		return 0, fmt.Errorf("last on %s: %w", t.filter, err)
	}
	var r struct {
		Error   *jetstream.APIError `json:"error"`
		Message *struct {
			Subject string `json:"subject"`
			Seq     uint64 `json:"seq"`
			Data    []byte `json:"data"`
		} `json:"message"`
	}
	if err := json.Unmarshal(resp.Data, &r); err != nil {
		return 0, fmt.Errorf("last on %s: %w", t.filter, err)
	}
	switch {
	case r.Error != nil && r.Error.ErrorCode == errCodeNoMessageFound:
		return 0, nil
	case r.Error != nil:
		return 0, fmt.Errorf("last on %s: %w", t.filter, r.Error)
	case r.Message == nil || r.Message.Seq == 0:
		return 0, fmt.Errorf("last on %s: empty response", t.filter)
	}
	m := r.Message
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
