package bench_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// guardVariant is one way of publishing a roll-sized message in the
// guard experiments: which stream configuration, which of the journal's
// guarantees it carries, and how many goroutines publish.
type guardVariant struct {
	name   string
	stream string
	// journal: the stream is configured as the journal's (dedup window,
	// deny delete and purge, direct gets, atomic batches) on one literal
	// subject per campaign; otherwise a plain file stream.
	journal bool
	// msgID adds a fresh Nats-Msg-Id; expect, the campaign's expected last
	// sequence on its literal subject; headers, the journal's type and
	// aggregate headers.
	msgID, expect, headers bool
	// async publishes from one goroutine with up to 100 pending, as the raw
	// side of journal bench does; otherwise one goroutine per campaign
	// waits for each acknowledgement, as the journal and the guarded side do.
	async bool

	last      []uint64 // per campaign
	latencies []time.Duration
	elapsed   time.Duration
	count     int
}

func guardVariants() []*guardVariant {
	return []*guardVariant{
		{name: "raw-async", stream: "GA", async: true},
		{name: "plain", stream: "GP"},
		{name: "config", stream: "GC", journal: true},
		{name: "config+headers", stream: "GH", journal: true, headers: true},
		{name: "config+msgid", stream: "GM", journal: true, msgID: true},
		{name: "config+expect", stream: "GE", journal: true, expect: true},
		{name: "guarded", stream: "GG", journal: true, msgID: true, expect: true, headers: true},
	}
}

func createGuardStream(b *testing.B, js jetstream.JetStream, v *guardVariant) {
	b.Helper()
	cfg := jetstream.StreamConfig{Name: v.stream, Subjects: []string{v.stream + ".*"}, Storage: jetstream.FileStorage, Duplicates: 2 * time.Minute}
	if v.journal {
		cfg = jetstore.StreamConfig(jetstore.Options{})
		cfg.Name, cfg.Subjects = v.stream, []string{v.stream + ".*"}
	}
	_, err := js.CreateOrUpdateStream(context.Background(), cfg)
	require.NoError(b, err)
}

// guardMsg is variant v's message for campaign c.
func (v *guardVariant) msg(c int, doc []byte, id *atomic.Int64) *nats.Msg {
	m := &nats.Msg{Subject: v.stream + ".c" + strconv.Itoa(c), Data: doc, Header: make(nats.Header, 4)}
	if v.msgID {
		n := id.Add(1)
		m.Header.Set(jetstream.MsgIDHeader, fmt.Sprintf("%08x-0000-7000-8000-%012x", n, n))
	}
	if v.headers {
		m.Header.Set(events.HeaderType, events.TypeRollMade)
		m.Header.Set(events.HeaderAggregate, events.AggregateHeaderValue(events.KindCharacter, "x"))
	}
	if v.expect {
		m.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(v.last[c], 10))
	}
	return m
}

// BenchmarkGuardPrices prices each of the journal's guarantees on the
// journal's layout (one literal subject per campaign, no republished
// feed), at JetStream's default sync (every write synced when BENCH_SYNC
// is set), in two ways, each iteration one turn of every variant so that
// a drift of the machine falls on every variant alike:
//
//   - sequential: one campaign, one publish at a time, 25 per turn; the
//     median and mean latency of each variant;
//   - concurrent: 100 campaigns, 1 000 publishes per turn, one goroutine
//     per campaign waiting for each acknowledgement (raw-async: one
//     goroutine, 100 pending); the rate of each variant.
//
// guarded is journal bench's guarded side; raw-async its raw side in the
// concurrent stages; plain prices the journal's concurrency (a goroutine
// per campaign, waiting) without any guarantee.
//
//	go test ./bench/ -run '^$' -bench GuardPrices -benchtime 20x
func BenchmarkGuardPrices(b *testing.B) {
	doc := make([]byte, 626)
	for i := range doc {
		doc[i] = 'a' + byte(i%26)
	}
	start := func(b *testing.B) (jetstream.JetStream, []*guardVariant) {
		srv, err := embedded.Start(context.Background(), embedded.Options{Dir: b.TempDir(), Sync: os.Getenv("BENCH_SYNC") != ""})
		require.NoError(b, err)
		b.Cleanup(srv.Shutdown)
		js, err := jetstream.New(srv.Conn(), jetstream.WithPublishAsyncMaxPending(100))
		require.NoError(b, err)
		vs := guardVariants()
		for _, v := range vs {
			createGuardStream(b, js, v)
			v.last = make([]uint64, 100)
		}
		return js, vs
	}
	var id atomic.Int64
	publish := func(ctx context.Context, js jetstream.JetStream, v *guardVariant, c int) error {
		f, err := js.PublishMsgAsync(v.msg(c, doc, &id))
		if err != nil {
			return err
		}
		select {
		case ack := <-f.Ok():
			v.last[c] = ack.Sequence
			return nil
		case err := <-f.Err():
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	b.Run("sequential", func(b *testing.B) {
		ctx := context.Background()
		js, vs := start(b)
		for b.Loop() {
			for _, v := range vs {
				for range 25 {
					t := time.Now()
					if v.async {
						_, err := js.PublishMsgAsync(v.msg(0, doc, &id))
						require.NoError(b, err)
						<-js.PublishAsyncComplete()
					} else {
						require.NoError(b, publish(ctx, js, v, 0))
					}
					v.latencies = append(v.latencies, time.Since(t))
				}
			}
		}
		for _, v := range vs {
			slices.Sort(v.latencies)
			var sum time.Duration
			for _, d := range v.latencies {
				sum += d
			}
			b.ReportMetric(float64(v.latencies[len(v.latencies)/2].Nanoseconds())/1e3, v.name+"-p50-µs")
			b.ReportMetric(float64(sum.Nanoseconds())/1e3/float64(len(v.latencies)), v.name+"-mean-µs")
		}
	})
	b.Run("concurrent", func(b *testing.B) {
		ctx := context.Background()
		js, vs := start(b)
		const campaigns, perTurn = 100, 1000
		for b.Loop() {
			for _, v := range vs {
				t := time.Now()
				if v.async {
					for i := range perTurn {
						_, err := js.PublishMsgAsync(v.msg(i%campaigns, doc, &id), jetstream.WithStallWait(time.Minute))
						require.NoError(b, err)
					}
					<-js.PublishAsyncComplete()
				} else {
					var wg sync.WaitGroup
					var failed atomic.Value
					for c := range campaigns {
						wg.Go(func() {
							for range perTurn / campaigns {
								if err := publish(ctx, js, v, c); err != nil {
									failed.Store(err)
									return
								}
							}
						})
					}
					wg.Wait()
					if err, _ := failed.Load().(error); err != nil {
						b.Fatalf("%s: %v", v.name, err)
					}
				}
				v.elapsed += time.Since(t)
				v.count += perTurn
			}
		}
		for _, v := range vs {
			b.ReportMetric(float64(v.count)/v.elapsed.Seconds(), v.name+"-msgs/s")
		}
	})
}
