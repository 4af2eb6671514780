package main

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/tor"
)

func (a *app) characterCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "character", Short: "Create and show characters"}
	var atText string
	show := &cobra.Command{
		Use:   "show CHAR [--at SEQ|TIME]",
		Short: "Show a character sheet, now or as of a stream sequence or a time",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			at, err := a.resolveAt(c.Context(), atText)
			if err != nil {
				return err
			}
			camp, err := a.load(c, at)
			if err != nil {
				return err
			}
			if camp.System == events.SystemTOR {
				return a.showTOR(camp, args[0], at)
			}
			sheet := camp.Characters[args[0]]
			if sheet == nil {
				return noCharacter(camp, args[0], at)
			}
			return a.emit(sheet, func(w iw) { printSheet(w, a.language(), camp, sheet) })
		},
	}
	show.Flags().StringVar(&atText, "at", "", "show the sheet as of this stream sequence, or this time (RFC 3339 or \"YYYY-MM-DD HH:MM\")")
	list := &cobra.Command{
		Use:   "list",
		Short: "List the campaign's characters",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			var list any = camp.Characters
			if camp.TOR != nil {
				list = camp.TOR.Characters
			}
			return a.emit(list, func(w iw) { printRoster(w, a.language(), camp) })
		},
	}
	cmd.AddCommand(a.specCommand("character-create"), show, list)
	return cmd
}

func (a *app) sessionCommand() *cobra.Command {
	return a.specGroup("session", "Start and end sessions (the seed is committed at start, revealed at end)", []string{"session-start", "session-end"},
		a.sessionListCommand(), a.contributeCommand(), a.cosignCommand())
}

func (a *app) rollCommand() *cobra.Command {
	var req command.RollRequest
	var attribute, keyName string
	var tn int
	cmd := &cobra.Command{
		Use:   "roll CHAR [SKILL] [--with-attr X | --attribute X] [--vs DIFFICULTY] [--mod N] [--token] [--spec] [--entropy S]",
		Short: "Roll 1o3d10 for a skill or an attribute from the session's committed dice",
		Long: `Roll 1o3d10 from the session's committed dice (docs/rules.md 1.5).

A skill roll, roll CHAR SKILL, adds the skill's default attribute; the GM may
name another attribute for it with --with-attr X. An attribute roll, roll CHAR
--attribute X, rolls 2 × the attribute and takes no SKILL. The difficulty
(--vs) is fácil 10, media 15, difícil 20, insólito 25, imposible 30 or any
number.`,
		Example: `  journal -c mordor roll lodin Sigilo --vs difícil
  journal -c mordor roll lodin Sigilo --with-attr P --vs 18 --mod 2
  journal -c mordor roll lodin --attribute F --vs media
  journal -c mordor roll lodin Pelea --token --entropy "ana's dice"`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			req.Character = args[0]
			if c.Flags().Changed("tn") {
				req.TN = &tn // given: 0 is refused, not read as the default
			}
			switch {
			case len(args) == 2 && attribute != "":
				return usagef("roll: give a SKILL (a skill roll) or --attribute X (an attribute roll), not both; --with-attr X names another attribute for a skill roll")
			case len(args) == 2:
				req.Skill = args[1]
			case attribute != "":
				req.Attribute = attribute
			default:
				return usagef("roll: name a SKILL, or an attribute with --attribute X")
			}
			if v2, err := a.inV2Session(c); err != nil || v2 {
				if err != nil {
					return err
				}
				if req.Secret {
					return usagef("roll --secret: in a journal-dice-v2 session a secret roll is a free roll ('journal roll free 1d20 --secret')")
				}
				return a.rollV2(c, keyName, req)
			}
			return a.runSpec(c, "roll", req)
		},
	}
	cmd.AddCommand(a.rollV2Commands()...)
	cmd.AddCommand(a.freeRollCommand(), a.revealSecretCommand()) // free.go
	cmd.Annotations = map[string]string{annOwnArgs: "yes"}
	f := cmd.Flags()
	f.StringVar(&keyName, "name", device.DefaultName, "journal-dice-v2: the device key that signs the roll")
	addGMRollFlags(f)
	f.StringVar(&req.Attribute, "with-attr", "", "skill roll: another attribute the GM names (default: the skill's)")
	f.StringVar(&attribute, "attribute", "", "an attribute roll (2 × attribute) instead of a skill roll")
	aliasFlag(cmd, "attr", "with-attr")
	f.StringVar(&req.Vs, "vs", "", "difficulty: fácil, media, difícil, insólito, imposible or a number")
	f.IntVar(&req.Modifier, "mod", 0, "the GM's modifier")
	f.BoolVar(&req.Token, "token", false, "spend the token: one level higher")
	f.BoolVar(&req.Specialization, "spec", false, "use the specialization (once per day): keep the highest die")
	f.StringVar(&req.Entropy, "entropy", "", "the player's own entropy, so not even the GM can know the roll before")
	f.IntVar(&tn, "tn", tor.DefaultTN, "The One Ring: target number")
	f.StringVar(&req.Trait, "trait", "", "The One Ring: a trait invoked before the roll")
	f.StringVar(&req.Call, "call", "", "the GM's roll call this roll answers ('journal call list')")
	f.BoolVar(&req.Secret, "secret", false, "the GM's secret roll: its outcome is recorded when revealed or when the session ends")
	return cmd
}

func (a *app) contestCommand() *cobra.Command { return a.specCommand("contest") }

func (a *app) combatCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "combat", Short: "Start a combat (initiative), next round, end"}
	var req command.CombatStart
	var keyName string
	start := &cobra.Command{
		Use:   "start CHAR... [--token CHAR,...] [--entropy S]",
		Short: "Roll initiative for every participant and start the combat",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			req.Participants = args
			return a.v2Path(c, func() error { return a.combatStartV2(c, keyName, req) }, "combat-start", req)
		},
	}
	start.Flags().StringVar(&keyName, "name", device.DefaultName, "journal-dice-v2: the device key that signs the initiative")
	start.Flags().StringVar(&req.Entropy, "entropy", "", "entropy for the initiative rolls")
	start.Flags().StringSliceVar(&req.Token, "token", nil, "participants who spend their token on initiative (one level higher), comma-separated")
	show := &cobra.Command{
		Use:   "show",
		Short: "Show the combat in progress: order, round, who has attacked, damage taken",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			if camp.Combat == nil {
				return msgerr.Errorf("no combat in progress in campaign %s", camp.ID)
			}
			return a.emit(camp.Combat, func(w iw) { printCombat(w, a.language(), camp) })
		},
	}
	cmd.AddCommand(start, a.specCommand("combat-round"), a.specCommand("combat-end"), show)
	return cmd
}

func (a *app) attackCommand() *cobra.Command {
	var req command.AttackRequest
	var keyName string
	cmd := &cobra.Command{
		Use:   "attack CHAR TARGET [--weapon NAME] [--range corta|media|larga | --distance M] [--cover]",
		Short: "Attack in turn order; a hit rolls damage (doubled on a critical) and applies it",
		Args:  cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			req.Attacker, req.Target = args[0], args[1]
			if v2, err := a.inV2Session(c); err != nil || v2 {
				if err != nil {
					return err
				}
				return a.attackV2(c, keyName, req)
			}
			return a.runSpec(c, "attack", req)
		},
	}
	f := cmd.Flags()
	f.StringVar(&keyName, "name", device.DefaultName, "journal-dice-v2: the device key that signs the attack")
	addGMRollFlags(f)
	f.StringVar(&req.Weapon, "weapon", "", "weapon (default: the character's first weapon, or fists)")
	f.StringVar(&req.Range, "range", "", "range band of a ranged attack: corta, media, larga")
	f.IntVar(&req.Distance, "distance", 0, "distance in metres (instead of --range)")
	f.BoolVar(&req.Cover, "cover", false, "the target is in cover: +5 to the range difficulty")
	f.IntVar(&req.Modifier, "mod", 0, "the GM's modifier")
	f.BoolVar(&req.Token, "token", false, "spend the token: one level higher")
	f.BoolVar(&req.Specialization, "spec", false, "use the specialization (once per day)")
	f.StringVar(&req.Entropy, "entropy", "", "the player's own entropy")
	return cmd
}

func positive(s, what string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, usagef("%s %q is not a whole number", what, clip.Text(s))
	}
	if n < 1 {
		return 0, usagef("%s must be positive, not %d", what, n)
	}
	return n, nil
}

// positiveArg marks c's argument N as positive's, named what (see
// annPositive), and returns c.
func positiveArg(c *cobra.Command, what string) *cobra.Command {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[annPositive] = what
	return c
}

func (a *app) healthCommands() []*cobra.Command {
	return []*cobra.Command{a.specCommand("damage"), a.specCommand("heal"), a.specCommand("rest"), a.specCommand("heal-after-combat")}
}

func (a *app) progressCommands() []*cobra.Command {
	return []*cobra.Command{a.specGroup("xp", "Experience", []string{"xp"}), a.specGroup("token", "The token", []string{"token-return"}),
		a.specGroup("day", "In-game days", []string{"day-new"}), a.specCommand("reload")}
}

// startedAlgorithm is the dice algorithm of the session-started event a
// session start recorded ("" when it recorded none: a repeated request
// reports its events too, so only an error leaves it empty).
func startedAlgorithm(res command.Result) string {
	for _, r := range res.Events {
		var d events.SessionStarted
		if r.Event.Type == events.TypeSessionStarted && r.Event.DecodeData(&d) == nil {
			return d.Algorithm
		}
	}
	return ""
}
