package command_test

import (
	"context"
	"crypto/rand"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
	"github.com/campaign-journal/journal/projections"
)

// countingStore is a store that counts the messages its reads deliver
// (events and messages that are not events).
type countingStore struct {
	command.Store
	read atomic.Int64
}

func (s *countingStore) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	if q.OnForeign != nil {
		on := q.OnForeign
		q.OnForeign = func(f events.Foreign) error { s.read.Add(1); return on(f) }
	}
	return s.Store.Read(ctx, q, func(r events.Recorded) error { s.read.Add(1); return fn(r) })
}

// reads returns the messages delivered since the last call.
func (s *countingStore) reads() int { return int(s.read.Swap(0)) }

// jetCheckpoints starts an embedded server and returns its store and the
// checkpoint bucket.
func jetCheckpoints(t testing.TB) (*jetstore.Store, *live.BucketKV) {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	st, err := jetstore.Open(context.Background(), srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	kv, err := live.OpenBucket(context.Background(), srv.JetStream(), 1)
	require.NoError(t, err)
	return st, kv
}

// checkpointed returns a journal with a cache of its own (a fresh process)
// over a counting view of st, with checkpoints in kv written every every
// events (negative: never).
func checkpointed(st command.Store, kv command.Checkpoints, every int) (*command.Journal, *countingStore) {
	cs := &countingStore{Store: st}
	return command.New(cs, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader),
		Actor: "test", Checkpoints: kv, CheckpointEvery: every}), cs
}

// campaignEvents reads the events of campaign, in stream order.
func campaignEvents(t testing.TB, st command.Store, campaign string) []events.Recorded {
	t.Helper()
	subject, err := events.CampaignSubject(campaign)
	require.NoError(t, err)
	var recs []events.Recorded
	require.NoError(t, st.Read(context.Background(), events.Query{Subject: subject}, func(r events.Recorded) error {
		recs = append(recs, r)
		return nil
	}))
	return recs
}

// playBoth records a RyF campaign and a TOR campaign interleaved in one
// stream: voids of events folded long before them, a void of the event
// just before it, and commands under request ids.
func playBoth(t *testing.T, st command.Store) {
	ctx := context.Background()
	j := livetest.NewJournal(st)
	livetest.Setup(ctx, t, j, "mordor")
	livetest.TOR(ctx, t, j, "erebor")
	second := livetest.PartOne(ctx, t, j, "mordor")
	livetest.PartTwo(ctx, t, j, "mordor", second)
	r, err := j.WithRequest("req-1")
	require.NoError(t, err)
	res, err := r.ForCommand("damage", 1).Damage(ctx, "mordor", "lodin", 1, "")
	require.NoError(t, err)
	_, err = j.Void(ctx, "mordor", res.Events[0].Event.ID, "a mistake")
	require.NoError(t, err)
	r, err = j.WithRequest("req-2")
	require.NoError(t, err)
	_, err = r.ForCommand("damage", 2).Damage(ctx, "mordor", "ruisenor", 1, "")
	require.NoError(t, err)
	tor := campaignEvents(t, st, "erebor")
	_, err = j.Void(ctx, "erebor", tor[len(tor)-3].Event.ID, "not what happened")
	require.NoError(t, err)
}

// TestCheckpointEqualsRefold: for a RyF and a TOR campaign, a checkpoint
// at every event of the campaign, then a cold load (a fresh journal):
// the state equals a full refold, including voids after the checkpoint
// naming events before it; the load reads only the events after the
// checkpoint (and the checkpoint's own last one), unless such a void
// makes it refold; loads back in time (below the checkpoint or above it)
// equal the refold up to there.
func TestCheckpointEqualsRefold(t *testing.T) {
	st, kv := jetCheckpoints(t)
	playBoth(t, st)
	ctx := context.Background()
	for _, campaign := range []string{"mordor", "erebor"} {
		recs := campaignEvents(t, st, campaign)
		full, err := projections.Fold(campaign, recs, 0)
		require.NoError(t, err)
		voids := map[string]bool{}
		for i, r := range recs {
			writer, _ := checkpointed(st, kv, -1)
			at, err := writer.WriteCheckpoint(ctx, campaign, r.Seq)
			require.NoError(t, err)
			require.Equal(t, r.Seq, at)

			j, cs := checkpointed(st, kv, -1)
			got, err := j.Load(ctx, campaign, 0)
			require.NoError(t, err)
			require.Equal(t, full, got, "%s: checkpoint at %d", campaign, r.Seq)
			voids[r.Event.ID] = true
			refold := false // a void after the checkpoint names an event at or before it
			for _, v := range recs[i+1:] {
				if v.Event.Type == events.TypeEventVoided {
					var d events.EventVoided
					require.NoError(t, v.Event.DecodeData(&d))
					if voids[d.EventID] {
						refold = true
					}
				}
			}
			if n := cs.reads(); !refold {
				require.Equal(t, len(recs)-i, n, "%s: checkpoint at %d: reads", campaign, r.Seq)
			} else {
				require.Greater(t, n, len(recs)-i, "%s: checkpoint at %d: reads", campaign, r.Seq)
			}

			if campaign == "mordor" {
				// A retried command on the cold campaign finds its request
				// in the checkpoint's index (or in the events after it).
				j2, _ := checkpointed(st, kv, -1)
				r2, err := j2.WithRequest("req-1")
				require.NoError(t, err)
				res, err := r2.ForCommand("damage", 1).Damage(ctx, campaign, "lodin", 1, "")
				require.NoError(t, err)
				require.True(t, res.Repeated, "%s: checkpoint at %d: the request is known", campaign, r.Seq)
				require.Equal(t, full, res.Campaign, "%s: checkpoint at %d: command", campaign, r.Seq)
			}

			for _, back := range []int{0, i / 2, i, min(i+1, len(recs)-1)} {
				want, err := projections.Fold(campaign, recs, recs[back].Seq)
				require.NoError(t, err)
				got, err := j.Load(ctx, campaign, recs[back].Seq)
				require.NoError(t, err)
				require.Equal(t, want, got, "%s: checkpoint at %d, load at %d", campaign, r.Seq, recs[back].Seq)
			}
		}
	}
}

