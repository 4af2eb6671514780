package jetstore_test

import (
	"crypto/rand"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// BenchmarkPartitionedAppends measures conditional appends from 1 000
// campaigns at once (one writer each, every append expecting its
// campaign's last sequence) into a journal of 1, 2 and 4 partitions, on
// one embedded server with SyncAlways (BENCH_NOSYNC=1 for JetStream's
// default flushing). One operation is one append of a roll-sized event.
//
//	go test ./events/jetstore -run '^$' -bench PartitionedAppends -benchtime 20000x
func BenchmarkPartitionedAppends(b *testing.B) {
	const campaigns = 1000
	for _, k := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			srv := startServer(b, b.TempDir(), os.Getenv("BENCH_NOSYNC") == "")
			st := openPartitioned(b, srv, k)
			ctx := b.Context()
			ids := events.NewV7(time.Now, rand.Reader)
			data := events.CampaignCreated{Name: strings.Repeat("x", 370), System: "ryf"}
			var next atomic.Int64
			n := int64(b.N)
			b.ResetTimer()
			var wg sync.WaitGroup
			errs := make(chan error, campaigns)
			for c := range campaigns {
				wg.Go(func() {
					campaign := fmt.Sprint("c", c)
					subject, _ := events.CampaignFilter(campaign)
					var last uint64
					for next.Add(1) <= n {
						e, err := events.New(events.Spec{
							Campaign: campaign, Kind: events.KindCharacter, AggregateID: "lodin", Name: "roll",
							Type: events.TypeCampaignCreated, Session: "s1", Actor: "gm", Data: data,
						}, ids, time.Now())
						if err != nil {
							errs <- err
							return
						}
						seqs, err := st.Append(ctx, events.ExpectLast(subject, last), e)
						if err != nil {
							errs <- err
							return
						}
						last = seqs[0]
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			close(errs)
			for err := range errs {
				require.NoError(b, err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
