package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
	"github.com/campaign-journal/journal/projections"
)

// store is what these tests need of an event store.
type store interface {
	live.Source
	Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error)
	Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error
	PutSecret(ctx context.Context, key string, value []byte) error
	GetSecret(ctx context.Context, key string) ([]byte, error)
}

// backend is one store and checkpoint bucket to run the tests against.
type backend struct {
	name string
	open func(t *testing.T) (store, live.KV)
}

func backends() []backend {
	return []backend{
		{"memstore", func(t *testing.T) (store, live.KV) {
			return memstore.New(memstore.Options{}), live.NewMemKV()
		}},
		{"jetstream", func(t *testing.T) (store, live.KV) {
			ctx := context.Background()
			srv, st := embeddedtest.Store(t, embedded.Options{})
			kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
			require.NoError(t, err)
			return st, kv
		}},
	}
}

// running is a projector running in the background.
type running struct {
	p    *live.Projector
	stop func() error
}

func start(t *testing.T, src live.Source, kv live.KV, opts live.Options) (running, uint64) {
	t.Helper()
	p := live.New(src, kv, opts)
	from, err := p.Restore(context.Background())
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			return err
		}
		return p.Checkpoint(context.Background())
	}
	t.Cleanup(func() { _ = stop() })
	return running{p: p, stop: stop}, from
}

// refold folds campaign id from the whole stream, as the command handlers
// do (voids known from the start).
func refold(t *testing.T, st store, id string) *projections.Campaign {
	t.Helper()
	c, err := livetest.NewJournal(st).Load(context.Background(), id, 0)
	require.NoError(t, err)
	return c
}

// caughtUp waits until the projector has folded the whole stream.
func caughtUp(t *testing.T, st store, p *live.Projector) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	last, err := st.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	require.NoError(t, p.WaitFor(ctx, last))
}

// viewJSON returns the live state of campaign id as JSON.
func viewJSON(t *testing.T, p *live.Projector, id string) []byte {
	t.Helper()
	var b []byte
	require.NoError(t, p.View(id, func(c *projections.Campaign) error {
		var err error
		b, err = json.Marshal(c)
		return err
	}))
	return b
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// TestResumeEqualsRefold stops a projector after the first half of a
// session, records the second half, restarts from the checkpoint and checks
// that the resumed state equals a full refold, both as JSON and as values.
func TestResumeEqualsRefold(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st, kv := b.open(t)
			j := livetest.NewJournal(st)
			livetest.Setup(ctx, t, j, "mordor")
			livetest.Setup(ctx, t, j, "moria")

			first, from := start(t, st, kv, live.Options{Every: 5, Interval: time.Hour})
			if from != 0 {
				t.Fatalf("restored from %d on an empty bucket, want 0", from)
			}
			void := livetest.PartOne(ctx, t, j, "mordor")
			livetest.TOR(ctx, t, j, "erebor")
			caughtUp(t, st, first.p)
			require.NoError(t, first.stop())
			stopped := first.p.Position()
			if got := first.p.Stats().CheckpointSeq; got != stopped {
				t.Fatalf("final checkpoint at %d, want the position %d", got, stopped)
			}

			livetest.PartTwo(ctx, t, j, "mordor", void)
			livetest.PartOne(ctx, t, j, "moria")

			second, from := start(t, st, kv, live.Options{Every: 1000, Interval: time.Hour})
			if from != stopped {
				t.Fatalf("resumed from %d, want %d", from, stopped)
			}
			caughtUp(t, st, second.p)
			for _, id := range []string{"mordor", "moria", "erebor"} {
				want := mustJSON(t, refold(t, st, id))
				if got := viewJSON(t, second.p, id); !bytes.Equal(got, want) {
					t.Fatalf("%s resumed:\n%s\nwant (refold):\n%s", id, got, want)
				}
			}
			if got := second.p.Stats().RestoredFrom; got != stopped {
				t.Fatalf("Stats().RestoredFrom = %d, want %d", got, stopped)
			}
		})
	}
}

// TestCheckpointRoundTrip checks that the states of a RyF and a One Ring
// campaign survive their checkpoint encoding at every sequence of a
// session, so that a restart at any point resumes to a state equal to a
// refold. States are compared as JSON: nil and empty maps tagged omitempty
// are the same state (Campaign has no field left out of its JSON).
func TestCheckpointRoundTrip(t *testing.T) {
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	j := livetest.NewJournal(st)
	livetest.Setup(ctx, t, j, "mordor")
	void := livetest.PartOne(ctx, t, j, "mordor")
	livetest.TOR(ctx, t, j, "erebor")
	livetest.PartTwo(ctx, t, j, "mordor", void)
	last, err := st.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	want := map[string][]byte{"mordor": mustJSON(t, refold(t, st, "mordor")), "erebor": mustJSON(t, refold(t, st, "erebor"))}
	for at := uint64(1); at < last; at++ {
		kv := live.NewMemKV()
		// Fold up to at, checkpoint, then resume to the end.
		p := live.New(boundedSource{st, at}, kv, live.Options{Interval: time.Hour})
		runUntil(t, p, at)
		require.NoError(t, p.Checkpoint(ctx))
		q := live.New(st, kv, live.Options{Interval: time.Hour})
		from, err := q.Restore(ctx)
		require.NoError(t, err)
		if from != at {
			t.Fatalf("restored from %d, want %d", from, at)
		}
		runUntil(t, q, last)
		for id, w := range want {
			if got := viewJSON(t, q, id); !bytes.Equal(got, w) {
				t.Fatalf("%s resumed from %d:\n%s\nwant:\n%s", id, at, got, w)
			}
		}
	}
}

// runUntil runs p until its position reaches seq, then stops it.
func runUntil(t *testing.T, p *live.Projector, seq uint64) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	err := p.WaitFor(wctx, seq)
	wcancel()
	cancel()
	<-done
	require.NoError(t, err)
}

// boundedSource follows a store up to a sequence and then waits.
type boundedSource struct {
	*memstore.Store
	to uint64
}

func (b boundedSource) Follow(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	q.To = b.to
	if err := b.Store.Follow(ctx, q, fn); err != nil {
		return err
	}
	<-ctx.Done()
	return ctx.Err()
}

// TestIgnoresForeignCheckpoint refolds when the checkpoint has another
// format or is ahead of the stream.
func TestIgnoresForeignCheckpoint(t *testing.T) {
	tests := []struct {
		name, position string
	}{
		{"other format", `{"format":99,"fingerprint":"FP","seq":1}`},
		{"another fold", `{"format":1,"fingerprint":"0123456789abcdef","seq":1}`},
		{"ahead of the stream", `{"format":1,"fingerprint":"FP","seq":999999}`},
		{"unreadable", `{`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			st := memstore.New(memstore.Options{})
			livetest.Setup(ctx, t, livetest.NewJournal(st), "mordor")
			kv := live.NewMemKV()
			require.NoError(t, kv.Put(ctx, "position", []byte(strings.ReplaceAll(tt.position, "FP", projections.Fingerprint()))))
			r, from := start(t, st, kv, live.Options{})
			if from != 0 {
				t.Fatalf("restored from %d, want a full refold", from)
			}
			caughtUp(t, st, r.p)
			require.Equal(t, mustJSON(t, refold(t, st, "mordor")), viewJSON(t, r.p, "mordor"))
		})
	}
}

// TestStats checks the lag and the campaign list.
func TestStats(t *testing.T) {
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	j := livetest.NewJournal(st)
	livetest.Setup(ctx, t, j, "mordor")
	r, _ := start(t, st, live.NewMemKV(), live.Options{Interval: 10 * time.Millisecond})
	caughtUp(t, st, r.p)
	list := r.p.Campaigns()
	if len(list) != 1 || list[0].ID != "mordor" || list[0].Characters != 3 || list[0].OpenSession != "s1" {
		t.Fatalf("Campaigns() = %+v", list)
	}
	last, err := st.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	r.p.NoteStreamLast(last + 5)
	if got := r.p.Stats().Lag(); got != 5 {
		t.Fatalf("lag = %d, want 5", got)
	}
	if err := r.p.View("nowhere", func(*projections.Campaign) error { return nil }); !errors.Is(err, events.ErrNotFound) {
		t.Fatalf("View(nowhere) = %v, want ErrNotFound", err)
	}
}
