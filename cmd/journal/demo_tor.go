package main

import (
	"context"
	"fmt"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/tor"
)

// demoTOR records a short The One Ring adventure end to end: a company of
// three (one a hobbit), a session and an adventure; a trait invoked before a
// roll; a failed roll and Hope spent on it; a fellowship vote; Shadow, then
// rolls until the Eye shows and starts a bout of madness, which the GM ends
// with a flaw; advancement points for the rolls that qualify; the
// fellowship phase; the session's end; then the sheets and the
// verification.
//
// The dice are the session's own, so loops that wait for a result are
// bounded: each stops at the first roll that shows it.
func (a *app) demoTOR(ctx context.Context, v2 bool) error {
	j, err := a.demoJournal(ctx)
	if err != nil {
		return err
	}
	const campaign = "demo-tor"
	a.campaign = campaign
	d := demoStep{a: a, ctx: ctx, j: j, campaign: campaign}
	if !a.jsonOut {
		fmt.Fprintln(a.stdout, a.language().T("demo.head", "tor", a.dataDir))
	}
	if c, err := j.Load(ctx, campaign, 0); err == nil && c.Events > 0 {
		return msgerr.Errorf("campaign %s already exists in %s: run the demo on a fresh --data folder", campaign, a.dataDir)
	}
	type step struct {
		title string
		f     func() (command.Result, error)
	}
	run := func(steps ...step) error {
		for _, s := range steps {
			if err := d.do(s.title, s.f); err != nil {
				return err
			}
		}
		return nil
	}
	var p demoPlay
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
	roll := func(char, skill string, tn int) step {
		return step{"", func() (command.Result, error) {
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
		if !a.jsonOut {
			fmt.Fprintln(a.stdout, "  "+a.language().N("demo.not_in", n))
		}
		return nil
	}

	err = run(
		step{"demo.tor_campaign", func() (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: campaign, Name: "La Tierra Media", System: command.SystemTOR})
		}},
		step{"", func() (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "bilbo", Name: "Bilbo", Player: "Ana",
				Culture: "Hobbits de la Comarca", MaxHope: 12, Attributes: "Cuerpo=3/5,Corazón=6/8,Mente=5/7",
				Skills: "Atención=3*,Sigilo=3*,Acertijos=2,Viajar=2,Buscar=2,Cortesía=1", Traits: []string{"Ladrón", "Ojo avizor"}})
		}},
		step{"", func() (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "thorin", Name: "Thorin", Player: "Bea",
				Culture: "Enanos de Erebor", MaxHope: 8, Attributes: "Cuerpo=7/9,Corazón=5/7,Mente=2/4",
				Skills: "Guerrear=3*,Impresionar=3,Atletismo=2,Persuadir=1,Saber=1", Traits: []string{"Herrero", "Orgulloso"}})
		}},
		step{"", func() (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "balin", Name: "Balin", Player: "Carlos",
				Culture: "Enanos de Erebor", MaxHope: 10, Attributes: "Cuerpo=5/7,Corazón=6/8,Mente=4/6",
				Skills: "Explorar=3*,Saber=2,Cortesía=2,Viajar=2", Traits: []string{"Erudito"}})
		}},
	)
	if err != nil {
		return err
	}
	if p, err = a.newDemoPlay(d, v2, map[string]string{"bilbo": "ana", "thorin": "bea", "balin": "carlos"}, "ana", "bea", "carlos"); err != nil {
		return err
	}
	err = run(
		step{p.startTitle(a), func() (command.Result, error) {
			return p.startSession("s1", "Una fiesta inesperada")
		}},
		step{"demo.tor_adventure", func() (command.Result, error) {
			return j.StartAdventure(ctx, campaign, "El camino al Este")
		}},
		step{"demo.tor_trait", func() (command.Result, error) {
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
			step{"demo.tor_hope", func() (command.Result, error) {
				return p.spendHope("thorin")
			}},
			step{"demo.tor_vote", func() (command.Result, error) {
				return j.RequestFellowship(ctx, campaign, "thorin")
			}},
			step{"", func() (command.Result, error) { return j.Vote(ctx, campaign, "thorin", "bilbo", true) }},
			step{"", func() (command.Result, error) { return j.Vote(ctx, campaign, "thorin", "balin", false) }},
		); err != nil {
			return err
		}
	}
	if err := run(step{"demo.tor_treasure", func() (command.Result, error) {
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
		if err := run(step{"demo.tor_madness_end", func() (command.Result, error) {
			return j.EndMadness(ctx, campaign, "thorin", "Codicioso")
		}}); err != nil {
			return err
		}
	}
	if err := until("demo.tor_scout", "balin", "Explorar", 12, -1, 20,
		func(r *projections.TORRoll) bool { return r.Result.Success }); err != nil {
		return err
	}
	if err := a.demoGrants(d); err != nil {
		return err
	}
	if c, err = j.Load(ctx, campaign, 0); err != nil {
		return err
	}
	if !a.jsonOut {
		fmt.Fprintf(a.stdout, "\n▸ %s\n", a.language().T("demo.tor_advancement"))
		for _, id := range c.TOR.Roster {
			printAdvancement(a.stdout, a.language(), c, advancementOf(c.TOR, c.TOR.Characters[id]))
		}
	}
	if err := run(
		step{"demo.tor_phase", func() (command.Result, error) { return j.FellowshipPhase(ctx, campaign) }},
		step{p.title("demo.session_end"), func() (command.Result, error) { return p.endSession(a) }},
	); err != nil {
		return err
	}
	return a.demoEnd(ctx, j, campaign, p.title("demo.verification"))
}

// demoGrants has the GM grant every advancement point the adventure's rolls
// qualify for, in roll order.
func (a *app) demoGrants(d demoStep) error {
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
