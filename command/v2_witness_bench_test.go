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

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/rules/dice"
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
		_, err := j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", bea.witness(b, "s2", id, secret(9)))
		return err
	}, 0)
	run("beacon", func(id string) error {
		_, err := j.ResolveBeacon(ctx, "mordor", id, qnSignature)
		return err
	}, qnRound)

	// A session of witness chains (docs/design.md §3.3): the GM's request and
	// two players' devices' chain witnesses (three commands; each device
	// derives its w_j, the journal hashes it j times to its anchor). A
	// session answers at most dice.MaxWitnessIndex GM requests: past them
	// the benchmark starts another (untimed).
	ana := newDevice("ana", 1)
	if _, err := j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, "mordor", ana.reg("mordor", command.RolePlayer)); err != nil {
		b.Fatal(err)
	}
	sessions, index := 0, 0
	var secrets [2][32]byte // the devices' w for the session
	chainSession := func(b *testing.B) {
		b.Helper()
		if _, err := j.EndSession(ctx, "mordor"); err != nil {
			b.Fatal(err)
		}
		sessions++
		id := "c" + strconv.Itoa(sessions)
		res, err := j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: id, Dice: command.DiceV2})
		if err != nil {
			b.Fatal(err)
		}
		var started events.SessionStarted
		if err := res.Events[0].Event.DecodeData(&started); err != nil {
			b.Fatal(err)
		}
		commitmentOf[id] = started.Commitment
		for k, d := range []device{ana, bea} {
			if _, err := j.MustFor(command.Call{Actor: d.user}).Contribute(ctx, "mordor", d.chainContribute(b, j, id, byte(0xc0+k))); err != nil {
				b.Fatal(err)
			}
			secrets[k] = d.chainSecret(b, j, id)
		}
		index = 0
	}
	b.Run("chain", func(b *testing.B) {
		var lat []time.Duration
		for b.Loop() {
			if sessions == 0 || index == dice.MaxWitnessIndex {
				chainSession(b)
			}
			session := "c" + strconv.Itoa(sessions)
			t0 := time.Now()
			id := uuid.NewString()
			if _, err := j.RequestRoll(ctx, "mordor", gm.gmRequest(b, session, id, 0, 60, orcoPelea)); err != nil {
				b.Fatal(err)
			}
			index++
			for k, d := range []device{ana, bea} {
				v, err := dice.WitnessValue(secrets[k], index) // the device's w_j
				if err != nil {
					b.Fatal(err)
				}
				if _, err := j.MustFor(command.Call{Actor: d.user}).Witness(ctx, "mordor", d.indexedWitness(b, session, id, index, v)); err != nil {
					b.Fatal(err)
				}
			}
			lat = append(lat, time.Since(t0))
		}
		report(b, lat)
	})
}
