package command_test

import (
	"context"
	"crypto/rand"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
)

// BenchmarkV2Roll compares a v1 roll command with a v2 roll as the CLI runs
// it (the device signs the request, the journal records it, the device
// signs the reveal, the journal draws and records the roll: two commands,
// each under a request id of its own), on a real embedded JetStream server
// with Sync on every write (unless BENCH_NOSYNC). It reports p50 and p99.
func BenchmarkV2Roll(b *testing.B) {
	srv, st := embeddedtest.Store(b, embedded.Options{Sync: os.Getenv("BENCH_NOSYNC") == ""})
	_ = srv
	j := command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)})
	setup(b, j)
	ctx := context.Background()
	report := func(b *testing.B, lat []time.Duration) {
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
	b.Run("v1", func(b *testing.B) {
		var lat []time.Duration
		n := 0
		for b.Loop() {
			n++
			t0 := time.Now()
			req := command.RollRequest{Character: "lodin", Skill: "Buscar", Vs: "media"}
			rj, _ := j.For(command.Call{RequestID: "v1-" + strconv.Itoa(n), What: "roll", Args: req})
			if _, err := rj.Roll(ctx, "mordor", req); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t0))
		}
		report(b, lat)
	})
	if _, err := j.EndSession(ctx, "mordor"); err != nil {
		b.Fatal(err)
	}
	ana := newDevice("ana", 1)
	if _, err := j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, "mordor", ana.reg("mordor", command.RolePlayer)); err != nil {
		b.Fatal(err)
	}
	res, err := j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2})
	if err != nil {
		b.Fatal(err)
	}
	var started events.SessionStarted
	if err := res.Events[0].Event.DecodeData(&started); err != nil {
		b.Fatal(err)
	}
	commitmentOf = map[string]string{"s2": started.Commitment}
	b.Run("v2", func(b *testing.B) {
		var lat []time.Duration
		n := 0
		for b.Loop() {
			n++
			t0 := time.Now()
			id := uuid.NewString()
			var r [32]byte
			_, _ = rand.Read(r[:])
			rq, _ := j.For(command.Call{Actor: "ana", RequestID: "v2-" + strconv.Itoa(n) + ".request", What: "roll-request", Args: id})
			if _, err := rq.RequestRoll(ctx, "mordor", ana.request(b, "s2", id, r, command.RollAction{Command: "roll", Character: "lodin", Skill: "Buscar", Vs: "media"})); err != nil {
				b.Fatal(err)
			}
			rv, _ := j.For(command.Call{Actor: "ana", RequestID: "v2-" + strconv.Itoa(n) + ".reveal", What: "roll-reveal", Args: id})
			if _, err := rv.RevealRoll(ctx, "mordor", ana.reveal(b, "s2", id, r)); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t0))
		}
		report(b, lat)
	})
}
