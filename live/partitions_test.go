package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
	"github.com/campaign-journal/journal/projections"
)

// TestRebuildOverPartitions: the live projection rebuilt over a journal of
// three partitions (one projector per partition, each following its
// stream) equals the one-partition fold of the same events, campaign by
// campaign, every sequence in it being the campaign's in its own stream;
// and a projector over the three streams at once is refused.
func TestRebuildOverPartitions(t *testing.T) {
	const k = 3
	ctx := context.Background()
	_, one := embeddedtest.Store(t, embedded.Options{})
	j := livetest.NewJournal(one)
	campaigns := []string{"mordor", "moria", "gondor", "rohan", "shire", "erebor"}
	for _, c := range campaigns[:5] {
		livetest.Setup(ctx, t, j, c)
		void := livetest.PartOne(ctx, t, j, c)
		livetest.PartTwo(ctx, t, j, c, void)
	}
	livetest.TOR(ctx, t, j, "erebor")

	// The same events, in the same order, into a journal of three partitions.
	srv := embeddedtest.Start(t, embedded.Options{})
	three, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{Partitions: k})
	require.NoError(t, err)
	seqs := map[string]map[uint64]uint64{} // campaign: its sequence in one → in three
	require.NoError(t, one.Read(ctx, events.Query{}, func(r events.Recorded) error {
		got, err := three.Append(ctx, events.Expect{}, r.Event)
		if err != nil {
			return err
		}
		if seqs[r.Event.Campaign] == nil {
			seqs[r.Event.Campaign] = map[uint64]uint64{0: 0}
		}
		seqs[r.Event.Campaign][r.Seq] = got[0]
		return nil
	}))
	spread := map[int]bool{}
	for _, c := range campaigns {
		spread[events.Partition(c, k)] = true
	}
	require.Len(t, spread, k, "the campaigns are spread over the three partitions")

	_, err = live.New(three, live.NewMemKV(), live.Options{}).Restore(ctx)
	require.ErrorIs(t, err, live.ErrPartitioned, "one projector over three streams")

	whole, _ := start(t, one, live.NewMemKV(), live.Options{})
	caughtUp(t, one, whole.p)
	parts := make([]running, k)
	for p := range parts {
		view := three.Partition(p)
		parts[p], _ = start(t, view, live.NewMemKV(), live.Options{})
		caughtUp(t, view, parts[p].p)
	}
	for _, c := range campaigns {
		want := renumber(t, viewJSON(t, whole.p, c), seqs[c])
		got := viewJSON(t, parts[events.Partition(c, k)].p, c)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s over partitions:\n%s\nwant (one partition, renumbered):\n%s", c, got, want)
		}
		require.Equal(t, mustJSON(t, refold(t, three, c)), got, "%s: the live state is the refold", c)
	}
}

// renumber rewrites every sequence (a field named seq or *_seq) of a campaign's
// JSON through seqs.
func renumber(t *testing.T, b []byte, seqs map[uint64]uint64) []byte {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	require.NoError(t, d.Decode(&v))
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for key, e := range x {
				if n, ok := e.(json.Number); ok && (key == "seq" || strings.HasSuffix(key, "_seq")) {
					old, err := n.Int64()
					require.NoError(t, err)
					seq, ok := seqs[uint64(old)]
					require.True(t, ok, "sequence %d of %s", old, key)
					x[key] = seq
					continue
				}
				x[key] = walk(e)
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return v
	}
	out, err := json.Marshal(walk(v))
	require.NoError(t, err)
	// Field order as the projection writes it: decode into its type.
	return reencode(t, out)
}

// reencode is b decoded as a campaign and encoded again.
func reencode(t *testing.T, b []byte) []byte {
	t.Helper()
	var c projections.Campaign
	require.NoError(t, json.Unmarshal(b, &c))
	return mustJSON(t, &c)
}
