package web_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// percentile returns the p-th percentile (0..100) of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p / 100)
	return sorted[i]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// report adds the latency percentiles and the rate to a benchmark.
func report(b *testing.B, lat []time.Duration, elapsed time.Duration, unit string) {
	slices.Sort(lat)
	b.ReportMetric(ms(percentile(lat, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(lat, 99)), "p99-ms")
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), unit)
}

// BenchmarkRollHTTP is one client recording rolls through
// POST /api/campaigns/{c}/commands/roll, one after the other, with every
// durability guarantee on: the embedded JetStream server syncs each write
// to disk before acknowledging it (SyncAlways), each append is conditional
// on the campaign's last sequence, and the response waits for the live
// projection to show the roll. Each roll refolds its campaign, which grows
// by one event per roll: compare figures at the same -benchtime=Nx.
func BenchmarkRollHTTP(b *testing.B) {
	h := newHarness(b, jetBackend(true))
	h.setup("mordor")
	h.command("mordor", "session-start", ``, http.StatusOK)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"sigilo","vs":"media"}`)
		lat = append(lat, time.Since(t0))
		if r.status != http.StatusOK {
			b.Fatalf("roll %d: %d %s", i, r.status, r.body)
		}
	}
	report(b, lat, time.Since(start), "rolls/s")
}

// BenchmarkRollHTTPParallel is four clients, each recording rolls in a
// campaign of its own (campaigns are the unit of contention), durably.
func BenchmarkRollHTTPParallel(b *testing.B) {
	const clients = 4
	h := newHarness(b, jetBackend(true))
	for c := range clients {
		id := fmt.Sprintf("camp-%d", c)
		h.setup(id)
		h.command(id, "session-start", ``, http.StatusOK)
	}
	var mu sync.Mutex
	var lat []time.Duration
	next := make(chan int, clients)
	for c := range clients {
		next <- c
	}
	b.SetParallelism((clients + 1) / 2)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprintf("camp-%d", <-next)
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			r := h.do(http.MethodPost, "/api/campaigns/"+id+"/commands/roll", `{"character":"lodin","skill":"sigilo"}`)
			mine = append(mine, time.Since(t0))
			if r.status != http.StatusOK {
				b.Errorf("roll: %d %s", r.status, r.body)
				return
			}
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	report(b, lat, time.Since(start), "rolls/s")
}

// BenchmarkAppendToSSE measures the time from an append (durable, synced)
// to the event reaching a client of GET /api/campaigns/{c}/events
// (text/event-stream): append-to-sse is from the call of Append, ack-to-sse
// from its return (the acknowledgement of the durable write).
func BenchmarkAppendToSSE(b *testing.B) {
	h := newHarness(b, jetBackend(true))
	h.setup("mordor")
	ctx := context.Background()
	ids := events.NewV7(time.Now, rand.Reader)
	stream := h.stream("/api/campaigns/mordor/events?from=5")

	type arrival struct {
		id string
		at time.Time
	}
	arrived := make(chan arrival, 64)
	go func() {
		for {
			ev, err := stream.read()
			if err != nil {
				close(arrived)
				return
			}
			arrived <- arrival{ev.Event.ID, time.Now()}
		}
	}()

	var full, fromAck []time.Duration
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		ev, err := events.New(events.Spec{
			Campaign: "mordor", Kind: events.KindCampaign, AggregateID: "mordor", Name: "day",
			Type: events.TypeDayStarted, Actor: "bench", Data: events.DayStarted{Reason: "gm"},
		}, ids, time.Now())
		require.NoError(b, err)
		t0 := time.Now()
		_, err = h.store.Append(ctx, events.Expect{}, ev)
		acked := time.Now()
		require.NoError(b, err)
		a, ok := <-arrived
		if !ok {
			b.Fatal("the event stream ended")
		}
		if a.id != ev.ID {
			b.Fatalf("stream delivered %s, want %s", a.id, ev.ID)
		}
		full = append(full, a.at.Sub(t0))
		fromAck = append(fromAck, max(0, a.at.Sub(acked)))
	}
	elapsed := time.Since(start)
	slices.Sort(fromAck)
	b.ReportMetric(ms(percentile(fromAck, 50)), "ack-to-sse-p50-ms")
	b.ReportMetric(ms(percentile(fromAck, 99)), "ack-to-sse-p99-ms")
	report(b, full, elapsed, "events/s")
}
