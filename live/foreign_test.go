package live_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
)

// rawBackend is a store, a checkpoint bucket and a way to publish a raw
// message into the stream, as the journal's own connection can.
type rawBackend struct {
	name string
	open func(t *testing.T) (store, live.KV, func(subject string, data []byte))
}

func rawBackends() []rawBackend {
	return []rawBackend{
		{"memstore", func(t *testing.T) (store, live.KV, func(string, []byte)) {
			st := memstore.New(memstore.Options{})
			return st, live.NewMemKV(), func(subject string, data []byte) {
				_, err := st.PublishRaw(context.Background(), subject, data)
				require.NoError(t, err)
			}
		}},
		{"jetstream", func(t *testing.T) (store, live.KV, func(string, []byte)) {
			ctx := context.Background()
			srv, st := embeddedtest.Store(t, embedded.Options{})
			kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
			require.NoError(t, err)
			return st, kv, func(subject string, data []byte) {
				_, err := srv.JetStream().Publish(ctx, subject, data)
				require.NoError(t, err)
			}
		}},
	}
}

// TestForeignMessagesAreSkipped: messages that are not events, among the
// events of a campaign and of another, before the projector starts and
// while it runs, are skipped and counted; the projection goes on past
// them, for every campaign, equal to a refold; a restart from its
// checkpoint also equals it; the health is degraded, not stuck.
func TestForeignMessagesAreSkipped(t *testing.T) {
	for _, b := range rawBackends() {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st, kv, publish := b.open(t)
			j := livetest.NewJournal(st)
			livetest.Setup(ctx, t, j, "mordor")
			publish("journal.mordor", []byte("not an event"))

			var mu sync.Mutex
			var seen []events.Foreign
			opts := live.Options{Every: 3, Interval: time.Hour, OnForeign: func(f events.Foreign) {
				mu.Lock()
				seen = append(seen, f)
				mu.Unlock()
			}}
			r, _ := start(t, st, kv, opts)
			caughtUp(t, st, r.p)

			void := livetest.PartOne(ctx, t, j, "mordor")
			publish("journal.moria", []byte(`{"specversion":"1.0"}`))
			livetest.Setup(ctx, t, j, "moria")
			livetest.PartTwo(ctx, t, j, "mordor", void) // voids an event: a refold past the first message
			publish("journal.mordor", nil)              // last on mordor
			caughtUp(t, st, r.p)

			require.Equal(t, mustJSON(t, refold(t, st, "mordor")), viewJSON(t, r.p, "mordor"))
			require.Equal(t, mustJSON(t, refold(t, st, "moria")), viewJSON(t, r.p, "moria"))
			stats := r.p.Stats()
			require.Equal(t, 3, stats.Foreign)
			require.NotNil(t, stats.LastForeign)
			require.Equal(t, "journal.mordor", stats.LastForeign.Subject)
			require.ErrorIs(t, stats.LastForeign, events.ErrInvalidEvent)
			mu.Lock()
			require.Len(t, seen, 3)
			mu.Unlock()
			r.p.NoteStreamLast(stats.Position)
			require.Equal(t, live.HealthDegraded, r.p.Health().Status)

			// A restart from the checkpoint resumes past them and agrees.
			require.NoError(t, r.stop())
			again, _ := start(t, st, kv, live.Options{Interval: time.Hour})
			caughtUp(t, st, again.p)
			require.Equal(t, mustJSON(t, refold(t, st, "mordor")), viewJSON(t, again.p, "mordor"))
		})
	}
}

// TestHealth: a projection caught up is ok; behind the stream it is
// lagging, then stuck once it has not moved for StuckAfter; moving again
// makes it lagging or ok. The clock is the test's.
func TestHealth(t *testing.T) {
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	livetest.Setup(ctx, t, livetest.NewJournal(st), "mordor")
	last, err := st.Last(ctx, events.AllFilter)
	require.NoError(t, err)

	var mu sync.Mutex
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	wait := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	p := live.New(st, nil, live.Options{Clock: clock, Interval: time.Hour, StuckAfter: time.Minute})

	// Not running: behind, and not moving.
	p.NoteStreamLast(last)
	h := p.Health()
	require.Equal(t, live.HealthLagging, h.Status)
	require.Equal(t, last, h.Lag())
	wait(time.Minute)
	h = p.Health()
	require.Equal(t, live.HealthStuck, h.Status)
	require.Equal(t, time.Minute, h.SinceProgress)

	// Running, it catches up: ok.
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- p.Run(runCtx) }()
	t.Cleanup(func() { cancel(); <-done })
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	require.NoError(t, p.WaitFor(wctx, last))
	require.Equal(t, live.HealthOK, p.Health().Status)

	// Caught up for long, then an event: lagging, not stuck (it was seen
	// caught up just before).
	wait(time.Hour)
	p.NoteStreamLast(last)
	wait(time.Second)
	p.NoteStreamLast(last + 1)
	require.Equal(t, live.HealthLagging, p.Health().Status)
}
