package command_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
)

// BenchmarkColdLoad measures the cold load of one campaign of 1 000
// events (a fresh journal each time, as a new process: the CLI) in a
// stream of COLDLOAD_STREAM events (comma-separated sizes, default
// 100000), the campaign's events spread evenly through the last
// COLDLOAD_SPAN events of the stream (default: all of it; the older ones
// are other campaigns' history): refolded from the start, and from a
// checkpoint at its 990th event.
//
//	COLDLOAD_STREAM=100000,1000000 go test ./command -run '^$' -bench ColdLoad -benchtime 20x
//	COLDLOAD_STREAM=100000,1000000 COLDLOAD_SPAN=100000 go test ./command -run '^$' -bench ColdLoad -benchtime 20x
func BenchmarkColdLoad(b *testing.B) {
	sizes := []int{100_000}
	if s := os.Getenv("COLDLOAD_STREAM"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			require.NoError(b, err)
			sizes = append(sizes, n)
		}
	}
	span := 0
	if s := os.Getenv("COLDLOAD_SPAN"); s != "" {
		var err error
		span, err = strconv.Atoi(s)
		require.NoError(b, err)
	}
	const campaign = 1000
	ctx := context.Background()
	for _, total := range sizes {
		b.Run(fmt.Sprintf("stream=%d", total), func(b *testing.B) {
			st, kv, seqs := coldStream(b, total, campaign, span)
			b.Run("refold", func(b *testing.B) {
				for b.Loop() {
					j, cs := checkpointed(st, nil, -1)
					c, err := j.Load(ctx, "target", 0)
					require.NoError(b, err)
					require.Equal(b, campaign, c.Events)
					require.Equal(b, campaign, cs.reads())
				}
			})
			writer, _ := checkpointed(st, kv, -1)
			_, err := writer.WriteCheckpoint(ctx, "target", seqs[989])
			require.NoError(b, err)
			b.Run("checkpoint", func(b *testing.B) {
				for b.Loop() {
					j, cs := checkpointed(st, kv, -1)
					c, err := j.Load(ctx, "target", 0)
					require.NoError(b, err)
					require.Equal(b, campaign, c.Events)
					require.Equal(b, 11, cs.reads())
				}
			})
		})
	}
}

// coldStream fills a stream of total events on an embedded server: a
// campaign "target" of n events (its creation and new days, through the
// command layer) spread evenly among the new days of 100 other campaigns
// (published asynchronously, as bench's fill does) over the last span
// events of the stream (0: all). It returns the store, the checkpoint
// bucket and the sequences of the target's events.
func coldStream(b *testing.B, total, n, span int) (*jetstore.Store, *live.BucketKV, []uint64) {
	b.Helper()
	ctx := context.Background()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: b.TempDir()})
	require.NoError(b, err)
	b.Cleanup(srv.Shutdown)
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(b, err)
	kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
	require.NoError(b, err)
	js, err := jetstream.New(srv.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	require.NoError(b, err)
	at := time.Date(2026, 1, 1, 18, 0, 0, 0, time.UTC)
	clock := func() time.Time { at = at.Add(time.Millisecond); return at }
	ids := events.NewV7(clock, rand.Reader)
	j := command.New(st, command.Options{Clock: clock, Rand: rand.Reader, IDs: ids, CheckpointEvery: -1})
	if span <= 0 || span > total {
		span = total
	}
	before, filler := total-span, span-n
	published := 0
	var seqs []uint64
	for i := range n {
		for published < before+filler*(i+1)/n {
			c := fmt.Sprintf("f%03d", published%100)
			ev, err := events.New(events.Spec{Campaign: c, Kind: events.KindCampaign, AggregateID: c, Name: "day",
				Type: events.TypeDayStarted, Actor: "bench", Data: events.DayStarted{}}, ids, clock())
			require.NoError(b, err)
			doc, err := events.Encode(ev)
			require.NoError(b, err)
			m := &nats.Msg{Subject: ev.StreamSubject, Data: doc, Header: nats.Header{}}
			m.Header.Set(jetstream.MsgIDHeader, ev.ID)
			m.Header.Set(events.HeaderType, ev.Type)
			m.Header.Set(events.HeaderAggregate, events.AggregateHeaderValue(events.KindCampaign, c))
			_, err = js.PublishMsgAsync(m, jetstream.WithStallWait(time.Minute))
			require.NoError(b, err)
			published++
		}
		<-js.PublishAsyncComplete()
		var res command.Result
		if i == 0 {
			res, err = j.CreateCampaign(ctx, command.CreateCampaign{ID: "target", System: "ryf"})
		} else {
			res, err = j.NewDay(ctx, "target")
		}
		require.NoError(b, err)
		seqs = append(seqs, res.Events[0].Seq)
	}
	last, err := st.Last(ctx, events.AllFilter)
	require.NoError(b, err)
	require.Equal(b, uint64(total), last)
	return st, kv, seqs
}
