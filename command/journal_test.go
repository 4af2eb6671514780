package command_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/projections"
)

// fixedClock ticks one second per call from a fixed start.
func fixedClock() func() time.Time {
	t := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

// newJournal returns a journal over a fresh memory store with deterministic
// clock, ids and seeds.
func newJournal(t *testing.T, store command.Store) *command.Handler {
	t.Helper()
	clock := fixedClock()
	rng := rand.NewChaCha8([32]byte{7})
	return command.New(store, command.Options{
		Clock: clock, Rand: rng, IDs: events.NewV7(clock, rand.NewChaCha8([32]byte{9})),
	})
}

// setup creates a ryf campaign with two player characters and an NPC, and
// opens a session.
func setup(t testing.TB, j *command.Handler) {
	t.Helper()
	ctx := context.Background()
	_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"})
	require.NoError(t, err)
	_, err = j.CreateCharacter(ctx, "mordor", command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "ana",
		Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3,Armas cuerpo a cuerpo=5,Buscar=4", Specialization: "Sigilo", Weapons: []string{"Espada"}})
	require.NoError(t, err)
	_, err = j.CreateCharacter(ctx, "mordor", command.CreateCharacter{ID: "ruisenor", Name: "Ruiseñor", Player: "bea",
		Attributes: "F=6,R=8,D=10,I=8,P=8", Skills: "Armas a distancia=5,Advertir=5,Pelea=3", Specialization: "Armas a distancia", Weapons: []string{"Revólver"}})
	require.NoError(t, err)
	_, err = j.CreateCharacter(ctx, "mordor", command.CreateCharacter{ID: "orco", Name: "Orco", NPC: true,
		Attributes: "F=7,R=4,D=5,I=3,P=4", Skills: "Pelea=4,Armas cuerpo a cuerpo=3", Weapons: []string{"Hacha"}})
	require.NoError(t, err)
	_, err = j.StartSession(ctx, "mordor", "", "La torre")
	require.NoError(t, err)
}

func count(t *testing.T, s command.Store) int {
	t.Helper()
	n := 0
	require.NoError(t, s.Read(context.Background(), events.Query{}, func(events.Recorded) error { n++; return nil }))
	return n
}

func TestRefusalsRecordNothing(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()
	before := count(t, store)
	tests := []struct {
		name string
		do   func() error
		want error
	}{
		{"unknown character", func() error {
			_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "gandalf", Skill: "Sigilo"})
			return err
		}, command.ErrNotFound},
		{"unknown skill", func() error {
			_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Cocina"})
			return err
		}, command.ErrInvalid},
		{"bad difficulty", func() error {
			_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "trivial"})
			return err
		}, command.ErrInvalid},
		{"spec on other skill", func() error {
			_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar", Specialization: true})
			return err
		}, command.ErrInvalid},
		{"npc token", func() error {
			_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "orco", Skill: "Pelea", Token: true})
			return err
		}, command.ErrInvalid},
		{"entropy with bar", func() error {
			_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Entropy: "a|b"})
			return err
		}, command.ErrInvalid},
		{"token not held by gm", func() error {
			_, err := j.ReturnToken(ctx, "mordor", "lodin")
			return err
		}, command.ErrInvalid},
		{"raise without xp", func() error {
			_, err := j.RaiseSkill(ctx, "mordor", "lodin", "Sigilo")
			return err
		}, command.ErrInvalid},
		{"attack without combat", func() error {
			_, err := j.Attack(ctx, "mordor", command.AttackRequest{Attacker: "lodin", Target: "orco"})
			return err
		}, command.ErrInvalid},
		{"xp out of range", func() error {
			_, err := j.GrantXP(ctx, "mordor", "lodin", 11)
			return err
		}, command.ErrInvalid},
		{"bad character budget", func() error {
			_, err := j.CreateCharacter(ctx, "mordor", command.CreateCharacter{ID: "x", Player: "p", Attributes: "F=10,R=10,D=10,I=10,P=10", Skills: "Pelea=6"})
			return err
		}, command.ErrInvalid},
		{"id with dot", func() error {
			_, err := j.CreateCharacter(ctx, "mordor", command.CreateCharacter{ID: "a.b", Player: "p"})
			return err
		}, command.ErrInvalid},
		{"second session", func() error {
			_, err := j.StartSession(ctx, "mordor", "", "")
			return err
		}, command.ErrInvalid},
		{"unknown campaign", func() error {
			_, err := j.Roll(ctx, "nowhere", command.RollRequest{Character: "lodin", Skill: "Sigilo"})
			return err
		}, command.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if got := count(t, store); got != before {
				t.Fatalf("%d events recorded by a refused command", got-before)
			}
		})
	}
}

func TestSessionFlow(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()

	// Skill roll with the specialization: once per day.
	res, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "sigilo", Vs: "media", Specialization: true, Entropy: "lodin"})
	require.NoError(t, err)
	roll := payload[*events.RollMade](t, res.Events[0])
	if roll.Level != "high" || roll.Nonce != 0 || roll.Entropy != "lodin" || len(roll.Faces) < 3 {
		t.Fatalf("roll = %+v", roll)
	}
	if _, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "sigilo", Specialization: true}); !errors.Is(err, command.ErrInvalid) {
		t.Fatalf("second specialization the same day: err = %v", err)
	}
	// Token spent: the GM holds it; returned: next roll one level lower.
	res, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "advertir", Token: true})
	require.NoError(t, err)
	if r := payload[*events.RollMade](t, res.Events[0]); r.Level != "high" || r.Nonce != 1 {
		t.Fatalf("token roll level %s nonce %d, want high 1", r.Level, r.Nonce)
	}
	_, err = j.ReturnToken(ctx, "mordor", "ruisenor")
	require.NoError(t, err)
	res, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "advertir"})
	require.NoError(t, err)
	if r := payload[*events.RollMade](t, res.Events[0]); r.Level != "low" || !r.TokenReturned {
		t.Fatalf("roll after return: level %s returned %v, want low true", r.Level, r.TokenReturned)
	}
	// Contest.
	res, err = j.Contest(ctx, "mordor", command.ContestRequest{A: "lodin", SkillA: "sigilo", B: "orco", SkillB: "P"})
	require.NoError(t, err)
	if len(res.Events) != 3 {
		t.Fatalf("contest recorded %d events, want 3", len(res.Events))
	}

	// A fight to unconsciousness.
	_, err = j.StartCombat(ctx, "mordor", []string{"lodin", "ruisenor", "orco"}, "")
	require.NoError(t, err)
	for round := 0; round < 30; round++ {
		c, err := j.Load(ctx, "mordor", 0)
		require.NoError(t, err)
		if c.Characters["orco"].Status == "unconscious" || c.Characters["orco"].Status == "dead" {
			break
		}
		for _, id := range c.Combat.Order {
			c, err := j.Load(ctx, "mordor", 0)
			require.NoError(t, err)
			if c.Characters[id].Status == "unconscious" || c.Characters[id].Status == "dead" {
				continue
			}
			target := "orco"
			if id == "orco" {
				target = "lodin"
			}
			req := command.AttackRequest{Attacker: id, Target: target}
			if id == "ruisenor" {
				req.Range = "corta"
			}
			_, err = j.Attack(ctx, "mordor", req)
			if err != nil && errors.Is(err, command.ErrInvalid) && id == "ruisenor" {
				_, err = j.Reload(ctx, "mordor", "ruisenor", "")
				require.NoError(t, err)
				continue
			}
			require.NoError(t, err, "attack by %s", id)
			// One attack per round.
			if _, err := j.Attack(ctx, "mordor", req); !errors.Is(err, command.ErrInvalid) {
				t.Fatalf("second attack in a round: err = %v", err)
			}
		}
		_, err = j.NextRound(ctx, "mordor")
		require.NoError(t, err)
	}
	c, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	orco := c.Characters["orco"]
	if orco.HP > 0 {
		t.Fatalf("orco still standing with %d HP after 30 rounds", orco.HP)
	}
	if _, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "orco", Skill: "Pelea"}); !errors.Is(err, command.ErrInvalid) {
		t.Fatalf("roll by an unconscious character: err = %v", err)
	}
	_, err = j.EndCombat(ctx, "mordor")
	require.NoError(t, err)
	_, err = j.HealAfterCombat(ctx, "mordor", "lodin", "")
	require.NoError(t, err)
	if _, err := j.HealAfterCombat(ctx, "mordor", "lodin", ""); !errors.Is(err, command.ErrInvalid) {
		t.Fatalf("second after-combat healing: err = %v", err)
	}

	// XP and a raise.
	_, err = j.GrantXP(ctx, "mordor", "lodin", 7)
	require.NoError(t, err)
	if _, err := j.GrantXP(ctx, "mordor", "lodin", 7); !errors.Is(err, command.ErrInvalid) {
		t.Fatalf("second grant: err = %v", err)
	}
	_, err = j.RaiseSkill(ctx, "mordor", "lodin", "Sigilo")
	require.NoError(t, err)
	c, err = j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	if l := c.Characters["lodin"]; l.Skills["Sigilo"] != 4 || l.XP != 3 {
		t.Fatalf("after raise: Sigilo %d XP %d, want 4 and 3", l.Skills["Sigilo"], l.XP)
	}

	res, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	ended := payload[*events.SessionEnded](t, res.Events[0])
	s := res.Campaign.Session("s1")
	if ended.Rolls != int(s.NextNonce) || len(ended.Seed) != 64 {
		t.Fatalf("session ended: %+v, next nonce %d", ended, s.NextNonce)
	}

	// Nonces: 0..n-1 exactly once.
	seen := map[uint64]int{}
	require.NoError(t, store.Read(ctx, events.Query{Types: []string{events.TypeRollMade}}, func(r events.Recorded) error {
		seen[payload[*events.RollMade](t, r).Nonce]++
		return nil
	}))
	for n := range uint64(ended.Rolls) {
		if seen[n] != 1 {
			t.Fatalf("nonce %d used %d times", n, seen[n])
		}
	}
	if len(seen) != ended.Rolls {
		t.Fatalf("%d distinct nonces, want %d", len(seen), ended.Rolls)
	}

	// Time travel: the sheet as of before the fight had full HP.
	before, err := j.Load(ctx, "mordor", 8)
	require.NoError(t, err)
	if o := before.Characters["orco"]; o.HP != o.MaxHP {
		t.Fatalf("orco at seq 8: %d HP, want %d", o.HP, o.MaxHP)
	}
	// The transcript names every event in order.
	tr := projections.NewTranscript("mordor", "")
	require.NoError(t, store.Read(ctx, events.Query{}, tr.Apply))
	if len(tr.Lines) != count(t, store) {
		t.Fatalf("transcript has %d lines for %d events", len(tr.Lines), count(t, store))
	}
	var buf bytes.Buffer
	for _, l := range tr.Lines {
		fmt.Fprintln(&buf, l.Text)
	}
	for _, want := range []string{"Empieza la sesión s1", "Empieza el combate", "Lodin gana 7 PX", "Semilla revelada"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Fatalf("transcript lacks %q:\n%s", want, buf.String())
		}
	}
}

func payload[T any](t *testing.T, r events.Recorded) T {
	t.Helper()
	p, err := r.Event.Payload()
	require.NoError(t, err)
	v, ok := p.(T)
	if !ok {
		t.Fatalf("event %s is %T", r.Event.Type, p)
	}
	return v
}

func TestVoidLeavesTheEventOut(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()
	res, err := j.Damage(ctx, "mordor", "lodin", 9, "")
	require.NoError(t, err)
	dmg := res.Events[0].Event.ID
	roll, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
	require.NoError(t, err)
	before, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	if hp := before.Characters["lodin"].HP; hp != 28-9 {
		t.Fatalf("HP before the void = %d, want 19", hp)
	}
	_, err = j.Void(ctx, "mordor", dmg, "wrong target")
	require.NoError(t, err)
	_, err = j.Void(ctx, "mordor", roll.Events[0].Event.ID, "rolled by mistake")
	require.NoError(t, err)
	after, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	if hp := after.Characters["lodin"].HP; hp != 28 {
		t.Fatalf("HP after the void = %d, want 28", hp)
	}
	if after.Characters["lodin"].Rolls != 0 {
		t.Fatalf("voided roll still counted")
	}
	// The voided roll keeps its nonce: the next roll takes nonce 1.
	next, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
	require.NoError(t, err)
	if n := payload[*events.RollMade](t, next.Events[0]).Nonce; n != 1 {
		t.Fatalf("roll after a voided roll took nonce %d, want 1", n)
	}
	// The cached state of the journal that voided agrees with a fresh load.
	cached, err := j.Damage(ctx, "mordor", "lodin", 1, "")
	require.NoError(t, err)
	if hp := cached.Campaign.Characters["lodin"].HP; hp != 27 {
		t.Fatalf("cached HP = %d, want 27", hp)
	}
	var recs []events.Recorded
	require.NoError(t, store.Read(ctx, events.Query{}, func(r events.Recorded) error { recs = append(recs, r); return nil }))
	folded, err := projections.Fold("mordor", recs, 0)
	require.NoError(t, err)
	if folded.Characters["lodin"].HP != 27 {
		t.Fatalf("Fold HP = %d, want 27", folded.Characters["lodin"].HP)
	}
	for _, bad := range []struct{ id, reason string }{{dmg, "again"}, {"nope", "x"}, {roll.Events[0].Event.ID, ""}} {
		if _, err := j.Void(ctx, "mordor", bad.id, bad.reason); err == nil {
			t.Fatalf("void %q %q accepted", bad.id, bad.reason)
		}
	}
}
