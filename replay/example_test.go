package replay_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// ExampleVerify records a one-roll session with a committed seed, reveals
// the seed, and verifies it.
func ExampleVerify() {
	var seed dice.Seed // the seed of docs/design.md §3's vectors: 0x00, 0x01, …
	for i := range seed {
		seed[i] = byte(i)
	}
	n := 0
	ids := events.IDFunc(func() (string, error) {
		n++
		return fmt.Sprintf("0195a000-0000-7000-8000-%012d", n), nil
	})
	at := time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)
	record := func(kind events.Kind, agg, name, typ string, data any) events.Event {
		ev, err := events.New(events.Spec{
			Campaign: "camp-1", Kind: kind, AggregateID: agg, Name: name, Type: typ, Session: "sess-1", Data: data,
		}, ids, at)
		if err != nil {
			panic(err)
		}
		return ev
	}

	started := record(events.KindSession, "sess-1", "started", events.TypeSessionStarted,
		events.SessionStarted{Algorithm: dice.Algorithm, Commitment: seed.Commitment()})
	check := ryf.Check{Kind: ryf.KindAttribute, Attribute: ryf.Fuerza, AttributeValue: 8}.WithDifficulty(15)
	res, _ := ryf.Roll(check, dice.NewStream(seed, "camp-1", "sess-1", 0, ""))
	rm := rolls.FromRyF("ryf", res)
	rm.Character, rm.Nonce = "lodin", 0
	roll := record(events.KindCharacter, "lodin", "roll", events.TypeRollMade, rm)
	ended := record(events.KindSession, "sess-1", "ended", events.TypeSessionEnded,
		events.SessionEnded{Seed: seed.String(), Rolls: 1})

	rep, err := replay.Verify(context.Background(), replay.Events(started, roll, ended), replay.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("faces:", rm.Faces, "total:", rm.Total, rm.Outcome)
	_ = rep.WriteText(os.Stdout)
	// Output:
	// faces: [5 9 5] total: 21 success
	// session camp-1/sess-1: verified — 1 roll checked, 1 verified, 0 unverifiable, 0 voided (seed revealed)
	// campaign camp-1: 3 events folded, 0 characters, 1 session
	// OK: 3 events, 1 session (1 verified, 0 mismatch, 0 not yet revealed), 1 roll checked, 1 verified, 0 unverifiable, 0 voided, 0 mismatches
}
