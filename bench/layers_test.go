package bench_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/bench"
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
	runs := 0 // the sub-benchmarks run again with -count: each run gets its own campaign or subject
	require.NoError(b, setupCampaign(ctx, j, "layers", []string{"lodin"}))
	res, err := j.Roll(ctx, "layers", command.RollRequest{Character: "lodin", Skill: "Sigilo"})
	require.NoError(b, err)
	doc, err := events.Encode(res.Events[0].Event)
	require.NoError(b, err)

	createStream(b, js, "plain", false, false)
	createStream(b, js, "like", true, true)

	n := 0
	next := func() string { n++; return fmt.Sprintf("%08x-0000-7000-8000-%012x", n, n) }
	// rate reports the rate, and the process's CPU time per operation
	// (its server's included) since start: on a shared machine, a
	// steadier measure of the work than the time.
	var cpu0 time.Duration
	start := func() { cpu0 = bench.CPUTime() }
	rate := func(b *testing.B) {
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		b.ReportMetric(float64((bench.CPUTime()-cpu0).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
	}

	b.Run("plain-stream", func(b *testing.B) {
		start()
		for b.Loop() {
			_, err := js.Publish(ctx, "plain.c.char.lodin.roll", doc)
			require.NoError(b, err)
		}
		rate(b)
	})
	b.Run("journal-config", func(b *testing.B) {
		start()
		for b.Loop() {
			_, err := js.Publish(ctx, "like.c.char.lodin.roll", doc)
			require.NoError(b, err)
		}
		rate(b)
	})
	b.Run("journal-config+msgid", func(b *testing.B) {
		start()
		for b.Loop() {
			_, err := js.PublishMsg(ctx, &nats.Msg{Subject: "like.c.char.lodin.roll", Data: doc,
				Header: nats.Header{jetstream.MsgIDHeader: []string{next()}}})
			require.NoError(b, err)
		}
		rate(b)
	})
	b.Run("journal-config+msgid+expect", func(b *testing.B) {
		last := uint64(0)
		if info, err := js.Stream(ctx, "like"); err == nil {
			last = info.CachedInfo().State.LastSeq
		}
		start()
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
		start()
		for b.Loop() {
			ev := res.Events[0].Event
			ev.Campaign, ev.Source = "other", "/campaigns/other"
			ev.StreamSubject = "journal.other"
			ev.ID, _ = ids.NewID()
			seqs, err := st.Append(ctx, events.ExpectLast(filter, last), ev)
			require.NoError(b, err)
			last = seqs[0]
		}
		rate(b)
	})
	b.Run("guarded", func(b *testing.B) {
		// The guarded side of journal bench (bench/appends.go): a literal
		// campaign subject, Nats-Msg-Id, the type and aggregate headers,
		// the expected last sequence on the subject, an asynchronous
		// publish waited on.
		gjs, err := jetstream.New(srv.Conn())
		require.NoError(b, err)
		cfg := jetstore.StreamConfig(jetstore.Options{})
		cfg.Name, cfg.Subjects = "guardedlayer", []string{"guardedlayer.*"}
		_, err = gjs.CreateOrUpdateStream(ctx, cfg)
		require.NoError(b, err)
		ids := events.NewV7(time.Now, randReader{})
		last := uint64(0)
		runs++ // a subject of its own for each run (-count)
		subject := "guardedlayer.layers" + strconv.Itoa(runs)
		start()
		for b.Loop() {
			id, err := ids.NewID()
			require.NoError(b, err)
			m := &nats.Msg{Subject: subject, Data: doc, Header: make(nats.Header, 4)}
			m.Header.Set(jetstream.MsgIDHeader, id)
			m.Header.Set(events.HeaderType, events.TypeRollMade)
			m.Header.Set(events.HeaderAggregate, events.AggregateHeaderValue(events.KindCharacter, "lodin"))
			f, err := gjs.PublishMsgAsync(m, jetstream.WithExpectLastSequencePerSubject(last))
			require.NoError(b, err)
			select {
			case ack := <-f.Ok():
				last = ack.Sequence
			case err := <-f.Err():
				b.Fatal(err)
			}
		}
		rate(b)
	})
	b.Run("journal-code", func(b *testing.B) {
		// The journal's own code for a roll command, without a server: the
		// decision, rules, dice, envelope, codec (events.Prepare) and fold,
		// on a store that only prepares the documents and counts them.
		pj := newJournal(&prepareStore{Store: st, last: map[string]uint64{}})
		runs++ // a campaign of its own for each run (-count)
		campaign := "code" + strconv.Itoa(runs)
		require.NoError(b, setupCampaign(ctx, pj, campaign, []string{"lodin"}))
		start()
		for b.Loop() {
			_, err := pj.Roll(ctx, campaign, command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "media"})
			require.NoError(b, err)
		}
		rate(b)
	})
	b.Run("roll-command", func(b *testing.B) {
		start()
		for b.Loop() {
			_, err := j.Roll(ctx, "layers", command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "media"})
			require.NoError(b, err)
		}
		rate(b)
	})
}

// createStream creates the stream named name on the subjects name.>: a
// plain file stream, or one configured as JOURNAL (jetstore.StreamConfig),
// with its feed republished on namefeed.> when feed is set.
func createStream(b *testing.B, js jetstream.JetStream, name string, journal, feed bool) {
	b.Helper()
	cfg := jetstream.StreamConfig{Name: name, Subjects: []string{name + ".>"}, Storage: jetstream.FileStorage}
	if journal {
		cfg = jetstore.StreamConfig(jetstore.Options{})
		cfg.Name, cfg.Subjects, cfg.RePublish = name, []string{name + ".>"}, nil
		if feed {
			cfg.RePublish = &jetstream.RePublish{Source: name + ".>", Destination: name + "feed.>"}
		}
	}
	_, err := js.CreateOrUpdateStream(context.Background(), cfg)
	require.NoError(b, err)
}

// prepareStore appends into the real store the events of the campaigns
// it has not seen yet (a campaign's setup, and its first roll), and from
// then on only prepares the documents (events.Prepare) and gives them
// sequences: what a store costs the journal's code without a server.
type prepareStore struct {
	*jetstore.Store
	last map[string]uint64 // by stream subject
	seq  uint64
}

func (p *prepareStore) Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error) {
	if expect.IsSet() && p.last[expect.Subject] != 0 {
		if _, err := events.Prepare(expect, evs); err != nil {
			return nil, err
		}
		seqs := make([]uint64, len(evs))
		for i := range seqs {
			p.seq++
			seqs[i] = p.seq
		}
		p.last[expect.Subject] = p.seq
		return seqs, nil
	}
	seqs, err := p.Store.Append(ctx, expect, evs...)
	if err == nil && expect.IsSet() && evs[0].Type == events.TypeSessionStarted {
		p.last[expect.Subject] = seqs[len(seqs)-1]
		p.seq = max(p.seq, seqs[len(seqs)-1]) + 1000000
	}
	return seqs, err
}

// randReader is a cheap source of id randomness for benchmarks.
type randReader struct{}

func (randReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(time.Now().UnixNano() >> (i % 8))
	}
	return len(p), nil
}

// BenchmarkWriteDesigns prices, at JetStream's default sync, what a
// different write design could reach: one writer per stream (a sequencer)
// pipelining its appends asynchronously, 100 pending at most, as raw
// asynchronous publishing does, against raw asynchronous publishes to a
// plain stream in the same run. Each message is a roll event's size over
// 1 000 subjects. Variants add, in turn, the journal's stream configuration
// with its republished feed and a Nats-Msg-Id on every message; a chain of
// Nats-Expected-Last-Msg-Id (each message expects the one before it, a
// comparison the server makes for nothing, which is how a sequencer would
// detect another writer); and the last two without the feed. Every variant
// but the last writes into a fresh stream; the last repeats the raw one on
// its stream already holding b.N messages (a stream's first messages are
// the slowest to store). These are ceilings: no command is decided, no
// event encoded.
//
//	go test ./bench/ -run '^$' -bench WriteDesigns -benchtime 20000x -count 3
func BenchmarkWriteDesigns(b *testing.B) {
	ctx := context.Background()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: b.TempDir()})
	require.NoError(b, err)
	b.Cleanup(srv.Shutdown)
	var failed atomic.Int64
	js, err := jetstream.New(srv.Conn(), jetstream.WithPublishAsyncMaxPending(100),
		jetstream.WithPublishAsyncErrHandler(func(jetstream.JetStream, *nats.Msg, error) { failed.Add(1) }))
	require.NoError(b, err)
	doc := make([]byte, 626)
	for i := range doc {
		doc[i] = 'x'
	}
	n := 0
	id := func() string { n++; return fmt.Sprintf("%08x-0000-7000-8000-%012x", n, n) }
	run := func(b *testing.B, name string, msgID, chain bool) {
		last := ""
		for b.Loop() {
			m := &nats.Msg{Subject: fmt.Sprintf("%s.c%d.char.x%d.roll", name, n%100, n%1000), Data: doc, Header: nats.Header{}}
			if msgID {
				next := id()
				m.Header.Set(jetstream.MsgIDHeader, next)
				if chain && last != "" {
					m.Header.Set(jetstream.ExpectedLastMsgIDHeader, last)
				}
				last = next
			} else {
				n++
			}
			_, err := js.PublishMsgAsync(m)
			require.NoError(b, err)
		}
		<-js.PublishAsyncComplete()
		require.Zero(b, failed.Load(), "refused publishes")
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	}
	createStream(b, js, "WARMUP", false, false)
	for range 20000 { // the first variant would carry the process's warm-up
		_, err := js.PublishAsync("WARMUP.x", doc)
		require.NoError(b, err)
	}
	<-js.PublishAsyncComplete()
	createStream(b, js, "PLAIN", false, false)
	createStream(b, js, "FED", true, true)
	createStream(b, js, "CHAINED", true, true)
	createStream(b, js, "UNFED", true, false)
	createStream(b, js, "UNFEDCHAINED", true, false)
	b.Run("raw-async", func(b *testing.B) { run(b, "PLAIN", false, false) })
	b.Run("journal-config+feed+msgid", func(b *testing.B) { run(b, "FED", true, false) })
	b.Run("journal-config+feed+msgid+chain", func(b *testing.B) { run(b, "CHAINED", true, true) })
	b.Run("journal-config+msgid", func(b *testing.B) { run(b, "UNFED", true, false) })
	b.Run("journal-config+msgid+chain", func(b *testing.B) { run(b, "UNFEDCHAINED", true, true) })
	b.Run("raw-async-again", func(b *testing.B) { run(b, "PLAIN", false, false) }) // on a stream as full as the others
}
