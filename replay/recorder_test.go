package replay_test

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
	"github.com/campaign-journal/journal/replay"
)

// recorder records sessions with the command layer on a memory store, with
// a deterministic clock, ids and seeds.
type recorder struct {
	t     *testing.T
	ctx   context.Context
	store *memstore.Store
	j     *command.Journal
	camp  string
}

func newRecorder(t *testing.T, campaign string) *recorder {
	t.Helper()
	at := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { at = at.Add(time.Second); return at }
	store := memstore.New(memstore.Options{})
	j := command.New(store, command.Options{
		Clock: clock, Rand: rand.NewChaCha8([32]byte{7}), IDs: events.NewV7(clock, rand.NewChaCha8([32]byte{9})),
	})
	return &recorder{t: t, ctx: context.Background(), store: store, j: j, camp: campaign}
}

// do runs a command that must succeed.
func (r *recorder) do(what string, f func() (command.Result, error)) command.Result {
	r.t.Helper()
	res, err := f()
	require.NoError(r.t, err, what)
	return res
}

// records returns every stored event.
func (r *recorder) records() []events.Recorded {
	r.t.Helper()
	var out []events.Recorded
	require.NoError(r.t, r.store.Read(r.ctx, events.Query{}, func(x events.Recorded) error {
		out = append(out, x)
		return nil
	}))
	return out
}

// export returns the store's events as an export.
func (r *recorder) export() []byte {
	r.t.Helper()
	var buf bytes.Buffer
	for _, x := range r.records() {
		require.NoError(r.t, replay.WriteJSONL(&buf, x.Event))
	}
	return buf.Bytes()
}
