package cluster_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/cluster"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
)

// TestReplicasFixedOnCluster: a journal created with three replicas on a
// three-server cluster keeps them, on one partition and on three. Opening
// it with Replicas 0 takes the journal's 3, for its streams, the secrets
// bucket and the checkpoint bucket alike; opening it with 1 (what a
// command without --replicas 3 asked before) is refused with ErrReplicas
// and changes nothing; a checkpoint bucket opened with 1 keeps its 3. On
// one partition the journal's stream starts in an older configuration
// (no atomic publish): Open updates it and keeps its three replicas.
func TestReplicasFixedOnCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("cluster test: a three-server cluster per case; skipped in short mode")
	}
	for _, k := range []int{1, 3} {
		t.Run(fmt.Sprint(k, " partitions"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
			defer cancel()
			c, err := cluster.Start(ctx, cluster.Options{Dir: t.TempDir()})
			require.NoError(t, err)
			t.Cleanup(c.Shutdown)
			nc, err := c.Connect(1, nats.Name("replicas"))
			require.NoError(t, err)
			t.Cleanup(nc.Close)
			js, err := jetstream.New(nc)
			require.NoError(t, err)

			if k == 1 {
				old := jetstore.StreamConfig(jetstore.Options{Replicas: 3})
				old.AllowAtomicPublish = false
				for { // the first creation may race the cluster's first elections
					if _, err = js.CreateStream(ctx, old); err == nil || ctx.Err() != nil {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
				require.NoError(t, err)
				st, err := jetstore.Open(ctx, js, jetstore.Options{})
				require.NoError(t, err)
				require.Equal(t, 3, st.Replicas())
				info, err := js.Stream(ctx, jetstore.StreamName)
				require.NoError(t, err)
				require.True(t, info.CachedInfo().Config.AllowAtomicPublish, "the older stream is updated")
			} else {
				openPartitioned(t, c, 0, k) // Replicas 3
			}
			_, err = live.OpenBucket(ctx, js, 0)
			require.NoError(t, err)
			names := append(jetstore.StreamNames(k), "KV_"+jetstore.SecretsBucket, "KV_"+live.Bucket)
			requireReplicas := func(why string) {
				t.Helper()
				for _, name := range names {
					s, err := js.Stream(ctx, name)
					require.NoError(t, err, name)
					require.Equal(t, 3, s.CachedInfo().Config.Replicas, "%s: %s", why, name)
				}
			}
			requireReplicas("created")

			st, err := jetstore.Open(ctx, js, jetstore.Options{})
			require.NoError(t, err)
			require.Equal(t, 3, st.Replicas())
			require.Equal(t, k, st.Partitions())
			_, err = live.OpenBucket(ctx, js, 1)
			require.NoError(t, err)
			requireReplicas("opened with 0 (the journal's), the checkpoints with 1")

			_, err = jetstore.Open(ctx, js, jetstore.Options{Replicas: 1})
			require.ErrorIs(t, err, jetstore.ErrReplicas)
			require.EqualError(t, err, "jetstore: replicas: this journal has 3, not 1 (the number of replicas is fixed when the journal is created)")
			requireReplicas("refused 1")

			// The journal opened with 0 records on its three replicas.
			e, err := events.New(events.Spec{Campaign: "mordor", Kind: events.KindCampaign, AggregateID: "mordor", Name: "created",
				Type: events.TypeCampaignCreated, Actor: "gm", Data: events.CampaignCreated{Name: "Mordor", System: "ryf"}}, events.NewV7(time.Now, rand.Reader), time.Now())
			require.NoError(t, err)
			seqs, err := st.Append(ctx, events.Expect{}, e)
			require.NoError(t, err)
			require.Equal(t, []uint64{1}, seqs)
			require.NoError(t, c.WaitReplicas(ctx, jetstore.CampaignStream("mordor", k)))
		})
	}
}
