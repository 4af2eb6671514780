package jetstore_test

import (
	"crypto/rand"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// BenchmarkAppendCampaignSize measures one conditional Append (the
// campaign's expected last sequence, as every command makes it) in a
// campaign that already holds one event for each of 10, 1 000 and 10 000
// characters, and reports its median (p50) and 90th percentile. The
// server syncs every write unless BENCH_NOSYNC=1.
//
//	go test ./events/jetstore -run '^$' -bench AppendCampaignSize -benchtime 2000x
func BenchmarkAppendCampaignSize(b *testing.B) {
	for _, chars := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("characters=%d", chars), func(b *testing.B) {
			srv := startServer(b, b.TempDir(), os.Getenv("BENCH_NOSYNC") == "")
			s := openStore(b, srv)
			ctx := b.Context()
			ids := events.NewV7(time.Now, rand.Reader)
			ev := func(char int) events.Event {
				e, err := events.New(events.Spec{
					Campaign: "big", Kind: events.KindCharacter, AggregateID: fmt.Sprintf("c%d", char), Name: "created",
					Type: events.TypeCampaignCreated, Actor: "gm",
					Data: events.CampaignCreated{Name: "x", System: "ryf"},
				}, ids, time.Now())
				require.NoError(b, err)
				return e
			}
			for from := 0; from < chars; from += events.MaxBatch {
				batch := make([]events.Event, 0, events.MaxBatch)
				for c := from; c < min(from+events.MaxBatch, chars); c++ {
					batch = append(batch, ev(c))
				}
				_, err := s.Append(ctx, events.Expect{}, batch...)
				require.NoError(b, err)
			}
			filter, err := events.CampaignFilter("big")
			require.NoError(b, err)
			last, err := s.Last(ctx, filter)
			require.NoError(b, err)
			took := make([]time.Duration, 0, b.N)
			for i := 0; b.Loop(); i++ {
				e := ev(i % chars)
				start := time.Now()
				seqs, err := s.Append(ctx, events.ExpectLast(filter, last), e)
				took = append(took, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				last = seqs[0]
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(took[len(took)*9/10].Microseconds()), "p90-µs")
		})
	}
}
