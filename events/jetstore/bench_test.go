package jetstore_test

import (
	"crypto/rand"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// rollSized returns an event of about 700 bytes encoded, the size of a roll.
func rollSized(b *testing.B, ids events.IDs, i int) events.Event {
	b.Helper()
	e, err := events.New(events.Spec{
		Campaign: "bench", Kind: events.KindCharacter, AggregateID: "lodin", Name: "roll",
		Type: events.TypeCampaignCreated, Session: "s1", Actor: "gm",
		Data: events.CampaignCreated{Name: strings.Repeat("x", 370), System: "ryf"},
	}, ids, time.Now())
	require.NoError(b, err)
	return e
}

// BenchmarkPublish compares Append with every guarantee (codec round trip,
// Nats-Msg-Id, expected last sequence on the campaign) against a raw
// js.Publish of the same bytes, on one embedded server with SyncAlways
// (BENCH_NOSYNC=1 for JetStream's default flushing).
//
//	go test ./events/jetstore -run '^$' -bench Publish -benchtime 2000x
func BenchmarkPublish(b *testing.B) {
	srv := startServer(b, b.TempDir(), os.Getenv("BENCH_NOSYNC") == "")
	s := openStore(b, srv)
	ids := events.NewV7(time.Now, rand.Reader)
	filter := "journal.bench"
	sample, err := events.Encode(rollSized(b, ids, 0))
	require.NoError(b, err)
	b.Logf("event size: %d bytes", len(sample))

	b.Run("Append", func(b *testing.B) {
		ctx := b.Context()
		last, err := s.Last(ctx, filter)
		require.NoError(b, err)
		b.SetBytes(int64(len(sample)))
		for i := 0; b.Loop(); i++ {
			seqs, err := s.Append(ctx, events.ExpectLast(filter, last), rollSized(b, ids, i))
			if err != nil {
				b.Fatal(err)
			}
			last = seqs[0]
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("AppendNoExpect", func(b *testing.B) {
		ctx := b.Context()
		b.SetBytes(int64(len(sample)))
		for i := 0; b.Loop(); i++ {
			if _, err := s.Append(ctx, events.Expect{}, rollSized(b, ids, i)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("AppendBatch3", func(b *testing.B) {
		ctx := b.Context()
		last, err := s.Last(ctx, filter)
		require.NoError(b, err)
		b.SetBytes(3 * int64(len(sample)))
		for i := 0; b.Loop(); i++ {
			seqs, err := s.Append(ctx, events.ExpectLast(filter, last), rollSized(b, ids, i), rollSized(b, ids, i), rollSized(b, ids, i))
			if err != nil {
				b.Fatal(err)
			}
			last = seqs[2]
		}
		b.ReportMetric(3*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("RawPublish", func(b *testing.B) {
		ctx := b.Context()
		js := srv.JetStream()
		b.SetBytes(int64(len(sample)))
		for b.Loop() {
			if _, err := js.Publish(ctx, "journal.benchraw", sample); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
}
