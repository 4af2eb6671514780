package main

import (
	"context"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// storedBytes returns a function that gives an event's exact stored bytes,
// as the store's read gave them (events.Recorded.Raw), so that an export
// writes each event verbatim (the bytes the campaign's chain hashes), not
// a re-encoding.
func (a *app) storedBytes(context.Context) (func(events.Recorded) ([]byte, error), error) {
	return func(r events.Recorded) ([]byte, error) {
		if r.Raw == nil {
			return nil, msgerr.Errorf("export: the store gave no stored bytes for event %s (seq %d)", r.Event.ID, r.Seq)
		}
		return r.Raw, nil
	}, nil
}
