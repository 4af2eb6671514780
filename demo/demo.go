// Package demo plays the sample campaign of `journal demo` through the
// command handler (and, with journal-dice-v2, the device package): two
// player characters and an NPC, a session with skill rolls, a contest and a
// short fight, healing, XP and a skill raise, or a short The One Ring
// adventure; then the final sheets and the verification of every roll.
//
// What it needs of the program that runs it (the store, the sheets'
// printing, the verification's source) comes through Host; the rest
// (output writer, language, device folder, seeds) through Options.
package demo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/signed"
)

// Host is what the demo needs from the program that plays it.
type Host interface {
	// Journal is the command handler the demo records with.
	Journal(ctx context.Context) (*command.Handler, error)
	// Describe renders the lines of freshly recorded events, folded onto
	// the state before them.
	Describe(before *projections.Campaign, recs []events.Recorded) []string
	// Seen is this device's receipt of campaign's event at seq (nil: none).
	Seen(ctx context.Context, campaign string, seq uint64) (*signed.Seen, error)
	// EndedHash is hex(SHA-256) of the stored bytes of session's
	// session-ended event.
	EndedHash(ctx context.Context, campaign, session string) (signed.Hex32, error)
	// Verify verifies the campaign's sessions from the store.
	Verify(ctx context.Context, campaign string) (replay.Report, error)
	// Sheets writes the final sheet of every character of c.
	Sheets(w io.Writer, c *projections.Campaign)
	// Advancement writes the advancement of every character of c (The One Ring).
	Advancement(w io.Writer, c *projections.Campaign)
	// Emit writes v as the --json document.
	Emit(v any) error
}

// Options are how the demo is played and written.
type Options struct {
	Host Host
	// System is ryf, galaxia or tor; V2 plays journal-dice-v2.
	System string
	V2     bool
	Out    io.Writer
	JSON   bool // write only the final --json document (Host.Emit)
	Lang   i18n.Lang
	// DataDir is the data folder the demo records into (named in its heading).
	DataDir string
	// KeysDir is the configuration folder of the demo's device keys (v2).
	KeysDir string
	// Seeds, when set (tests), is the source of the sessions' seeds and the
	// devices' secrets, so that the story is fixed; nil: crypto/rand.
	Seeds io.Reader
}

// Failed is the demo's end when the verification finds mismatches.
type Failed struct{ Mismatches int }

func (f Failed) Error() string { return i18n.EN.N("err.demo_failed", f.Mismatches) }

// Campaign is the id of the demo's campaign for system.
func Campaign(system string) string { return "demo-" + system }

// Play plays the demo of o.System.
func Play(ctx context.Context, o Options) error {
	j, err := o.Host.Journal(ctx)
	if err != nil {
		return err
	}
	d := step{o: o, ctx: ctx, j: j, campaign: Campaign(o.System)}
	if !o.JSON {
		fmt.Fprintln(o.Out, o.Lang.T("demo.head", o.System, o.DataDir))
	}
	if c, err := j.Load(ctx, d.campaign, 0); err == nil && c.Events > 0 {
		return msgerr.Errorf("campaign %s already exists in %s: run the demo on a fresh --data folder", d.campaign, o.DataDir)
	}
	if o.System == command.SystemTOR {
		return d.tor()
	}
	return d.ryf()
}

// step records the demo's steps and prints what each recorded.
type step struct {
	o        Options
	ctx      context.Context
	j        *command.Handler
	campaign string
}

// heading prints a heading line (▸ text) unless the output is JSON.
func (d step) heading(text string) {
	if !d.o.JSON {
		fmt.Fprintf(d.o.Out, "\n▸ %s\n", text)
	}
}

func (d step) do(title string, f func() (command.Result, error)) error {
	if title != "" {
		// title is a key of the catalogue: the heading in the output's language.
		title = d.o.Lang.T(i18n.Key(title))
		d.heading(title)
	}
	before, err := d.j.Load(d.ctx, d.campaign, 0)
	if err != nil {
		return err
	}
	res, err := f()
	if err != nil {
		return msgerr.Errorf("demo step %q: %w", title, err)
	}
	if d.o.JSON {
		return nil
	}
	for _, line := range d.o.Host.Describe(before, res.Events) {
		fmt.Fprintf(d.o.Out, "  %s\n", line)
	}
	return nil
}

// rand is the source of the demo devices' secrets.
func (d step) rand() io.Reader {
	if d.o.Seeds != nil {
		return d.o.Seeds
	}
	return rand.Reader
}

func (d step) ryf() error {
	j, ctx, campaign, system := d.j, d.ctx, d.campaign, d.o.System
	ranged, gun := "Armas a distancia", "Revólver"
	if system == "galaxia" {
		ranged = "Armas a fuego livianas"
	}
	steps := []struct {
		title string
		f     func() (command.Result, error)
	}{
		{"demo.campaign", func() (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: campaign, Name: "La torre de Mordor", System: system})
		}},
		{"", func() (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "Ana", Occupation: "mercenario",
				Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Armas cuerpo a cuerpo=5,Pelea=4,Sigilo=5,Atletismo=3,Buscar=3", Specialization: "Sigilo", Weapons: []string{"Espada"}})
		}},
		{"", func() (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "ruisenor", Name: "Ruiseñor", Player: "Bea", Occupation: "pistolera",
				Attributes: "F=6,R=8,D=10,I=8,P=8", Skills: ranged + "=5,Advertir/Notar=5,Pelea=3,Medicina=2", Specialization: ranged, Weapons: []string{gun}})
		}},
		{"", func() (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, command.CreateCharacter{ID: "orco", Name: "Orco", NPC: true,
				Attributes: "F=7,R=4,D=5,I=3,P=4", Skills: "Pelea=4,Armas cuerpo a cuerpo=3,Advertir/Notar=2", Weapons: []string{"Hacha"}})
		}},
	}
	for _, s := range steps {
		if err := d.do(s.title, s.f); err != nil {
			return err
		}
	}
	p, err := d.newPlay(map[string]string{"lodin": "ana", "ruisenor": "bea"}, "ana", "bea")
	if err != nil {
		return err
	}
	entropy := "ana-1"
	if d.o.V2 {
		entropy = "" // the device's secret r replaces entropy
	}
	if err := d.do(p.startTitle(), func() (command.Result, error) { return p.startSession("s1", "La torre") }); err != nil {
		return err
	}
	for _, s := range []struct {
		title string
		f     func() (command.Result, error)
	}{
		{"demo.skill_rolls", func() (command.Result, error) {
			p.rollsTitle()
			return p.roll(command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "media", Specialization: true, Entropy: entropy})
		}},
		{"", func() (command.Result, error) {
			return p.roll(command.RollRequest{Character: "ruisenor", Skill: "Advertir/Notar", Vs: "dificil", Token: true})
		}},
		{"", func() (command.Result, error) {
			return j.ReturnToken(ctx, campaign, "ruisenor")
		}},
		{"", func() (command.Result, error) {
			return p.roll(command.RollRequest{Character: "lodin", Attribute: "F", Vs: "25"})
		}},
		{"demo.contest", func() (command.Result, error) {
			return p.contest(command.ContestRequest{A: "lodin", SkillA: "sigilo", B: "orco", SkillB: "advertir"})
		}},
		{"demo.combat", func() (command.Result, error) {
			return p.startCombat("lodin", "ruisenor", "orco")
		}},
	} {
		if err := d.do(s.title, s.f); err != nil {
			return err
		}
	}
	if err := d.fight(p); err != nil {
		return err
	}
	for _, s := range []struct {
		title string
		f     func() (command.Result, error)
	}{
		{"demo.combat_end", func() (command.Result, error) { return j.EndCombat(ctx, campaign) }},
		{"", func() (command.Result, error) { return p.heal("lodin") }},
		{"", func() (command.Result, error) { return p.heal("ruisenor") }},
		{"demo.xp", func() (command.Result, error) { return j.GrantXP(ctx, campaign, "lodin", 7) }},
		{"", func() (command.Result, error) { return j.GrantXP(ctx, campaign, "ruisenor", 7) }},
		{"", func() (command.Result, error) { return j.RaiseSkill(ctx, campaign, "lodin", "sigilo") }},
		{p.title("demo.session_end"), func() (command.Result, error) { return p.endSession() }},
		{"demo.rest", func() (command.Result, error) { return j.Rest(ctx, campaign, false) }},
	} {
		if err := d.do(s.title, s.f); err != nil {
			return err
		}
	}
	return d.end(p.title("demo.verification"))
}

// fight fights in initiative order until the orc is down (bounded).
func (d step) fight(p play) error {
	for range 25 {
		c, err := d.j.Load(d.ctx, d.campaign, 0)
		if err != nil {
			return err
		}
		if !canFight(c, "orco") || (!canFight(c, "lodin") && !canFight(c, "ruisenor")) {
			return nil
		}
		d.heading(d.o.Lang.T("demo.round", c.Combat.Round))
		for _, id := range c.Combat.Order {
			c, err := d.j.Load(d.ctx, d.campaign, 0)
			if err != nil {
				return err
			}
			if !canFight(c, id) || !canFight(c, "orco") {
				continue
			}
			req := command.AttackRequest{Attacker: id, Target: "orco"}
			switch id {
			case "orco":
				req.Target = "lodin"
				if !canFight(c, "lodin") {
					req.Target = "ruisenor"
				}
			case "ruisenor":
				req.Range = "corta"
			}
			err = d.do("", func() (command.Result, error) { return p.attack(req) })
			if err != nil && errors.Is(err, command.ErrInvalid) && id == "ruisenor" {
				err = d.do("", func() (command.Result, error) { return d.j.Reload(d.ctx, d.campaign, id, "") })
			}
			if err != nil {
				return err
			}
		}
		if err := d.do("", func() (command.Result, error) { return d.j.NextRound(d.ctx, d.campaign) }); err != nil {
			return err
		}
	}
	return nil
}

func canFight(c *projections.Campaign, id string) bool {
	s := c.Characters[id]
	return s != nil && (s.Status == "ok" || s.Status == "incapacitated")
}

// end prints the final sheets and the verification of the campaign's
// sessions (a JSON document of both with JSON); a mismatch ends the demo
// with Failed.
func (d step) end(verification string) error {
	c, err := d.j.Load(d.ctx, d.campaign, 0)
	if err != nil {
		return err
	}
	rep, err := d.o.Host.Verify(d.ctx, d.campaign)
	if err != nil {
		return err
	}
	if d.o.JSON {
		err = d.o.Host.Emit(map[string]any{"campaign": c, "verification": rep})
	} else {
		d.heading(d.o.Lang.T("demo.final_sheets"))
		d.o.Host.Sheets(d.o.Out, c)
		d.heading(d.o.Lang.T(i18n.Key(verification)))
		err = rep.WriteTextIn(d.o.Out, d.o.Lang)
	}
	if err != nil {
		return err
	}
	if !rep.OK() {
		return Failed{Mismatches: rep.Totals.Mismatches}
	}
	return nil
}
