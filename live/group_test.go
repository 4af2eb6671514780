package live_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
)

// group returns a group of one projector per partition of three, each
// over its partition's stream, checkpointing into kv.
func group(three *jetstore.Store, kv live.KV, opts live.Options) *live.Group {
	ps := make([]*live.Projector, three.Partitions())
	for p := range ps {
		ps[p] = live.New(three.Partition(p), live.PartitionKV(kv, p, len(ps)), opts)
	}
	return live.NewGroup(ps...)
}

// runGroup runs g until the test ends.
func runGroup(t *testing.T, g *live.Group) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

// TestGroupCheckpointsPerPartition: over a journal of three partitions in
// a real bucket, a group of projectors checkpoints each partition under
// its own keys (partition-<p>.position, partition-<p>.campaign.<id> for
// the campaigns of that partition alone, never the one-partition keys),
// and a new group resumes every partition from its checkpoint, at its
// stream's last sequence, to states equal to a refold; events recorded
// meanwhile are folded on.
func TestGroupCheckpointsPerPartition(t *testing.T) {
	const k = 3
	ctx := context.Background()
	srv := embeddedtest.Start(t, embedded.Options{})
	three, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{Partitions: k})
	require.NoError(t, err)
	kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
	require.NoError(t, err)
	j := livetest.NewJournal(three)
	campaigns := []string{"mordor", "gondor", "rohan", "erebor"}
	spread := map[int]bool{}
	voids := map[string]string{}
	for _, c := range campaigns {
		livetest.Setup(ctx, t, j, c)
		voids[c] = livetest.PartOne(ctx, t, j, c)
		spread[events.Partition(c, k)] = true
	}
	require.Len(t, spread, k)

	g := group(three, kv, live.Options{Every: 5, Interval: time.Hour})
	from, err := g.Restore(ctx)
	require.NoError(t, err)
	require.Equal(t, []uint64{0, 0, 0}, from, "nothing to resume from")
	stop := runGroup(t, g)
	waitCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	require.NoError(t, g.CatchUp(waitCtx))
	cancel()
	require.ErrorIs(t, stop(), context.Canceled)
	require.NoError(t, g.Checkpoint(ctx))

	keys, err := kv.Keys(ctx)
	require.NoError(t, err)
	require.NotContains(t, keys, "position", "no key of a one-partition journal")
	for p := range k {
		require.Contains(t, keys, "partition-"+string(rune('0'+p))+".position")
	}
	for _, key := range keys {
		if strings.HasPrefix(key, "fold.") {
			continue // the command journal's
		}
		part, rest, ok := strings.Cut(strings.TrimPrefix(key, "partition-"), ".")
		require.True(t, ok && strings.HasPrefix(key, "partition-"), "key %s", key)
		if id, ok := strings.CutPrefix(rest, "campaign."); ok {
			require.Equal(t, string(rune('0'+events.Partition(id, k))), part, "%s under its partition", key)
		}
	}

	// Recorded while no projector runs, then a new group resumes.
	for _, c := range campaigns[:2] {
		livetest.PartTwo(ctx, t, j, c, voids[c])
	}
	h := group(three, kv, live.Options{Every: 5, Interval: time.Hour})
	from, err = h.Restore(ctx)
	require.NoError(t, err)
	for p := range k {
		require.Equal(t, g.Partition(p).Position(), from[p], "partition %d resumes from its checkpoint", p)
		require.NotZero(t, from[p])
	}
	runGroup(t, h)
	waitCtx, cancel = context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, h.CatchUp(waitCtx))
	for _, c := range campaigns {
		require.Equal(t, mustJSON(t, refold(t, three, c)), viewJSON(t, h.For(c), c), "%s: restored and folded on = refold", c)
	}
	list := h.Campaigns()
	require.Len(t, list, len(campaigns), "every partition's campaigns")
	require.Equal(t, "erebor", list[0].ID, "by id")
}

// TestGroupHealth: the group is stuck when any partition is stuck, its lag
// the sum of the partitions', and ok only when every partition is.
func TestGroupHealth(t *testing.T) {
	const k = 3
	ctx := context.Background()
	srv := embeddedtest.Start(t, embedded.Options{})
	three, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{Partitions: k})
	require.NoError(t, err)
	j := livetest.NewJournal(three)
	livetest.Setup(ctx, t, j, "mordor") // one partition's stream alone
	behind := events.Partition("mordor", k)

	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	g := group(three, nil, live.Options{Clock: clock, StuckAfter: time.Minute})
	require.Equal(t, live.HealthOK, g.Health().Status, "nothing seen yet")

	require.NoError(t, g.PollLast(ctx)) // no projector runs: one partition is behind
	last, err := three.Partition(behind).Last(ctx, events.AllFilter)
	require.NoError(t, err)
	h := g.Health()
	require.Equal(t, live.HealthLagging, h.Status)
	require.Equal(t, last, h.Lag())
	require.Len(t, h.Partitions, k)
	for p, ph := range h.Partitions {
		if p == behind {
			require.Equal(t, live.HealthLagging, ph.Status)
			continue
		}
		require.Equal(t, live.HealthOK, ph.Status, "partition %d", p)
	}

	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	h = g.Health()
	require.Equal(t, live.HealthStuck, h.Status, "one partition stuck: the group is")
	require.Equal(t, live.HealthStuck, h.Partitions[behind].Status)

	runGroup(t, g)
	waitCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, g.CatchUp(waitCtx))
	h = g.Health()
	require.Equal(t, live.HealthOK, h.Status, "caught up")
	require.Zero(t, h.Lag())
	require.Equal(t, last, h.Position)
}
