package bench_test

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/cluster"
	"github.com/campaign-journal/journal/events/jetstore"
)

// BenchmarkReplicas measures what replication costs: on a three-server
// cluster in this process (all three on this machine's cores, so an upper
// bound of the CPU a replica costs, not of a real cluster's network), roll
// commands one after another and from 32 campaigns at once, and raw
// synchronous publishes, with the journal's stream at one and at three
// replicas. Sync on every write when BENCH_SYNC is set.
//
//	go test ./bench/ -run '^$' -bench Replicas -benchtime 1000x
func BenchmarkReplicas(b *testing.B) {
	for _, replicas := range []int{1, 3} {
		b.Run("R"+strconv.Itoa(replicas), func(b *testing.B) {
			ctx := context.Background()
			c, err := cluster.Start(ctx, cluster.Options{Dir: b.TempDir(), Sync: os.Getenv("BENCH_SYNC") != ""})
			require.NoError(b, err)
			b.Cleanup(c.Shutdown)
			nc, err := c.Connect(0, nats.Name("bench"))
			require.NoError(b, err)
			b.Cleanup(nc.Close)
			js, err := jetstream.New(nc)
			require.NoError(b, err)
			var st *jetstore.Store
			deadline := time.Now().Add(30 * time.Second)
			for { // the first stream creation may race the cluster's elections
				if st, err = jetstore.Open(ctx, js, jetstore.Options{Replicas: replicas}); err == nil || time.Now().After(deadline) {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
			require.NoError(b, err)
			_, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "RAWR", Subjects: []string{"rawr.>"},
				Storage: jetstream.FileStorage, Replicas: replicas})
			require.NoError(b, err)
			j := newJournal(st)
			const camps = 32
			for i := range camps {
				require.NoError(b, setupCampaign(ctx, j, "r"+strconv.Itoa(i), []string{"ana"}))
			}
			res, err := j.Roll(ctx, "r0", command.RollRequest{Character: "ana", Skill: "Sigilo"})
			require.NoError(b, err)
			doc, err := events.Encode(res.Events[0].Event)
			require.NoError(b, err)
			rate := func(b *testing.B, per int) {
				b.ReportMetric(float64(b.N*per)/b.Elapsed().Seconds(), "ops/s")
			}
			b.Run("roll-sequential", func(b *testing.B) {
				for b.Loop() {
					_, err := j.Roll(ctx, "r0", command.RollRequest{Character: "ana", Skill: "Sigilo"})
					require.NoError(b, err)
				}
				rate(b, 1)
			})
			b.Run("raw-sync", func(b *testing.B) {
				for b.Loop() {
					_, err := js.Publish(ctx, "rawr.x", doc)
					require.NoError(b, err)
				}
				rate(b, 1)
			})
			b.Run("roll-32-campaigns", func(b *testing.B) {
				for b.Loop() {
					var wg sync.WaitGroup
					errs := make([]error, camps)
					for i := range camps {
						wg.Add(1)
						go func() {
							defer wg.Done()
							_, errs[i] = j.Roll(ctx, "r"+strconv.Itoa(i), command.RollRequest{Character: "ana", Skill: "Sigilo"})
						}()
					}
					wg.Wait()
					for _, err := range errs {
						require.NoError(b, err)
					}
				}
				rate(b, camps)
			})
		})
	}
}
