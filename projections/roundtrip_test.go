package projections_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/projections"
)

// recordSession records a RyF session with a combat through the command
// layer and returns its events.
func recordSession(t *testing.T) []events.Recorded {
	t.Helper()
	at := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { at = at.Add(time.Second); return at }
	store := memstore.New(memstore.Options{})
	j := command.New(store, command.Options{Clock: clock, Rand: rand.NewChaCha8([32]byte{1}), IDs: events.NewV7(clock, rand.NewChaCha8([32]byte{2}))})
	ctx := context.Background()
	steps := []func() (command.Result, error){
		func() (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: "c", System: "ryf"})
		},
		func() (command.Result, error) {
			return j.CreateCharacter(ctx, "c", command.CreateCharacter{ID: "a", Player: "p", Attributes: "F=8,R=7,D=9,I=8,P=8",
				Skills: "Pelea=5,Armas a distancia=5", Specialization: "Pelea", Weapons: []string{"Revólver"}})
		},
		func() (command.Result, error) {
			return j.CreateCharacter(ctx, "c", command.CreateCharacter{ID: "b", NPC: true, Attributes: "F=5,R=3,D=4,I=3,P=3", Skills: "Pelea=2"})
		},
		func() (command.Result, error) { return j.StartSession(ctx, "c", "", "") },
		func() (command.Result, error) { return j.StartCombat(ctx, "c", []string{"a", "b"}, "") },
	}
	for _, step := range steps {
		_, err := step()
		require.NoError(t, err)
	}
	for range 6 {
		c, err := j.Load(ctx, "c", 0)
		require.NoError(t, err)
		if c.Combat == nil {
			break
		}
		for _, id := range c.Combat.Order {
			req := command.AttackRequest{Attacker: id, Target: "b", Range: "corta"}
			if id == "b" {
				req = command.AttackRequest{Attacker: "b", Target: "a"}
			}
			_, _ = j.Attack(ctx, "c", req) // refusals (a fallen combatant) record nothing
		}
		_, err = j.NextRound(ctx, "c")
		require.NoError(t, err)
	}
	for _, step := range []func() (command.Result, error){
		func() (command.Result, error) { return j.EndCombat(ctx, "c") },
		func() (command.Result, error) { return j.HealAfterCombat(ctx, "c", "a", "") },
		func() (command.Result, error) { return j.GrantXP(ctx, "c", "a", 7) },
		func() (command.Result, error) { return j.EndSession(ctx, "c") },
		func() (command.Result, error) { return j.Rest(ctx, "c", true) },
	} {
		_, err := step()
		require.NoError(t, err)
	}
	var recs []events.Recorded
	require.NoError(t, store.Read(ctx, events.Query{}, func(r events.Recorded) error { recs = append(recs, r); return nil }))
	return recs
}

// TestStateSurvivesJSON: a state written as JSON at any point (a
// checkpoint) and read back, then folded on, equals a full fold.
func TestStateSurvivesJSON(t *testing.T) {
	recs := recordSession(t)
	full, err := projections.Fold("c", recs, 0)
	require.NoError(t, err)
	want, err := json.Marshal(full)
	require.NoError(t, err)
	if full.Combat != nil || full.LastCombat == nil || len(full.LastCombat.Initiative) != 2 {
		t.Fatalf("the session should end with a finished combat with two initiatives: %+v", full.LastCombat)
	}
	for cut := range recs {
		part, err := projections.Fold("c", recs[:cut], 0)
		require.NoError(t, err)
		b, err := json.Marshal(part)
		require.NoError(t, err)
		var resumed projections.Campaign
		require.NoError(t, json.Unmarshal(b, &resumed))
		for _, r := range recs[cut:] {
			require.NoError(t, resumed.Apply(r), "after a checkpoint at %d", cut)
		}
		got, err := json.Marshal(&resumed)
		require.NoError(t, err)
		if string(got) != string(want) {
			t.Fatalf("checkpoint at event %d: resumed state differs from a full fold\n got %s\nwant %s", cut, got, want)
		}
	}
}
