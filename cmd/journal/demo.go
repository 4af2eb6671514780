package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
)

func (a *app) demoCommand() *cobra.Command {
	var system, diceFlag string
	cmd := &cobra.Command{
		Use:   "demo [--system ryf|galaxia|tor] [--dice v2|v1]",
		Short: "A sample session end to end, then its verification",
		Long: `A sample campaign recorded end to end: two player characters and an NPC,
a session with skill rolls, a contest and a short fight to unconsciousness,
healing, XP and a skill raise; the session ends and reveals its seed; then
the transcript, the final sheets and the verification of every roll.

It plays journal-dice-v2 by default: the GM and each player make a device
key (in a temporary configuration folder) and register it, each player's
device contributes to the session key, reveals its own rolls and witnesses
the GM's, and co-signs the session's end. --dice v1 plays the same story
with journal-dice-v1.

It records into --data when given, else into a temporary folder.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("data") && os.Getenv("JOURNAL_DATA") == "" {
				dir, err := os.MkdirTemp("", "journal-demo-")
				if err != nil {
					return err
				}
				a.dataDir = dir
				a.closers = append(a.closers, func() { os.RemoveAll(dir) })
			}
			var v2 bool
			switch diceFlag {
			case command.DiceV1:
			case command.DiceV2:
				v2 = true
			default:
				return usagef("demo --dice %q: want v1 or v2", diceFlag)
			}
			switch system {
			case "ryf", "galaxia":
				return a.demoRyF(c.Context(), system, v2)
			case "tor":
				return a.demoTOR(c.Context(), v2)
			}
			return msgerr.Errorf("demo --system %q: want ryf, galaxia or tor", system)
		},
	}
	cmd.Flags().StringVar(&system, "system", "ryf", "ryf, galaxia or tor")
	cmd.Flags().StringVar(&diceFlag, "dice", command.DiceV2, "v2 (journal-dice-v2, the default) or v1")
	return cmd
}

// demoStep records one step of the demo and prints what it recorded.
type demoStep struct {
	a        *app
	ctx      context.Context
	j        *command.Journal
	campaign string
}

func (d demoStep) do(title string, f func() (command.Result, error)) error {
	if title != "" {
		// title is a key of the catalogue: the heading in the output's language.
		title = d.a.language().T(i18n.Key(title))
	}
	if title != "" && !d.a.jsonOut {
		fmt.Fprintf(d.a.stdout, "\n▸ %s\n", title)
	}
	before, err := d.j.Load(d.ctx, d.campaign, 0)
	if err != nil {
		return err
	}
	res, err := f()
	if err != nil {
		return msgerr.Errorf("demo step %q: %w", title, err)
	}
	if d.a.jsonOut {
		return nil
	}
	for _, line := range describe(d.a.language(), before, res.Events) {
		fmt.Fprintf(d.a.stdout, "  %s\n", line)
	}
	return nil
}

// demoSeeds, when set (by tests), is the source of the demo's session
// seeds, so that its dice, and so its story, are fixed. Nil in the program:
// the demo draws its seeds like every session, from crypto/rand.
var demoSeeds io.Reader

// demoJournal is the journal the demo records with: a.journal's, with the
// seeds of demoSeeds when set.
func (a *app) demoJournal(ctx context.Context) (*command.Journal, error) {
	if demoSeeds == nil {
		return a.journal(ctx)
	}
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	return command.New(st, command.Options{
		Clock: time.Now, Rand: demoSeeds, IDs: events.NewV7(time.Now, rand.Reader), Actor: os.Getenv("JOURNAL_ACTOR"),
	}), nil
}

func (a *app) demoRyF(ctx context.Context, system string, v2 bool) error {
	j, err := a.demoJournal(ctx)
	if err != nil {
		return err
	}
	campaign := "demo-" + system
	a.campaign = campaign
	d := demoStep{a: a, ctx: ctx, j: j, campaign: campaign}
	if !a.jsonOut {
		fmt.Fprintln(a.stdout, a.language().T("demo.head", system, a.dataDir))
	}
	if c, err := j.Load(ctx, campaign, 0); err == nil && c.Events > 0 {
		return msgerr.Errorf("campaign %s already exists in %s: run the demo on a fresh --data folder", campaign, a.dataDir)
	}
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
	p, err := a.newDemoPlay(d, v2, map[string]string{"lodin": "ana", "ruisenor": "bea"}, "ana", "bea")
	if err != nil {
		return err
	}
	entropy := "ana-1"
	if v2 {
		entropy = "" // the device's secret r replaces entropy
	}
	if err := d.do(p.startTitle(a), func() (command.Result, error) { return p.startSession("s1", "La torre") }); err != nil {
		return err
	}
	for _, s := range []struct {
		title string
		f     func() (command.Result, error)
	}{
		{"demo.skill_rolls", func() (command.Result, error) {
			p.rollsTitle(a)
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
	if err := a.demoFight(d, p); err != nil {
		return err
	}
	steps = steps[:0]
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
		{p.title("demo.session_end"), func() (command.Result, error) { return p.endSession(a) }},
		{"demo.rest", func() (command.Result, error) { return j.Rest(ctx, campaign, false) }},
	} {
		if err := d.do(s.title, s.f); err != nil {
			return err
		}
	}
	return a.demoEnd(ctx, j, campaign, p.title("demo.verification"))
}

// demoFight fights in initiative order until the orc is down (bounded).
func (a *app) demoFight(d demoStep, p demoPlay) error {
	for range 25 {
		c, err := d.j.Load(d.ctx, d.campaign, 0)
		if err != nil {
			return err
		}
		if !canFight(c, "orco") || (!canFight(c, "lodin") && !canFight(c, "ruisenor")) {
			return nil
		}
		if !a.jsonOut {
			fmt.Fprintf(a.stdout, "\n▸ %s\n", a.language().T("demo.round", c.Combat.Round))
		}
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

// demoEnd prints the final sheets and the verification of the campaign's
// sessions (a JSON document of both with --json); a mismatch ends the demo
// with exit status 4 (a mismatch).
func (a *app) demoEnd(ctx context.Context, j *command.Journal, campaign, verification string) error {
	c, err := j.Load(ctx, campaign, 0)
	if err != nil {
		return err
	}
	rep, err := a.demoVerify(ctx, campaign)
	if err != nil {
		return err
	}
	if a.jsonOut {
		err = a.emit(map[string]any{"campaign": c, "verification": rep}, nil)
	} else {
		fmt.Fprintf(a.stdout, "\n▸ %s\n", a.language().T("demo.final_sheets"))
		if c.TOR != nil {
			for _, id := range c.TOR.Roster {
				printTORSheet(a.stdout, a.language(), c, c.TOR.Characters[id])
				fmt.Fprintln(a.stdout)
			}
		} else {
			for _, id := range c.Roster {
				printSheet(a.stdout, a.language(), c, c.Characters[id])
				fmt.Fprintln(a.stdout)
			}
		}
		fmt.Fprintf(a.stdout, "\n▸ %s\n", a.language().T(i18n.Key(verification)))
		err = rep.WriteTextIn(a.stdout, a.language())
	}
	if err != nil {
		return err
	}
	if !rep.OK() {
		return exitError{code: 1, msg: i18n.EN.N("err.demo_failed", rep.Totals.Mismatches)}
	}
	return nil
}

// demoVerify verifies the campaign's sessions from the store.
func (a *app) demoVerify(ctx context.Context, campaign string) (replay.Report, error) {
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return replay.Report{}, err
	}
	src, _, err := boundSource(ctx, a.st, filter)
	if err != nil {
		return replay.Report{}, err
	}
	return replay.Verify(ctx, src, replay.Options{Campaign: campaign})
}
