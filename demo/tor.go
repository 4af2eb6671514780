package demo

import (
	"fmt"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/tor"
)

// tor records a short The One Ring adventure end to end: a company of
// three (one a hobbit), a session and an adventure; a trait invoked before a
// roll; a failed roll and Hope spent on it; a fellowship vote; Shadow, then
// rolls until the Eye shows and starts a bout of madness, which the GM ends
// with a flaw; advancement points for the rolls that qualify; the
// fellowship phase; the session's end; then the sheets and the
// verification.
//
// The dice are the session's own, so loops that wait for a result are
// bounded: each stops at the first roll that shows it.
func (d step) tor() error {
	j, ctx, campaign, v2 := d.j, d.ctx, d.campaign, d.o.V2
	type action struct {
		title string
		f     func() (command.Result, error)
	}
	run := func(steps ...action) error {
		for _, s := range steps {
			if err := d.do(s.title, s.f); err != nil {
				return err
			}
		}
		return nil
	}
	var p play
	// In v2 a request for the same action as an earlier revealed one (the
	// same character, skill, TN and trait) is flagged by the audit as a roll
	// repeated: each roll of the demo's loops asks for a TN not asked for yet,
	// stepping from the loop's (harder to fail, easier to succeed).
	asked := map[string]bool{}
	fresh := func(char, skill string, tn, step int) int {
		if !v2 {
			return tn
		}
		for range 2*tor.MaxTN + 2 {
			key := fmt.Sprintf("%s|%s|%d", char, skill, tn)
			if !asked[key] {
				asked[key] = true
				break
			}
			tn += step
			if tn > tor.MaxTN || tn < tor.MinTN {
				tn, step = tn-step, -step
			}
		}
		return tn
	}
	roll := func(char, skill string, tn int) action {
		return action{"", func() (command.Result, error) {
			return p.roll(command.RollRequest{Character: char, Skill: skill, TN: &tn})
		}}
	}
	// until rolls until the character's latest roll meets ok (at most n rolls).
	until := func(title, char, skill string, tn, step, n int, ok func(*projections.TORRoll) bool) error {
		for i := range n {
			t := ""
			if i == 0 {
				t = title
			}
			s := roll(char, skill, fresh(char, skill, tn, step))
			if err := d.do(t, s.f); err != nil {
				return err
			}
			c, err := j.Load(ctx, campaign, 0)
			if err != nil {
				return err
			}
			if ok(c.TOR.Characters[char].LastRoll) {
				return nil
			}
		}
		if !d.o.JSON {
			fmt.Fprintln(d.o.Out, "  "+d.o.Lang.N("demo.not_in", n))
		}
		return nil
	}

	err := run(
		action{"demo.tor_campaign", func() (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: campaign, Name: "La Tierra Media", System: command.SystemTOR})
		}},
		action{"", func() (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "bilbo", Name: "Bilbo", Player: "Ana",
				Culture: "Hobbits de la Comarca", MaxHope: 12, Attributes: "Cuerpo=3/5,Corazón=6/8,Mente=5/7",
				Skills: "Atención=3*,Sigilo=3*,Acertijos=2,Viajar=2,Buscar=2,Cortesía=1", Traits: []string{"Ladrón", "Ojo avizor"}})
		}},
		action{"", func() (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "thorin", Name: "Thorin", Player: "Bea",
				Culture: "Enanos de Erebor", MaxHope: 8, Attributes: "Cuerpo=7/9,Corazón=5/7,Mente=2/4",
				Skills: "Guerrear=3*,Impresionar=3,Atletismo=2,Persuadir=1,Saber=1", Traits: []string{"Herrero", "Orgulloso"}})
		}},
		action{"", func() (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "balin", Name: "Balin", Player: "Carlos",
				Culture: "Enanos de Erebor", MaxHope: 10, Attributes: "Cuerpo=5/7,Corazón=6/8,Mente=4/6",
				Skills: "Explorar=3*,Saber=2,Cortesía=2,Viajar=2", Traits: []string{"Erudito"}})
		}},
	)
	if err != nil {
		return err
	}
	if p, err = d.newPlay(map[string]string{"bilbo": "ana", "thorin": "bea", "balin": "carlos"}, "ana", "bea", "carlos"); err != nil {
		return err
	}
	err = run(
		action{p.startTitle(), func() (command.Result, error) {
			return p.startSession("s1", "Una fiesta inesperada")
		}},
		action{"demo.tor_adventure", func() (command.Result, error) {
			return j.StartAdventure(ctx, campaign, "El camino al Este")
		}},
		action{"demo.tor_trait", func() (command.Result, error) {
			return j.InvokeTrait(ctx, campaign, command.TraitRequest{Character: "bilbo", Trait: "Ojo avizor"})
		}},
		roll("bilbo", "Atención", fresh("bilbo", "Atención", 14, 1)),
		roll("balin", "Explorar", fresh("balin", "Explorar", 12, 1)),
	)
	if err != nil {
		return err
	}
	// Thorin pleads with the Elvenking until he fails, then spends Hope.
	if err := until("demo.tor_plead", "thorin", "Persuadir", 18, 1, 20,
		func(r *projections.TORRoll) bool { return !r.Result.Success }); err != nil {
		return err
	}
	c, err := j.Load(ctx, campaign, 0)
	if err != nil {
		return err
	}
	if !c.TOR.Characters["thorin"].LastRoll.Result.Success {
		if err := run(
			action{"demo.tor_hope", func() (command.Result, error) {
				return p.spendHope("thorin")
			}},
			action{"demo.tor_vote", func() (command.Result, error) {
				return j.RequestFellowship(ctx, campaign, "thorin")
			}},
			action{"", func() (command.Result, error) { return j.Vote(ctx, campaign, "thorin", "bilbo", true) }},
			action{"", func() (command.Result, error) { return j.Vote(ctx, campaign, "thorin", "balin", false) }},
		); err != nil {
			return err
		}
	}
	if err := run(action{"demo.tor_treasure", func() (command.Result, error) {
		return j.GainShadow(ctx, campaign, "thorin", 9, "la enfermedad del dragón")
	}}); err != nil {
		return err
	}
	if err := until("demo.tor_eye", "thorin", "Saber", tor.DefaultTN, 1, 150,
		func(r *projections.TORRoll) bool { return r.Result.Eye }); err != nil {
		return err
	}
	if c, err = j.Load(ctx, campaign, 0); err != nil {
		return err
	}
	if c.TOR.Characters["thorin"].Mad {
		if err := run(action{"demo.tor_madness_end", func() (command.Result, error) {
			return j.EndMadness(ctx, campaign, "thorin", "Codicioso")
		}}); err != nil {
			return err
		}
	}
	if err := until("demo.tor_scout", "balin", "Explorar", 12, -1, 20,
		func(r *projections.TORRoll) bool { return r.Result.Success }); err != nil {
		return err
	}
	if err := d.grants(); err != nil {
		return err
	}
	if c, err = j.Load(ctx, campaign, 0); err != nil {
		return err
	}
	if !d.o.JSON {
		d.heading(d.o.Lang.T("demo.tor_advancement"))
		d.o.Host.Advancement(d.o.Out, c)
	}
	if err := run(
		action{"demo.tor_phase", func() (command.Result, error) { return j.FellowshipPhase(ctx, campaign) }},
		action{p.title("demo.session_end"), func() (command.Result, error) { return p.endSession() }},
	); err != nil {
		return err
	}
	return d.end(p.title("demo.verification"))
}

// grants has the GM grant every advancement point the adventure's rolls
// qualify for, in roll order.
func (d step) grants() error {
	title := "demo.tor_grants"
	for {
		c, err := d.j.Load(d.ctx, d.campaign, 0)
		if err != nil {
			return err
		}
		var next *projections.TORRoll
		for _, id := range c.TOR.Roster {
			for _, r := range c.TOR.AdventureRolls(id) {
				if e, err := c.TOR.Eligibility(r); err == nil && e.Qualifies {
					next = r
					break
				}
			}
			if next != nil {
				break
			}
		}
		if next == nil {
			return nil
		}
		err = d.do(title, func() (command.Result, error) {
			return d.j.GrantAdvancement(d.ctx, d.campaign, next.Character, string(next.Group), next.EventID)
		})
		if err != nil {
			return err
		}
		title = ""
	}
}
