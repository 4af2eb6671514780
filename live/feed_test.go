package live_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/feed"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
)

// TestLiveFeed: a subscription of the projector's live feed gets every
// event of its campaign folded after it subscribed, in stream order, as
// the store holds it; OnFeed gets every event of every campaign.
func TestLiveFeed(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			st, kv := b.open(t)
			var mu sync.Mutex
			var all []uint64
			r, _ := start(t, st, kv, live.Options{OnFeed: func(ev *feed.Event) {
				mu.Lock()
				all = append(all, ev.Seq)
				mu.Unlock()
			}})
			sub := r.p.Subscribe("mordor")
			defer sub.Close()
			j := livetest.NewJournal(st)
			livetest.Setup(ctx, t, j, "mordor")
			livetest.Setup(ctx, t, j, "moria")
			livetest.PartOne(ctx, t, j, "mordor")
			caughtUp(t, st, r.p)

			var want []events.Recorded
			require.NoError(t, st.Read(ctx, events.Query{Subject: "journal.mordor"}, func(rec events.Recorded) error {
				want = append(want, rec)
				return nil
			}))
			for i, w := range want {
				select {
				case ev, ok := <-sub.Events():
					require.True(t, ok, "the feed closed at event %d: %v", i, sub.Err())
					doc, err := events.Encode(w.Event)
					require.NoError(t, err)
					if ev.Seq != w.Seq || ev.Campaign != "mordor" || ev.Type != w.Event.Type || string(ev.Doc) != string(doc) {
						t.Fatalf("event %d: got seq %d %s %s, want %d %s", i, ev.Seq, ev.Campaign, ev.Type, w.Seq, w.Event.Type)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("event %d (seq %d) not on the feed", i, w.Seq)
				}
			}
			if n := len(sub.Events()); n != 0 {
				t.Fatalf("%d events more than mordor's on its feed", n)
			}
			last, err := st.Last(ctx, events.AllFilter)
			require.NoError(t, err)
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(all, seqsTo(last)) {
				t.Fatalf("OnFeed got %v, want 1..%d", all, last)
			}
			if r.p.FeedReaders() != 1 {
				t.Fatalf("feed readers = %d, want 1", r.p.FeedReaders())
			}
		})
	}
}

func seqsTo(n uint64) []uint64 {
	out := make([]uint64, 0, n)
	for s := uint64(1); s <= n; s++ {
		out = append(out, s)
	}
	return out
}
