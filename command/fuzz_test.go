package command_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
)

// fuzzWorld is a fresh journal on a memory store with a campaign, three
// characters, an open session and, with combat, a combat in progress.
// Each fuzz input gets its own, so that a failure replays from the input
// alone.
func fuzzWorld(t *testing.T, combat bool) (*command.Handler, *memstore.Store) {
	t.Helper()
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	if combat {
		if _, err := j.StartCombat(context.Background(), "mordor", []string{"lodin", "orco"}, ""); err != nil {
			t.Fatal(err)
		}
	}
	return j, store
}

// checkOutcome is what every fuzzed command must satisfy: a refusal is a
// clear error of the command layer and records nothing; an acceptance
// records exactly the events it returns, each one decoding again.
func checkOutcome(t *testing.T, store *memstore.Store, before int, res command.Result, err error) {
	t.Helper()
	after := count(t, store)
	if err != nil {
		if !errors.Is(err, command.ErrInvalid) && !errors.Is(err, command.ErrNotFound) && !errors.Is(err, events.ErrInvalidEvent) {
			t.Fatalf("refusal %q is neither invalid nor not found", err)
		}
		if after != before {
			t.Fatalf("a refused command recorded %d events: %v", after-before, err)
		}
		return
	}
	if after != before+len(res.Events) {
		t.Fatalf("%d events stored, the command returned %d", after-before, len(res.Events))
	}
	for _, r := range res.Events {
		doc, err := events.Encode(r.Event)
		if err != nil {
			t.Fatalf("recorded event does not encode: %v", err)
		}
		if _, err := events.Decode(doc); err != nil {
			t.Fatalf("recorded event does not decode: %v", err)
		}
	}
}

// FuzzRoll: any roll request, in any campaign id, never panics, and is
// either refused cleanly or recorded whole.
//
//	go test -run '^$' -fuzz '^FuzzRoll$' -fuzztime 60s ./command/
func FuzzRoll(f *testing.F) {
	f.Add("mordor", "lodin", "Sigilo", "", "media", 0, false, true, "my words", 0, "")
	f.Add("mordor", "lodin", "", "F", "25", 3, true, false, "", 0, "")
	f.Add("mordor", "ruisenor", "Armas a distancia", "D", "imposible", -40, false, false, strings.Repeat("e", 64), 0, "")
	f.Add("mordor", "orco", "Pelea", "", "fácil", 1000, true, true, "", 14, "trait")
	f.Add("mordor", "lodin.*", "Sigilo", "", "", 0, false, false, "", 0, "")
	f.Add("mor.dor", "lodin", "Sigilo", "", "", 0, false, false, "", 0, "")
	f.Add(">", "lodin", "Sigilo", "X", "-1", 0, false, false, "\x00", -5, "")
	f.Add("mordor", "lodin", "Sig\xffilo", "", "99999999999999999999", 0, false, false, "\xff", 0, "")
	f.Fuzz(func(t *testing.T, campaign, char, skill, attr, vs string, mod int, token, spec bool, entropy string, tn int, trait string) {
		j, store := fuzzWorld(t, false)
		before := count(t, store)
		var tnp *int // 0: not given
		if tn != 0 {
			tnp = &tn
		}
		res, err := j.Roll(context.Background(), campaign, command.RollRequest{
			Character: char, Skill: skill, Attribute: attr, Vs: vs, Modifier: mod, Token: token,
			Specialization: spec, Entropy: entropy, TN: tnp, Trait: trait,
		})
		checkOutcome(t, store, before, res, err)
		if err == nil && !utf8.ValidString(entropy) {
			t.Fatalf("entropy %q that is not UTF-8 was recorded", entropy)
		}
	})
}

// FuzzCreateCharacter: any character creation never panics, and is either
// refused cleanly or recorded whole.
//
//	go test -run '^$' -fuzz '^FuzzCreateCharacter$' -fuzztime 60s ./command/
func FuzzCreateCharacter(f *testing.F) {
	f.Add("nori", "Nori", "ana", false, "F=8,R=7,D=9,I=8,P=8", "Pelea=5,Sigilo=3", "Sigilo", "Espada", "")
	f.Add("troll", "Troll", "", true, "F=12,R=2,D=3,I=1,P=2", "Pelea=7", "", "", "bruto")
	f.Add("lodin", "Again", "ana", false, "F=8,R=7,D=9,I=8,P=8", "Pelea=5", "Pelea", "", "")
	f.Add("a.b", "x", "p", false, "F=8", "", "", "", "")
	f.Add("nori", "N", "p", false, "F=8,F=8,R=7,D=9,I=8,P=8", "Pelea=5,Pelea=6", "Pelea", "Espada,Espada", "")
	f.Add("nori", "N", "p", false, "F=-1,R=99,D=9,I=8,P=8", "Pelea=-5", "", "", "")
	f.Add("nori", "N", "p", false, "F==8,,R", "=,=", "=", ",", "")
	f.Add("nori", strings.Repeat("N", 5000), "p", false, "F=8,R=7,D=9,I=8,P=8", "Pelea=5", "Pelea", "", "")
	f.Fuzz(func(t *testing.T, id, name, player string, npc bool, attrs, skills, spec, weapons, occupation string) {
		j, store := fuzzWorld(t, false)
		before := count(t, store)
		var ws []string
		if weapons != "" {
			ws = strings.Split(weapons, ",")
		}
		res, err := j.CreateCharacter(context.Background(), "mordor", command.CreateCharacter{
			ID: id, Name: name, Player: player, NPC: npc, Occupation: occupation,
			Attributes: attrs, Skills: skills, Specialization: spec, Weapons: ws,
		})
		checkOutcome(t, store, before, res, err)
	})
}

// FuzzAttack: any attack in a combat in progress never panics, and is
// either refused cleanly or recorded whole (roll, damage and all).
//
//	go test -run '^$' -fuzz '^FuzzAttack$' -fuzztime 60s ./command/
func FuzzAttack(f *testing.F) {
	f.Add("lodin", "orco", "", "", 0, false, 0, false, false, "")
	f.Add("orco", "lodin", "Hacha", "", 0, false, 0, false, false, "")
	f.Add("lodin", "orco", "Espada", "corta", 10, true, 5, true, true, "e")
	f.Add("lodin", "lodin", "", "", 0, false, 0, false, false, "")
	f.Add("lodin", "orco", "Revólver", "larga", -1, false, -100, false, false, "")
	f.Add("lodin", "orc*", "", "media", 1<<30, false, 0, false, false, "")
	f.Fuzz(func(t *testing.T, attacker, target, weapon, rng string, distance int, cover bool, mod int, token, spec bool, entropy string) {
		j, store := fuzzWorld(t, true)
		before := count(t, store)
		res, err := j.Attack(context.Background(), "mordor", command.AttackRequest{
			Attacker: attacker, Target: target, Weapon: weapon, Range: rng, Distance: distance, Cover: cover,
			Modifier: mod, Token: token, Specialization: spec, Entropy: entropy,
		})
		checkOutcome(t, store, before, res, err)
	})
}

// TestHostileRequests: ids that are NATS subject syntax, oversized and
// non-UTF-8 strings, and extreme numbers are refused by the command layer
// with a clear error, recording nothing.
func TestHostileRequests(t *testing.T) {
	j, store := fuzzWorld(t, false)
	ctx := context.Background()
	huge := strings.Repeat("x", 2<<20)
	roll := func(campaign string, req command.RollRequest) func() error {
		return func() error { _, err := j.Roll(ctx, campaign, req); return err }
	}
	create := func(req command.CreateCharacter) func() error {
		if req.Attributes == "" {
			req.Attributes, req.Skills, req.Specialization = "F=8,R=7,D=9,I=8,P=8", "Pelea=5,Sigilo=3", "Sigilo"
		}
		if req.Player == "" {
			req.Player = "ana"
		}
		return func() error { _, err := j.CreateCharacter(ctx, "mordor", req); return err }
	}
	tests := []struct {
		name string
		do   func() error
	}{
		{"campaign with a dot", roll("mor.dor", command.RollRequest{Character: "lodin", Skill: "Sigilo"})},
		{"campaign wildcard", roll("*", command.RollRequest{Character: "lodin", Skill: "Sigilo"})},
		{"campaign full wildcard", roll(">", command.RollRequest{Character: "lodin", Skill: "Sigilo"})},
		{"campaign with a space", roll("mordor x", command.RollRequest{Character: "lodin", Skill: "Sigilo"})},
		{"campaign with CRLF", roll("mordor\r\nPUB x 1", command.RollRequest{Character: "lodin", Skill: "Sigilo"})},
		{"empty campaign", roll("", command.RollRequest{Character: "lodin", Skill: "Sigilo"})},
		{"character with a dot", roll("mordor", command.RollRequest{Character: "lodin.roll", Skill: "Sigilo"})},
		{"character wildcard", roll("mordor", command.RollRequest{Character: "*", Skill: "Sigilo"})},
		{"character full wildcard", roll("mordor", command.RollRequest{Character: ">", Skill: "Sigilo"})},
		{"character with NUL", roll("mordor", command.RollRequest{Character: "lodin\x00", Skill: "Sigilo"})},
		{"huge character", roll("mordor", command.RollRequest{Character: huge, Skill: "Sigilo"})},
		{"huge skill", roll("mordor", command.RollRequest{Character: "lodin", Skill: huge})},
		{"huge entropy", roll("mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Entropy: huge})},
		{"entropy not UTF-8", roll("mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Entropy: "a\xffb"})},
		{"difficulty overflow", roll("mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "99999999999999999999999"})},
		{"modifier overflow", roll("mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Modifier: 1 << 62})},
		{"new character with a dot", create(command.CreateCharacter{ID: "no.ri", Name: "Nori"})},
		{"new character wildcard", create(command.CreateCharacter{ID: "*", Name: "Nori"})},
		{"new character >", create(command.CreateCharacter{ID: ">", Name: "Nori"})},
		{"new character upper case", create(command.CreateCharacter{ID: "Nori", Name: "Nori"})},
		{"new character 65 bytes", create(command.CreateCharacter{ID: strings.Repeat("n", 65), Name: "Nori"})},
		{"new character with a huge name", create(command.CreateCharacter{ID: "nori", Name: huge})},
		{"new character with a name not UTF-8", create(command.CreateCharacter{ID: "nori", Name: "No\xffri"})},
		{"new character with a player not UTF-8", create(command.CreateCharacter{ID: "nori", Name: "Nori", Player: "a\xc3"})},
		{"new character with huge attributes", create(command.CreateCharacter{ID: "nori", Name: "Nori", Player: "ana", Attributes: huge, Skills: "Pelea=5"})},
		{"new character with 100000 skills", create(command.CreateCharacter{ID: "nori", Name: "Nori", Player: "ana", Attributes: "F=8,R=7,D=9,I=8,P=8",
			Skills: strings.Repeat("Pelea=1,", 100000), Specialization: "Pelea"})},
		{"new character with a huge weapon list", create(command.CreateCharacter{ID: "nori", Name: "Nori", Weapons: strings.Split(strings.Repeat("Espada,", 50000), ",")})},
		{"session with a dot", func() error { _, err := j.StartSession(ctx, "mordor", "s.2", ""); return err }},
		{"campaign id wildcard", func() error {
			_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: "gon*", System: "ryf"})
			return err
		}},
		{"campaign id >", func() error {
			_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: ">", System: "ryf"})
			return err
		}},
		{"void a subject", func() error { _, err := j.Void(ctx, "mordor", "journal.mordor.>", "x"); return err }},
		{"huge damage", func() error { _, err := j.Damage(ctx, "mordor", "lodin", 1<<40, ""); return err }},
		{"negative damage", func() error { _, err := j.Damage(ctx, "mordor", "lodin", -1, ""); return err }},
		{"damage source wildcard", func() error { _, err := j.Damage(ctx, "mordor", "lodin", 1, "*"); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := count(t, store)
			err := tt.do()
			if err == nil {
				t.Fatal("accepted")
			}
			// The command layer leaves the size of names and the UTF-8 of
			// free text to the codec, whose refusals wrap
			// events.ErrInvalidEvent (a bad request too, for the HTTP API).
			if !errors.Is(err, command.ErrInvalid) && !errors.Is(err, command.ErrNotFound) && !errors.Is(err, events.ErrInvalidEvent) {
				t.Fatalf("error %q is neither invalid nor not found", err)
			}
			if n := count(t, store); n != before {
				t.Fatalf("%d events recorded by a refused request", n-before)
			}
		})
	}
}
