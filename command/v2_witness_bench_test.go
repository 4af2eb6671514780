package command_test

import (
	"context"
	"crypto/rand"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
)

// BenchmarkV2GMRoll measures a GM's v2 roll as the table runs it, on a real
// embedded JetStream server with Sync on every write (unless
// BENCH_NOSYNC): the GM's request and a player's witness (two commands),
// and the GM's request and its resolution by a real quicknet round (the
// journal checks the BLS signature). It reports p50 and p99.
func BenchmarkV2GMRoll(b *testing.B) {
	_, st := embeddedtest.Store(b, embedded.Options{Sync: os.Getenv("BENCH_NOSYNC") == ""})
	at := beacon.Quicknet().TimeOf(qnRound).Add(-time.Hour)
	clock := func() time.Time { return at }
	j := command.New(st, command.Options{Clock: clock, Rand: rand.Reader, IDs: events.NewV7(clock, rand.Reader)})
	ctx := context.Background()
	setup(b, j)
	if _, err := j.EndSession(ctx, "mordor"); err != nil {
		b.Fatal(err)
	}
	gm, bea := newDevice("gm", 2), newDevice("bea", 3)
	for _, r := range []command.RegisterKey{gm.reg("mordor", command.RoleGM), {User: "bea", PublicKey: bea.pub()}} {
		if _, err := j.RegisterKey(ctx, "mordor", r); err != nil {
			b.Fatal(err)
		}
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
	report := func(b *testing.B, lat []time.Duration) {
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
	run := func(name string, resolve func(id string) error, round uint64) {
		b.Run(name, func(b *testing.B) {
			var lat []time.Duration
			for b.Loop() {
				t0 := time.Now()
				id := uuid.NewString()
				if _, err := j.RequestRoll(ctx, "mordor", gm.gmRequest(b, "s2", id, round, 60, orcoPelea)); err != nil {
					b.Fatal(err)
				}
				if err := resolve(id); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			report(b, lat)
		})
	}
	run("witness", func(id string) error {
		_, err := j.As("bea").Witness(ctx, "mordor", bea.witness(b, "s2", id, secret(9)))
		return err
	}, 0)
	run("beacon", func(id string) error {
		_, err := j.ResolveBeacon(ctx, "mordor", id, qnSignature)
		return err
	}, qnRound)
}
