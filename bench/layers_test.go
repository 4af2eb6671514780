package bench_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// BenchmarkAppendLayers peels a roll command's append into layers, each a
// sub-benchmark on the same embedded server, so that the gap between a
// roll command and a raw publish can be told apart: the plain stream, the
// journal's stream configuration (republish, dedupe window), the message
// id, the campaign-wide expected last sequence, the store's codec check
// (jetstore.Store.Append of a ready event), and the whole command. Sync on
// every write when BENCH_SYNC is set.
//
//	go test ./bench/ -run '^$' -bench AppendLayers -benchtime 3000x
//	BENCH_SYNC=1 go test ./bench/ -run '^$' -bench AppendLayers -benchtime 1000x
func BenchmarkAppendLayers(b *testing.B) {
	ctx := context.Background()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: b.TempDir(), Sync: os.Getenv("BENCH_SYNC") != ""})
	require.NoError(b, err)
	b.Cleanup(srv.Shutdown)
	js := srv.JetStream()
	st, err := jetstore.Open(ctx, js, jetstore.Options{})
	require.NoError(b, err)
	j := newJournal(st)
	require.NoError(b, setupCampaign(ctx, j, "layers", []string{"lodin"}))
	res, err := j.Roll(ctx, "layers", command.RollRequest{Character: "lodin", Skill: "Sigilo"})
	require.NoError(b, err)
	doc, err := events.Encode(res.Events[0].Event)
	require.NoError(b, err)

	_, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "PLAIN", Subjects: []string{"plain.>"}, Storage: jetstream.FileStorage})
	require.NoError(b, err)
	like := jetstore.StreamConfig(jetstore.Options{})
	like.Name, like.Subjects = "LIKE", []string{"like.>"}
	like.RePublish = &jetstream.RePublish{Source: "like.>", Destination: "likefeed.>"}
	_, err = js.CreateOrUpdateStream(ctx, like)
	require.NoError(b, err)

	n := 0
	next := func() string { n++; return fmt.Sprintf("%08x-0000-7000-8000-%012x", n, n) }
	rate := func(b *testing.B) { b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s") }

	b.Run("plain-stream", func(b *testing.B) {
		for b.Loop() {
			_, err := js.Publish(ctx, "plain.c.char.lodin.roll", doc)
			require.NoError(b, err)
		}
		rate(b)
	})
	b.Run("journal-config", func(b *testing.B) {
		for b.Loop() {
			_, err := js.Publish(ctx, "like.c.char.lodin.roll", doc)
			require.NoError(b, err)
		}
		rate(b)
	})
	b.Run("journal-config+msgid", func(b *testing.B) {
		for b.Loop() {
			_, err := js.PublishMsg(ctx, &nats.Msg{Subject: "like.c.char.lodin.roll", Data: doc,
				Header: nats.Header{jetstream.MsgIDHeader: []string{next()}}})
			require.NoError(b, err)
		}
		rate(b)
	})
	b.Run("journal-config+msgid+expect", func(b *testing.B) {
		last := uint64(0)
		if info, err := js.Stream(ctx, "LIKE"); err == nil {
			last = info.CachedInfo().State.LastSeq
		}
		for b.Loop() {
			ack, err := js.PublishMsg(ctx, &nats.Msg{Subject: "like.c.char.lodin.roll", Data: doc, Header: nats.Header{
				jetstream.MsgIDHeader:                   []string{next()},
				jetstream.ExpectedLastSubjSeqHeader:     []string{strconv.FormatUint(last, 10)},
				jetstream.ExpectedLastSubjSeqSubjHeader: []string{"like.c.>"},
			}})
			require.NoError(b, err)
			last = ack.Sequence
		}
		rate(b)
	})
	b.Run("store-append", func(b *testing.B) {
		ids := events.NewV7(time.Now, randReader{})
		filter, _ := events.CampaignFilter("other")
		last := uint64(0)
		for b.Loop() {
			ev := res.Events[0].Event
			ev.Campaign, ev.Source = "other", "/campaigns/other"
			ev.StreamSubject = "journal.other.char.lodin.roll"
			ev.ID, _ = ids.NewID()
			seqs, err := st.Append(ctx, events.ExpectLast(filter, last), ev)
			require.NoError(b, err)
			last = seqs[0]
		}
		rate(b)
	})
	b.Run("roll-command", func(b *testing.B) {
		for b.Loop() {
			_, err := j.Roll(ctx, "layers", command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "media"})
			require.NoError(b, err)
		}
		rate(b)
	})
}

// randReader is a cheap source of id randomness for benchmarks.
type randReader struct{}

func (randReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(time.Now().UnixNano() >> (i % 8))
	}
	return len(p), nil
}
