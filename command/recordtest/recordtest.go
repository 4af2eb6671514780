// Package recordtest records sessions for tests: the command layer on a
// memory store, with a deterministic clock, ids and seeds, so that the same
// calls always record the same events. The tests of replay and reproduce
// share it.
package recordtest

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
)

// Recorder records sessions of one campaign.
type Recorder struct {
	T        *testing.T
	Ctx      context.Context
	Store    *memstore.Store
	J        *command.Handler
	Campaign string
}

// New returns a recorder of campaign on a fresh memory store: the clock
// starts at 2026-11-30 20:00 UTC and ticks a second a call; seeds and ids
// come from fixed ChaCha8 streams.
func New(t *testing.T, campaign string) *Recorder {
	t.Helper()
	at := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { at = at.Add(time.Second); return at }
	store := memstore.New(memstore.Options{})
	j := command.New(store, command.Options{
		Clock: clock, Rand: rand.NewChaCha8([32]byte{7}), IDs: events.NewV7(clock, rand.NewChaCha8([32]byte{9})),
	})
	return &Recorder{T: t, Ctx: context.Background(), Store: store, J: j, Campaign: campaign}
}

// Do runs a command that must succeed.
func (r *Recorder) Do(what string, f func() (command.Result, error)) command.Result {
	r.T.Helper()
	res, err := f()
	require.NoError(r.T, err, what)
	return res
}

// Records returns every stored event.
func (r *Recorder) Records() []events.Recorded {
	r.T.Helper()
	var out []events.Recorded
	require.NoError(r.T, r.Store.Read(r.Ctx, events.Query{}, func(x events.Recorded) error {
		out = append(out, x)
		return nil
	}))
	return out
}

// Export returns the store's events as an export: each event's stored
// bytes on a line of its own, as journal export writes them.
func (r *Recorder) Export() []byte {
	r.T.Helper()
	var buf bytes.Buffer
	for _, x := range r.Records() {
		buf.Write(x.Raw)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}
