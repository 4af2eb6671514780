package command_test

import (
	"context"
	"crypto/rand"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
)

// BenchmarkRollCommand records roll commands end to end (rules, dice,
// envelope, codec check, Msg-Id dedupe, expected-last-sequence) on a real
// embedded JetStream server, against raw synchronous publishes of messages
// of the same size to the same server in the same run. Sync on every write
// unless BENCH_NOSYNC is set.
func BenchmarkRollCommand(b *testing.B) {
	srv, st := embeddedtest.Store(b, embedded.Options{Sync: os.Getenv("BENCH_NOSYNC") == ""})
	j := command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)})
	setup(b, j)
	ctx := context.Background()
	var size int
	b.Run("Roll", func(b *testing.B) {
		for b.Loop() {
			res, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar", Vs: "media"})
			if err != nil {
				b.Fatal(err)
			}
			doc, _ := events.Encode(res.Events[0].Event)
			size = len(doc)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rolls/s")
	})
	// RollRequest: the same command, each under a request id of its own
	// (as the CLI sends every command): derived ids, the lookup, and the
	// read back of what the append stored.
	b.Run("RollRequest", func(b *testing.B) {
		n := 0
		for b.Loop() {
			n++
			req := command.RollRequest{Character: "lodin", Skill: "Buscar", Vs: "media"}
			rj, err := j.For(command.Call{RequestID: "bench-" + strconv.Itoa(n), What: "roll", Args: req})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := rj.Roll(ctx, "mordor", req); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rolls/s")
	})
	b.Run("RawPublish", func(b *testing.B) {
		js := srv.JetStream()
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "RAW", Subjects: []string{"raw.>"}, Storage: jetstream.FileStorage})
		require.NoError(b, err)
		msg := make([]byte, size)
		for i := range msg {
			msg[i] = 'x'
		}
		for b.Loop() {
			if _, err := js.Publish(ctx, "raw.roll", msg); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		b.ReportMetric(float64(size), "bytes/msg")
	})
}
