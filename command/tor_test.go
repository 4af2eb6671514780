package command_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/reproduce"
	"github.com/campaign-journal/journal/rolls"
)

const arda = "arda"

// setupTOR creates a tor campaign with three player characters (two of
// them hobbits) and an NPC, opens a session and starts an adventure.
func setupTOR(t *testing.T, j *command.Handler) {
	t.Helper()
	ctx := context.Background()
	_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: arda, Name: "Tierra Media", System: "tor"})
	require.NoError(t, err)
	for _, req := range []command.CreateCharacter{
		{ID: "bilbo", Name: "Bilbo", Player: "ana", Culture: "Hobbits de la Comarca", MaxHope: 12,
			Attributes: "Cuerpo=3/5,Corazón=6/8,Mente=5/7", Skills: "Atención=3*,Sigilo=3,Acertijos=2*,Viajar=2,Buscar=1",
			Traits: []string{"Ladrón", "Ojo avizor"}},
		{ID: "thorin", Name: "Thorin", Player: "bea", Culture: "Enanos de Erebor", MaxHope: 10,
			Attributes: "body=7/9,heart=5/7,wits=2/4", Skills: "Guerrear=3*,athletics=2,Impresionar=3", Traits: []string{"Herrero"}},
		{ID: "sam", Name: "Sam", Player: "carla", Culture: "hobbit", MaxHope: 1,
			Attributes: "Cuerpo=4/6,Corazón=6/8,Mente=3/5", Skills: "Curar=2,Cazar=1"},
		{ID: "orco", Name: "Orco", NPC: true, Attributes: "Cuerpo=6/8,Corazón=2/3,Mente=2/3", Skills: "Atletismo=2"},
	} {
		_, err := j.CreateCharacter(ctx, arda, req)
		require.NoError(t, err, req.ID)
	}
	_, err = j.StartSession(ctx, arda, "", "Una fiesta inesperada")
	require.NoError(t, err)
	_, err = j.StartAdventure(ctx, arda, "El camino al Este")
	require.NoError(t, err)
}

func load(t *testing.T, j *command.Handler) *projections.Campaign {
	t.Helper()
	c, err := j.Load(context.Background(), arda, 0)
	require.NoError(t, err)
	return c
}

// rollUntil rolls until a roll satisfies ok (at most n rolls) and returns
// that roll's event and data.
func rollUntil(t *testing.T, j *command.Handler, req command.RollRequest, n int, ok func(*events.RollMade) bool) (events.Recorded, *events.RollMade) {
	t.Helper()
	for range n {
		res, err := j.Roll(context.Background(), arda, req)
		require.NoError(t, err)
		r := payload[*events.RollMade](t, res.Events[0])
		if ok(r) {
			return res.Events[0], r
		}
	}
	t.Fatalf("no roll of %s %s met the condition in %d rolls", req.Character, req.Skill, n)
	return events.Recorded{}, nil
}

func failed(r *events.RollMade) bool    { return r.Outcome == "failure" }
func succeeded(r *events.RollMade) bool { return r.Outcome == "success" }

func TestTORCharacterCreation(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setupTOR(t, j)
	c := load(t, j)
	if c.TOR == nil || len(c.TOR.Roster) != 4 || len(c.Characters) != 0 {
		t.Fatalf("tor state %+v, ryf characters %d", c.TOR, len(c.Characters))
	}
	b := c.TOR.Characters["bilbo"]
	if !b.Hobbit || b.Hope != 12 || b.MaxHope != 12 || b.Attributes.Corazon.Favoured != 8 ||
		b.Skills["Atención"].Rank != 3 || !b.Skills["Atención"].Favoured || len(b.Traits) != 2 {
		t.Fatalf("bilbo = %+v", b)
	}
	if th := c.TOR.Characters["thorin"]; th.Hobbit || th.Skills["Atletismo"].Rank != 2 || th.Attributes.Cuerpo.Basic != 7 {
		t.Fatalf("thorin = %+v", th)
	}
	// 3 player characters + 2 hobbits.
	if c.TOR.Pool != 5 || c.TOR.Adventure == nil || c.TOR.Adventure.Number != 1 {
		t.Fatalf("pool %d adventure %+v, want 5 and 1", c.TOR.Pool, c.TOR.Adventure)
	}
}

func TestTORRefusalsRecordNothing(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setupTOR(t, j)
	ctx := context.Background()
	// A successful roll of Bilbo's is his latest: Hope cannot be spent on it.
	rec, _ := rollUntil(t, j, command.RollRequest{Character: "bilbo", Skill: "Atención", TN: ptr(8)}, 40, succeeded)
	okID := rec.Event.ID
	if last := load(t, j).TOR.Characters["bilbo"].LastRoll; last.EventID != okID {
		t.Fatalf("bilbo's last roll is %s, want %s", last.EventID, okID)
	}
	// Bilbo's group Percepción is filled by the GM.
	for range 3 {
		_, err := j.GrantAdvancement(ctx, arda, "bilbo", "Percepción", "")
		require.NoError(t, err)
	}
	before := count(t, store)
	tests := []struct {
		name string
		do   func() error
		want error
	}{
		{"unknown tor character", func() error {
			_, err := j.Roll(ctx, arda, command.RollRequest{Character: "gandalf", Skill: "Saber"})
			return err
		}, command.ErrNotFound},
		{"unknown skill", func() error {
			_, err := j.Roll(ctx, arda, command.RollRequest{Character: "bilbo", Skill: "Cocina"})
			return err
		}, command.ErrInvalid},
		{"ryf option on a tor roll", func() error {
			_, err := j.Roll(ctx, arda, command.RollRequest{Character: "bilbo", Skill: "Sigilo", Vs: "media"})
			return err
		}, command.ErrInvalid},
		{"tn out of range", func() error {
			_, err := j.Roll(ctx, arda, command.RollRequest{Character: "bilbo", Skill: "Sigilo", TN: ptr(100)})
			return err
		}, command.ErrInvalid},
		{"tn 0 (given, not the default)", func() error {
			_, err := j.Roll(ctx, arda, command.RollRequest{Character: "bilbo", Skill: "Sigilo", TN: ptr(0)})
			return err
		}, command.ErrInvalid},
		{"roll with an unknown trait", func() error {
			_, err := j.Roll(ctx, arda, command.RollRequest{Character: "bilbo", Skill: "Sigilo", Trait: "Herrero"})
			return err
		}, command.ErrInvalid},
		{"invoke an unknown trait", func() error {
			_, err := j.InvokeTrait(ctx, arda, command.TraitRequest{Character: "bilbo", Trait: "Herrero", Automatic: true})
			return err
		}, command.ErrInvalid},
		{"hope on a success", func() error {
			_, err := j.SpendHope(ctx, arda, "bilbo", okID)
			return err
		}, command.ErrInvalid},
		{"hope on another's roll", func() error {
			_, err := j.SpendHope(ctx, arda, "thorin", okID)
			return err
		}, command.ErrInvalid},
		{"hope with no roll", func() error {
			_, err := j.SpendHope(ctx, arda, "sam", "")
			return err
		}, command.ErrInvalid},
		{"hope on an unknown roll", func() error {
			_, err := j.SpendHope(ctx, arda, "bilbo", "0190b3c4-0000-7000-8000-000000000000")
			return err
		}, command.ErrNotFound},
		{"fellowship at full hope", func() error {
			_, err := j.RequestFellowship(ctx, arda, "bilbo")
			return err
		}, command.ErrInvalid},
		{"fellowship by an npc", func() error {
			_, err := j.RequestFellowship(ctx, arda, "orco")
			return err
		}, command.ErrInvalid},
		{"vote without a request", func() error {
			_, err := j.Vote(ctx, arda, "bilbo", "thorin", true)
			return err
		}, command.ErrInvalid},
		{"take without a request", func() error {
			_, err := j.ResolveFellowship(ctx, arda, "bilbo", true)
			return err
		}, command.ErrInvalid},
		{"4th point in a group", func() error {
			_, err := j.GrantAdvancement(ctx, arda, "bilbo", "Percepción", "")
			return err
		}, command.ErrInvalid},
		{"4th point in a group named by a skill", func() error {
			_, err := j.GrantAdvancement(ctx, arda, "bilbo", "Buscar", okID)
			return err
		}, command.ErrInvalid},
		{"unknown group", func() error {
			_, err := j.GrantAdvancement(ctx, arda, "bilbo", "Cocina", "")
			return err
		}, command.ErrInvalid},
		{"roll of another group", func() error {
			_, err := j.GrantAdvancement(ctx, arda, "bilbo", "Movimiento", okID)
			return err
		}, command.ErrInvalid},
		{"end madness when sane", func() error {
			_, err := j.EndMadness(ctx, arda, "bilbo", "Codicia")
			return err
		}, command.ErrInvalid},
		{"shadow out of range", func() error {
			_, err := j.GainShadow(ctx, arda, "bilbo", 0, "")
			return err
		}, command.ErrInvalid},
		{"second adventure", func() error {
			_, err := j.StartAdventure(ctx, arda, "")
			return err
		}, command.ErrInvalid},
		{"duplicate character", func() error {
			_, err := j.CreateCharacter(ctx, arda, command.CreateCharacter{ID: "bilbo", Player: "x", MaxHope: 3, Attributes: "Cuerpo=3/5,Corazón=6/8,Mente=5/7"})
			return err
		}, command.ErrInvalid},
		{"bad tor character", func() error {
			_, err := j.CreateCharacter(ctx, arda, command.CreateCharacter{ID: "x", Player: "x", MaxHope: 200,
				Attributes: "Cuerpo=0/5,Corazón=6/4,Mente=5/7", Skills: "Atletismo=7", Traits: []string{"a", "A"}})
			return err
		}, command.ErrInvalid},
		{"tor character without hope", func() error {
			_, err := j.CreateCharacter(ctx, arda, command.CreateCharacter{ID: "x", Player: "x", Attributes: "Cuerpo=3/5,Corazón=6/8,Mente=5/7"})
			return err
		}, command.ErrInvalid},
		{"tor character with ryf attributes", func() error {
			_, err := j.CreateCharacter(ctx, arda, command.CreateCharacter{ID: "x", Player: "x", MaxHope: 3, Attributes: "F=8,R=7,D=9,I=8,P=8"})
			return err
		}, command.ErrInvalid},
		{"ryf command in a tor campaign", func() error {
			_, err := j.ReturnToken(ctx, arda, "bilbo")
			return err
		}, command.ErrInvalid},
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
	// A tor command in a ryf campaign.
	setup(t, j)
	if _, err := j.SpendHope(ctx, "mordor", "lodin", ""); !errors.Is(err, command.ErrInvalid) {
		t.Fatalf("hope in a ryf campaign: err = %v", err)
	}
	if _, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", TN: ptr(14)}); !errors.Is(err, command.ErrInvalid) {
		t.Fatalf("--tn in a ryf campaign: err = %v", err)
	}
}

func TestTORFlow(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setupTOR(t, j)
	ctx := context.Background()
	refused := func(what string, want error, do func() error) {
		t.Helper()
		before := count(t, store)
		if err := do(); !errors.Is(err, want) {
			t.Fatalf("%s: err = %v, want %v", what, err, want)
		}
		if n := count(t, store) - before; n != 0 {
			t.Fatalf("%s: %d events recorded by a refused command", what, n)
		}
	}

	// Hope after a failed roll: Atención is favoured, so Cuerpo's favoured 5.
	rec, roll := rollUntil(t, j, command.RollRequest{Character: "bilbo", Skill: "atencion", TN: ptr(20), Entropy: "ana"}, 40, failed)
	if roll.System != "tor" || roll.Kind != rolls.KindTOR || roll.Skill != "Atención" || !roll.Favoured || roll.TN != 20 ||
		len(roll.Faces) != 4 || roll.Feat != roll.Faces[0] || roll.Entropy != "ana" {
		t.Fatalf("roll = %+v", roll)
	}
	res, err := j.SpendHope(ctx, arda, "bilbo", rec.Event.ID)
	require.NoError(t, err)
	hope := payload[*events.TORHopeSpent](t, res.Events[0])
	if hope.Bonus != 5 || hope.Hope != 11 || hope.Total != roll.Total+5 || hope.Roll != rec.Event.ID || res.Events[0].Event.CausationID != rec.Event.ID {
		t.Fatalf("hope spent = %+v", hope)
	}
	if b := res.Campaign.TOR.Characters["bilbo"]; b.Hope != 11 || !b.LastRoll.HopeSpent || b.LastRoll.Result.Total != hope.Total {
		t.Fatalf("bilbo after hope: %+v", b)
	}
	refused("hope twice on one roll", command.ErrInvalid, func() error {
		_, err := j.SpendHope(ctx, arda, "bilbo", rec.Event.ID)
		return err
	})
	// Sam spends his only Hope (flagged), then has none.
	_, _ = rollUntil(t, j, command.RollRequest{Character: "sam", Skill: "Curar", TN: ptr(18)}, 40, failed)
	res, err = j.SpendHope(ctx, arda, "sam", "")
	require.NoError(t, err)
	if h := payload[*events.TORHopeSpent](t, res.Events[0]); !h.LastHope || h.Hope != 0 || h.Bonus != 6 {
		t.Fatalf("sam's hope = %+v", h)
	}
	_, _ = rollUntil(t, j, command.RollRequest{Character: "sam", Skill: "Curar", TN: ptr(18)}, 40, failed)
	refused("hope at 0", command.ErrInvalid, func() error {
		_, err := j.SpendHope(ctx, arda, "sam", "")
		return err
	})

	// The fellowship: Sam asks, Thorin agrees, Bilbo refuses: a tie grants.
	_, err = j.RequestFellowship(ctx, arda, "sam")
	require.NoError(t, err)
	refused("a second request while one is open", command.ErrInvalid, func() error {
		_, err := j.RequestFellowship(ctx, arda, "bilbo")
		return err
	})
	refused("a vote by an npc", command.ErrInvalid, func() error {
		_, err := j.Vote(ctx, arda, "sam", "orco", true)
		return err
	})
	refused("a vote by an unknown character", command.ErrNotFound, func() error {
		_, err := j.Vote(ctx, arda, "sam", "gandalf", true)
		return err
	})
	refused("the requester votes", command.ErrInvalid, func() error {
		_, err := j.Vote(ctx, arda, "sam", "sam", true)
		return err
	})
	refused("take before the vote ends", command.ErrInvalid, func() error {
		_, err := j.ResolveFellowship(ctx, arda, "sam", true)
		return err
	})
	res, err = j.Vote(ctx, arda, "sam", "thorin", true)
	require.NoError(t, err)
	if len(res.Events) != 1 {
		t.Fatalf("first vote recorded %d events", len(res.Events))
	}
	refused("a second vote by one member", command.ErrInvalid, func() error {
		_, err := j.Vote(ctx, arda, "sam", "thorin", false)
		return err
	})
	res, err = j.Vote(ctx, arda, "sam", "bilbo", false)
	require.NoError(t, err)
	if len(res.Events) != 2 {
		t.Fatalf("last vote recorded %d events, want the vote and the point spent", len(res.Events))
	}
	spent := payload[*events.TORFellowshipSpent](t, res.Events[1])
	if spent.Outcome != events.TORFellowshipGranted || spent.Agree != 1 || spent.Refuse != 1 || spent.Hope != 1 || spent.Pool != 4 {
		t.Fatalf("spent = %+v", spent)
	}
	if c := res.Campaign; c.TOR.Pool != 4 || c.TOR.Request != nil || c.TOR.Characters["sam"].Hope != 1 {
		t.Fatalf("after the grant: pool %d request %+v sam %+v", c.TOR.Pool, c.TOR.Request, c.TOR.Characters["sam"])
	}
	// Bilbo asks; both refuse; he withdraws, asks again and takes it anyway.
	_, err = j.RequestFellowship(ctx, arda, "bilbo")
	require.NoError(t, err)
	_, err = j.Vote(ctx, arda, "bilbo", "thorin", false)
	require.NoError(t, err)
	_, err = j.Vote(ctx, arda, "bilbo", "sam", false)
	require.NoError(t, err)
	if c := load(t, j); !c.TOR.Request.Refused() {
		t.Fatalf("request = %+v, want refused", c.TOR.Request)
	}
	res, err = j.ResolveFellowship(ctx, arda, "bilbo", false)
	require.NoError(t, err)
	if w := payload[*events.TORFellowshipWithdrawn](t, res.Events[0]); w.Refuse != 2 || res.Campaign.TOR.Pool != 4 || res.Campaign.TOR.Characters["bilbo"].Hope != 11 {
		t.Fatalf("withdrawn = %+v", w)
	}
	_, err = j.RequestFellowship(ctx, arda, "bilbo")
	require.NoError(t, err)
	_, err = j.Vote(ctx, arda, "bilbo", "thorin", false)
	require.NoError(t, err)
	_, err = j.Vote(ctx, arda, "bilbo", "sam", false)
	require.NoError(t, err)
	res, err = j.ResolveFellowship(ctx, arda, "bilbo", true)
	require.NoError(t, err)
	spent = payload[*events.TORFellowshipSpent](t, res.Events[0])
	if spent.Outcome != events.TORFellowshipForced || spent.Shadow != 1 || spent.Hope != 12 || spent.Pool != 3 {
		t.Fatalf("taken anyway = %+v", spent)
	}
	if b := res.Campaign.TOR.Characters["bilbo"]; b.Shadow != 1 || b.Hope != 12 || res.Campaign.TOR.Pool != 3 {
		t.Fatalf("bilbo after taking: %+v", b)
	}

	// Traits: an automatic success, and a roll with the trait invoked.
	res, err = j.InvokeTrait(ctx, arda, command.TraitRequest{Character: "bilbo", Trait: "ladron", Automatic: true, Skill: "sigilo"})
	require.NoError(t, err)
	if tr := payload[*events.TORTraitInvoked](t, res.Events[0]); tr.Trait != "Ladrón" || !tr.Automatic || tr.Skill != "Sigilo" {
		t.Fatalf("trait = %+v", tr)
	}
	_, err = j.InvokeTrait(ctx, arda, command.TraitRequest{Character: "bilbo", Trait: "ojo"})
	require.NoError(t, err)
	refused("a second pending trait", command.ErrInvalid, func() error {
		_, err := j.InvokeTrait(ctx, arda, command.TraitRequest{Character: "bilbo", Trait: "ladron"})
		return err
	})
	res, err = j.Roll(ctx, arda, command.RollRequest{Character: "bilbo", Skill: "Buscar", TN: ptr(1)})
	require.NoError(t, err)
	traitRoll := payload[*events.RollMade](t, res.Events[0])
	if traitRoll.Trait != "Ojo avizor" || traitRoll.Outcome != "success" {
		t.Fatalf("roll after the trait: %+v", traitRoll)
	}
	if res.Campaign.TOR.Characters["bilbo"].PendingTrait != "" {
		t.Fatal("the trait is still pending after the roll")
	}

	// Advancement: the journal says the box; the GM grants; never a 4th.
	c := load(t, j)
	var success *projections.TORRoll
	for _, r := range c.TOR.AdventureRolls("bilbo") {
		if r.Skill == "Atención" && r.Result.Success && !r.HopeSpent {
			success = r
			break
		}
	}
	if success == nil {
		rec, _ := rollUntil(t, j, command.RollRequest{Character: "bilbo", Skill: "Atención", TN: ptr(8)}, 40, succeeded)
		c = load(t, j)
		success = c.TOR.Rolls[rec.Event.ID]
	}
	if e, err := c.TOR.Eligibility(success); err != nil || !e.Qualifies || e.Box != 1 {
		t.Fatalf("eligibility of %+v: %+v %v", success, e, err)
	}
	res, err = j.GrantAdvancement(ctx, arda, "bilbo", "perception", success.EventID)
	require.NoError(t, err)
	adv := payload[*events.TORAdvancementGranted](t, res.Events[0])
	if adv.Group != "Percepción" || adv.Box != 1 || adv.Roll != success.EventID || adv.Skill != "Atención" {
		t.Fatalf("advancement = %+v", adv)
	}
	refused("one roll, two points", command.ErrInvalid, func() error {
		_, err := j.GrantAdvancement(ctx, arda, "bilbo", "Percepción", success.EventID)
		return err
	})
	// The Buscar roll had a trait invoked: it earns the 2nd box.
	c = load(t, j)
	var buscar *projections.TORRoll
	for _, r := range c.TOR.AdventureRolls("bilbo") {
		if r.Skill == "Buscar" {
			buscar = r
		}
	}
	if e, err := c.TOR.Eligibility(buscar); err != nil || !e.Qualifies || e.Box != 2 {
		t.Fatalf("eligibility of the trait roll: %+v %v", e, err)
	}
	res, err = j.GrantAdvancement(ctx, arda, "bilbo", "buscar", buscar.EventID)
	require.NoError(t, err)
	if adv := payload[*events.TORAdvancementGranted](t, res.Events[0]); adv.Box != 2 {
		t.Fatalf("second point: %+v", adv)
	}
	_, err = j.GrantAdvancement(ctx, arda, "bilbo", "Percepción", "")
	require.NoError(t, err)
	refused("a 4th point", command.ErrInvalid, func() error {
		_, err := j.GrantAdvancement(ctx, arda, "bilbo", "Percepción", "")
		return err
	})
	failRec, _ := rollUntil(t, j, command.RollRequest{Character: "thorin", Skill: "Guerrear", TN: ptr(30)}, 40, failed)
	refused("a point for a failed roll", command.ErrInvalid, func() error {
		_, err := j.GrantAdvancement(ctx, arda, "thorin", "Oficio", failRec.Event.ID)
		return err
	})

	// Shadow, then the Eye: Thorin's Hope (10) is below his Shadow (11).
	res, err = j.GainShadow(ctx, arda, "thorin", 11, "la Desolación de Smaug")
	require.NoError(t, err)
	if sh := payload[*events.TORShadowGained](t, res.Events[0]); sh.Shadow != 11 || !res.Campaign.TOR.Characters["thorin"].MadnessRisk {
		t.Fatalf("shadow = %+v", sh)
	}
	var eye events.Recorded
	for range 200 {
		res, err = j.Roll(ctx, arda, command.RollRequest{Character: "thorin", Skill: "Impresionar"})
		require.NoError(t, err)
		if r := payload[*events.RollMade](t, res.Events[0]); r.Eye {
			eye = res.Events[0]
			break
		}
		if len(res.Events) != 1 {
			t.Fatalf("a roll without the Eye recorded %d events", len(res.Events))
		}
	}
	require.NotEmpty(t, eye.Event.ID, "no Eye in 200 rolls")
	if len(res.Events) != 2 {
		t.Fatalf("the Eye recorded %d events, want the roll and the bout of madness", len(res.Events))
	}
	mad := payload[*events.TORMadnessBegun](t, res.Events[1])
	if mad.Roll != eye.Event.ID || mad.Hope != 10 || mad.Shadow != 11 || res.Events[1].Event.CausationID != eye.Event.ID {
		t.Fatalf("madness = %+v", mad)
	}
	if th := res.Campaign.TOR.Characters["thorin"]; !th.Mad || !th.LastRoll.Madness {
		t.Fatalf("thorin = %+v", th)
	}
	refused("hope during a bout", command.ErrInvalid, func() error {
		_, err := j.SpendHope(ctx, arda, "thorin", "")
		return err
	})
	refused("a trait during a bout", command.ErrInvalid, func() error {
		_, err := j.InvokeTrait(ctx, arda, command.TraitRequest{Character: "thorin", Trait: "Herrero", Automatic: true})
		return err
	})
	refused("end a bout without a flaw", command.ErrInvalid, func() error {
		_, err := j.EndMadness(ctx, arda, "thorin", " ")
		return err
	})
	// The GM still rolls for him during the bout.
	_, err = j.Roll(ctx, arda, command.RollRequest{Character: "thorin", Skill: "Impresionar"})
	require.NoError(t, err)
	res, err = j.EndMadness(ctx, arda, "thorin", "Rencoroso")
	require.NoError(t, err)
	if th := res.Campaign.TOR.Characters["thorin"]; th.Mad || th.PermanentShadow != 1 || th.Flaws[0] != "Rencoroso" {
		t.Fatalf("thorin after the bout: %+v", th)
	}

	// The fellowship phase: points banked, groups cleared, Shadow cleared, pool reset.
	res, err = j.FellowshipPhase(ctx, arda)
	require.NoError(t, err)
	phase := payload[*events.TORFellowshipPhase](t, res.Events[0])
	if phase.Banked["bilbo"] != 3 || phase.ShadowCleared["thorin"] != 11 || phase.ShadowCleared["bilbo"] != 1 || phase.Pool != 5 {
		t.Fatalf("phase = %+v", phase)
	}
	c = res.Campaign
	b, th := c.TOR.Characters["bilbo"], c.TOR.Characters["thorin"]
	if b.AdvancementTotal != 3 || b.AdventurePoints() != 0 || b.Shadow != 0 || th.Shadow != 0 || th.PermanentShadow != 1 ||
		c.TOR.Pool != 5 || c.TOR.Adventure != nil {
		t.Fatalf("after the phase: bilbo %+v thorin %+v pool %d", b, th, c.TOR.Pool)
	}
	refused("advancement between adventures", command.ErrInvalid, func() error {
		_, err := j.GrantAdvancement(ctx, arda, "bilbo", "Percepción", "")
		return err
	})
	refused("a second fellowship phase", command.ErrInvalid, func() error {
		_, err := j.FellowshipPhase(ctx, arda)
		return err
	})
	res, err = j.StartAdventure(ctx, arda, "")
	require.NoError(t, err)
	if a := payload[*events.TORAdventureStarted](t, res.Events[0]); a.Number != 2 || a.Pool != 5 {
		t.Fatalf("second adventure = %+v", a)
	}
	_, err = j.EndSession(ctx, arda)
	require.NoError(t, err)

	// Every TOR roll re-judges to what was recorded, nonces have no gaps,
	// and the transcript has a Spanish line for every event.
	nonces := map[uint64]int{}
	n := 0
	require.NoError(t, store.Read(ctx, events.Query{Types: []string{events.TypeRollMade}}, func(r events.Recorded) error {
		e := payload[*events.RollMade](t, r)
		want, err := rolls.Rejudge(*e)
		require.NoError(t, err, r.Event.ID)
		if diff := rolls.Diff(*e, want); len(diff) > 0 {
			t.Errorf("roll %s: %v", r.Event.ID, diff)
		}
		dice, err := rolls.Dice(*e)
		require.NoError(t, err)
		if len(dice) != len(e.Faces) || dice[0] != 12 {
			t.Errorf("roll %s: dice %v for faces %v", r.Event.ID, dice, e.Faces)
		}
		nonces[e.Nonce]++
		n++
		return nil
	}))
	for i := range uint64(n) {
		if nonces[i] != 1 {
			t.Fatalf("nonce %d used %d times", i, nonces[i])
		}
	}
	// The audit: verification and reproduction of the session.
	src := replay.StoreSource(store.Read, events.Query{})
	rep, err := replay.Verify(ctx, src, replay.Options{})
	require.NoError(t, err)
	if !rep.OK() {
		var b strings.Builder
		_ = rep.WriteText(&b)
		t.Fatalf("verify:\n%s", b.String())
	}
	rp, err := reproduce.Run(ctx, src, replay.Options{})
	require.NoError(t, err)
	if tt := rp.Totals; !rp.OK() || tt.SessionsIdentical != 1 || tt.Rolls == 0 || tt.RollsIdentical != tt.Rolls || tt.Skipped != 0 {
		t.Logf("reproduce totals %+v", tt)
		var b strings.Builder
		_ = rp.WriteText(&b)
		t.Fatalf("reproduce:\n%s", b.String())
	}

	tr := projections.NewTranscript(arda, "")
	require.NoError(t, store.Read(ctx, events.Query{}, tr.Apply))
	var text strings.Builder
	for _, l := range tr.Lines {
		if strings.HasPrefix(l.Text, "journal.") {
			t.Errorf("no transcript line for %s", l.Type)
		}
		text.WriteString(l.Text + "\n")
	}
	for _, want := range []string{
		"Bilbo entra en juego (personaje jugador de ana, Hobbits de la Comarca): Esperanza 12/12",
		"Empieza la aventura 1 «El camino al Este». Reserva de comunidad: 5.",
		"Bilbo tira Atención (favorecida) contra NO 20",
		"Bilbo gasta 1 de Esperanza en su tirada de Atención: +5 (Cuerpo favorecido)",
		"¡Era su última Esperanza!",
		"Sam pide un punto de comunidad",
		"La comunidad lo concede (1 sí, 1 no).",
		"La comunidad lo rechaza (0 sí, 2 no)",
		"Bilbo retira su petición",
		"Bilbo toma el punto de comunidad pese al rechazo",
		"invoca su rasgo «Ladrón»: el máster concede un éxito automático en Sigilo",
		"invocando «Ojo avizor»",
		"Vale un punto de progreso en Percepción (1.ª casilla)",
		"El máster concede a Bilbo un punto de progreso en Percepción (1.ª casilla de 3) por su tirada de Atención",
		"Thorin gana 11 de Sombra (la Desolación de Smaug)",
		"el Ojo (0)",
		"¡Thorin sufre un ataque de locura!",
		"Termina el ataque de locura de Thorin: +1 Sombra permanente (ahora 1) y el defecto «Rencoroso».",
		"Fase de comunidad: termina la aventura 1; puntos de progreso: Bilbo 3 (total 3)",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Log(text.String())
	}
}

// ptr is a pointer to v (a TN given).
func ptr[T any](v T) *T { return &v }
