package main

import (
	"context"
	"fmt"

	"github.com/campaign-journal/journal/events"
)

// storedBytes returns a function that reads an event's exact stored bytes
// (by its campaign's stream and sequence), so that an export writes each
// event verbatim (the bytes journal-dice-v2's prevhash chain hashes), not
// a re-encoding.
func (a *app) storedBytes(ctx context.Context) (func(events.Recorded) ([]byte, error), error) {
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	raw, ok := st.(interface {
		StoredBytes(context.Context, events.Recorded) ([]byte, error)
	})
	if !ok {
		return nil, fmt.Errorf("export: the store %T cannot give an event's stored bytes", st)
	}
	return func(r events.Recorded) ([]byte, error) {
		b, err := raw.StoredBytes(ctx, r)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		return b, nil
	}, nil
}
