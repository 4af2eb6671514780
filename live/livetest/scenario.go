// Package livetest plays sample campaigns through the command handlers, for
// the tests of the live projections and the HTTP service.
//
// Invariants: every step goes through command.Handler (nothing is appended
// by hand), so the events are exactly those the CLI and the API record;
// a step that the rules refuse fails the test.
package livetest

import (
	"context"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

// NewJournal returns command handlers over st with the real clock and
// randomness.
func NewJournal(st command.Store) *command.Handler {
	return command.New(st, command.Options{
		Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader), Actor: "test",
	})
}

// step runs one command and fails the test on error.
func step(t testing.TB, what string, f func() (command.Result, error)) command.Result {
	t.Helper()
	res, err := f()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return res
}

// Setup creates a RyF campaign with two player characters (lodin,
// ruisenor) and an NPC (orco), and starts session s1.
func Setup(ctx context.Context, t testing.TB, j *command.Handler, campaign string) {
	t.Helper()
	step(t, "campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: campaign, Name: "La torre de Mordor", System: "ryf"})
	})
	step(t, "lodin", func() (command.Result, error) {
		return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "Ana",
			Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Armas cuerpo a cuerpo=5,Pelea=4,Sigilo=5,Atletismo=3,Buscar=3",
			Specialization: "Sigilo", Weapons: []string{"Espada"}})
	})
	step(t, "ruisenor", func() (command.Result, error) {
		return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "ruisenor", Name: "Ruiseñor", Player: "Bea",
			Attributes: "F=6,R=8,D=10,I=8,P=8", Skills: "Armas a distancia=5,Advertir/Notar=5,Pelea=3,Medicina=2",
			Specialization: "Armas a distancia", Weapons: []string{"Revólver"}})
	})
	step(t, "orco", func() (command.Result, error) {
		return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "orco", Name: "Orco", NPC: true,
			Attributes: "F=7,R=4,D=5,I=3,P=4", Skills: "Pelea=4,Armas cuerpo a cuerpo=3,Advertir/Notar=2", Weapons: []string{"Hacha"}})
	})
	step(t, "session", func() (command.Result, error) { return j.StartSession(ctx, campaign, "s1", "La torre") })
}

// PartOne plays the first half of session s1 after Setup: skill rolls, a
// returned token, a contest, and a combat with damage, ended. The session
// stays open with no XP granted yet, and nobody has healed after the combat.
// It returns the event id of its second roll (for PartTwo to void).
func PartOne(ctx context.Context, t testing.TB, j *command.Handler, campaign string) string {
	t.Helper()
	step(t, "roll 1", func() (command.Result, error) {
		return j.Roll(ctx, campaign, command.RollRequest{Character: "lodin", Skill: "sigilo", Vs: "media", Specialization: true, Entropy: "ana-1"})
	})
	second := step(t, "roll 1b", func() (command.Result, error) {
		return j.Roll(ctx, campaign, command.RollRequest{Character: "lodin", Attribute: "F", Vs: "25"})
	})
	step(t, "roll 2", func() (command.Result, error) {
		return j.Roll(ctx, campaign, command.RollRequest{Character: "ruisenor", Skill: "advertir", Vs: "dificil", Token: true})
	})
	step(t, "token", func() (command.Result, error) { return j.ReturnToken(ctx, campaign, "ruisenor") })
	step(t, "contest", func() (command.Result, error) {
		return j.Contest(ctx, campaign, command.ContestRequest{A: "lodin", SkillA: "sigilo", B: "orco", SkillB: "advertir"})
	})
	step(t, "combat", func() (command.Result, error) {
		return j.StartCombat(ctx, campaign, []string{"lodin", "ruisenor", "orco"}, "")
	})
	FightRound(ctx, t, j, campaign, "orco", false)
	step(t, "damage lodin", func() (command.Result, error) { return j.Damage(ctx, campaign, "lodin", 3, "orco") })
	step(t, "damage ruisenor", func() (command.Result, error) { return j.Damage(ctx, campaign, "ruisenor", 2, "orco") })
	step(t, "round", func() (command.Result, error) { return j.NextRound(ctx, campaign) })
	step(t, "end combat", func() (command.Result, error) { return j.EndCombat(ctx, campaign) })
	return second.Events[0].Event.ID
}

// PartTwo ends session s1 after PartOne: a void of the roll PartOne named
// (an event folded before it), healing after the combat, XP, a raise, a
// second combat with a ranged attack, the end of the session (revealing its
// seed) and a night's rest. Each of these writes into a map of the state
// that was empty at the end of PartOne.
func PartTwo(ctx context.Context, t testing.TB, j *command.Handler, campaign, void string) {
	t.Helper()
	step(t, "void", func() (command.Result, error) { return j.Void(ctx, campaign, void, "tirada repetida por error") })
	step(t, "heal lodin", func() (command.Result, error) { return j.HealAfterCombat(ctx, campaign, "lodin", "") })
	step(t, "xp lodin", func() (command.Result, error) { return j.GrantXP(ctx, campaign, "lodin", 7) })
	step(t, "xp ruisenor", func() (command.Result, error) { return j.GrantXP(ctx, campaign, "ruisenor", 7) })
	step(t, "raise", func() (command.Result, error) { return j.RaiseSkill(ctx, campaign, "lodin", "sigilo") })
	step(t, "trasgo", func() (command.Result, error) {
		return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "trasgo", Name: "Trasgo", NPC: true,
			Attributes: "F=5,R=5,D=5,I=3,P=4", Skills: "Pelea=3", Weapons: []string{"Hacha"}})
	})
	// The first combat's dice may have left lodin or ruisenor unable to
	// fight even after healing; the rules keep them out of a new combat.
	c, err := j.Load(ctx, campaign, 0)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	fighters := []string{"trasgo"}
	for _, id := range []string{"lodin", "ruisenor"} {
		if canFight(c, id) {
			fighters = append(fighters, id)
		}
	}
	step(t, "combat 2", func() (command.Result, error) {
		return j.StartCombat(ctx, campaign, fighters, "round-two")
	})
	FightRound(ctx, t, j, campaign, "trasgo", true)
	step(t, "end combat 2", func() (command.Result, error) { return j.EndCombat(ctx, campaign) })
	step(t, "end session", func() (command.Result, error) { return j.EndSession(ctx, campaign) })
	step(t, "rest", func() (command.Result, error) { return j.Rest(ctx, campaign, false) })
}

// FightRound has every combatant who can act attack once, in initiative
// order: lodin and ruisenor the enemy (ruisenor at short range when
// ranged, else with fists), the enemy lodin (or ruisenor).
func FightRound(ctx context.Context, t testing.TB, j *command.Handler, campaign, enemy string, ranged bool) {
	t.Helper()
	c, err := j.Load(ctx, campaign, 0)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	for _, id := range c.Combat.Order {
		c, err := j.Load(ctx, campaign, 0)
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		if !canFight(c, id) {
			continue
		}
		req := command.AttackRequest{Attacker: id, Target: enemy}
		switch id {
		case enemy:
			req.Target = "lodin"
			if !canFight(c, "lodin") {
				req.Target = "ruisenor"
			}
		case "ruisenor":
			if ranged {
				req.Range = "corta"
			} else {
				req.Weapon = "Pelea"
			}
		}
		if !canFight(c, req.Target) {
			continue
		}
		_, err = j.Attack(ctx, campaign, req)
		if err != nil && errors.Is(err, command.ErrInvalid) && req.Weapon == "Pelea" {
			req.Weapon = ""
			req.Range = "corta"
			_, err = j.Attack(ctx, campaign, req)
		}
		if err != nil {
			t.Fatalf("attack %s → %s: %v", req.Attacker, req.Target, err)
		}
	}
}

func canFight(c *projections.Campaign, id string) bool {
	s := c.Characters[id]
	return s != nil && (s.Status == "ok" || s.Status == "incapacitated")
}

// try runs a step that the dice may make the rules refuse; a refusal is
// not a failure.
func try(t testing.TB, what string, f func() (command.Result, error)) {
	t.Helper()
	if _, err := f(); err != nil && !errors.Is(err, command.ErrInvalid) {
		t.Fatalf("%s: %v", what, err)
	}
}

// TOR plays a The One Ring campaign: a company of three, an adventure, a
// trait, rolls, Hope, a fellowship request and its votes, Shadow, an
// advancement point, the fellowship phase and the end of the session. The
// steps that depend on the dice are tried; the others must succeed.
func TOR(ctx context.Context, t testing.TB, j *command.Handler, campaign string) {
	t.Helper()
	step(t, "tor campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: campaign, Name: "La Tierra Media", System: "tor"})
	})
	step(t, "bilbo", func() (command.Result, error) {
		return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "bilbo", Name: "Bilbo", Player: "Ana",
			Culture: "Hobbits de la Comarca", MaxHope: 12, Attributes: "Cuerpo=3/5,Corazón=6/8,Mente=5/7",
			Skills: "Atención=3*,Sigilo=3*,Acertijos=2,Viajar=2,Buscar=2,Cortesía=1", Traits: []string{"Ladrón", "Ojo avizor"}})
	})
	step(t, "thorin", func() (command.Result, error) {
		return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "thorin", Name: "Thorin", Player: "Bea",
			Culture: "Enanos de Erebor", MaxHope: 8, Attributes: "Cuerpo=7/9,Corazón=5/7,Mente=2/4",
			Skills: "Guerrear=3*,Impresionar=3,Atletismo=2,Persuadir=1,Saber=1", Traits: []string{"Herrero", "Orgulloso"}})
	})
	step(t, "balin", func() (command.Result, error) {
		return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "balin", Name: "Balin", Player: "Carlos",
			Culture: "Enanos de Erebor", MaxHope: 10, Attributes: "Cuerpo=5/7,Corazón=6/8,Mente=4/6",
			Skills: "Explorar=3*,Saber=2,Cortesía=2,Viajar=2", Traits: []string{"Erudito"}})
	})
	step(t, "tor session", func() (command.Result, error) { return j.StartSession(ctx, campaign, "s1", "Una fiesta inesperada") })
	step(t, "adventure", func() (command.Result, error) { return j.StartAdventure(ctx, campaign, "El camino al Este") })
	step(t, "trait", func() (command.Result, error) {
		return j.InvokeTrait(ctx, campaign, command.TraitRequest{Character: "bilbo", Trait: "Ojo avizor"})
	})
	roll := func(char, skill string, tn int) {
		step(t, "roll "+char, func() (command.Result, error) {
			return j.Roll(ctx, campaign, command.RollRequest{Character: char, Skill: skill, TN: &tn, Entropy: char})
		})
	}
	roll("bilbo", "Atención", 14)
	roll("balin", "Explorar", 12)
	roll("thorin", "Persuadir", 18)
	try(t, "hope", func() (command.Result, error) { return j.SpendHope(ctx, campaign, "thorin", "") })
	try(t, "ask", func() (command.Result, error) { return j.RequestFellowship(ctx, campaign, "thorin") })
	try(t, "vote bilbo", func() (command.Result, error) { return j.Vote(ctx, campaign, "thorin", "bilbo", true) })
	try(t, "vote balin", func() (command.Result, error) { return j.Vote(ctx, campaign, "thorin", "balin", false) })
	try(t, "take", func() (command.Result, error) { return j.ResolveFellowship(ctx, campaign, "thorin", true) })
	step(t, "shadow", func() (command.Result, error) {
		return j.GainShadow(ctx, campaign, "thorin", 9, "la enfermedad del dragón")
	})
	for range 3 {
		roll("thorin", "Saber", 14)
	}
	try(t, "madness", func() (command.Result, error) { return j.EndMadness(ctx, campaign, "thorin", "Codicioso") })
	try(t, "advancement", func() (command.Result, error) { return j.GrantAdvancement(ctx, campaign, "balin", "Explorar", "") })
	step(t, "phase", func() (command.Result, error) { return j.FellowshipPhase(ctx, campaign) })
	step(t, "tor session end", func() (command.Result, error) { return j.EndSession(ctx, campaign) })
}
