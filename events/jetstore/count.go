package jetstore

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// SubjectCount returns how many messages the stream holds on subject (a
// campaign's subject, within one stream) and the stream's epoch: its
// name and creation time, which a stream deleted and made again (a
// restore, another journal on the same folder) does not share. It is one
// request to the stream leader (STREAM.INFO with a subject filter), which
// answers from its index of subjects without reading a message: the
// server loads no block of the stream, whatever the stream holds.
//
// A cold load from a checkpoint (command) asks this first: the journal's
// stream denies deletes and purges, so when the stream of the same epoch
// holds as many messages on the campaign's subject as the checkpoint
// folded, nothing follows the checkpoint, and the load reads no message.
// A subject over several partitions' streams is refused with
// errors.ErrUnsupported (ErrLastSpansStreams).
func (s *Store) SubjectCount(ctx context.Context, subject string) (n uint64, epoch string, err error) {
	if err := events.ValidFilter(subject); err != nil {
		return 0, "", err
	}
	ts := s.targets(subject)
	if len(ts) != 1 {
		return 0, "", msgerr.Errorf("jetstore: %w (%w): %s", ErrLastSpansStreams, errors.ErrUnsupported, subject)
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	req, err := json.Marshal(struct {
		Filter string `json:"subjects_filter"`
	}{ts[0].filter})
	if err != nil {
		return 0, "", err
	}
	resp, err := s.nc.RequestWithContext(ctx, s.prefix+"STREAM.INFO."+ts[0].stream, req)
	if err != nil {
		return 0, "", msgerr.Errorf("count on %s: %w", subject, err)
	}
	var r struct {
		Error   *jetstream.APIError `json:"error"`
		Created time.Time           `json:"created"`
		State   struct {
			Subjects map[string]uint64 `json:"subjects"`
		} `json:"state"`
	}
	if err := json.Unmarshal(resp.Data, &r); err != nil {
		return 0, "", msgerr.Errorf("count on %s: %w", subject, err)
	}
	if r.Error != nil {
		return 0, "", msgerr.Errorf("count on %s: %w", subject, r.Error)
	}
	if r.Created.IsZero() {
		return 0, "", msgerr.Errorf("count on %s: the stream's answer has no creation time", subject)
	}
	return r.State.Subjects[ts[0].filter], ts[0].stream + "@" + r.Created.UTC().Format(time.RFC3339Nano), nil
}
