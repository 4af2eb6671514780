package main

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
)

// storedBytes returns a function that reads an event's exact stored bytes
// by its stream sequence, so that an export writes each event verbatim (the
// bytes journal-dice-v2's prevhash chain hashes), not a re-encoding.
func (a *app) storedBytes(ctx context.Context) (func(events.Recorded) ([]byte, error), error) {
	if a.nc == nil {
		return nil, fmt.Errorf("export: no connection to the journal's JetStream")
	}
	js, err := jetstream.New(a.nc)
	if err != nil {
		return nil, err
	}
	stream, err := js.Stream(ctx, jetstore.StreamName)
	if err != nil {
		return nil, fmt.Errorf("export: stream %s: %w", jetstore.StreamName, err)
	}
	return func(r events.Recorded) ([]byte, error) {
		m, err := stream.GetMsg(ctx, r.Seq)
		if err != nil {
			return nil, fmt.Errorf("export: the stored bytes of event %s (seq %d): %w", r.Event.ID, r.Seq, err)
		}
		return m.Data, nil
	}, nil
}
