package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/tor"
)

func (a *app) characterCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "character", Short: "Create and show characters"}
	var req command.CreateCharacter
	var weapons string
	create := &cobra.Command{
		Use:   "create ID --player NAME --attrs F=8,R=7,D=9,I=8,P=8 --skills \"Pelea=5,Sigilo=3\" --spec Sigilo [--npc]",
		Short: "Create a character (every rule it breaks is reported at once)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			req.ID = args[0]
			if weapons != "" {
				req.Weapons = strings.Split(weapons, ",")
			}
			return a.runSpec(c, "character-create", req)
		},
	}
	f := create.Flags()
	f.StringVar(&req.Name, "name", "", "display name (default: the id)")
	f.StringVar(&req.Player, "player", "", "the player's name")
	f.BoolVar(&req.NPC, "npc", false, "a non-player character: ranges only, no budgets, no token")
	f.StringVar(&req.Occupation, "occupation", "", "occupation (free text)")
	f.StringVar(&req.Attributes, "attrs", "", "attributes, e.g. F=8,R=7,D=9,I=8,P=8")
	f.StringVar(&req.Skills, "skills", "", "skills, e.g. \"Pelea=5,Sigilo=3\"")
	f.StringVar(&req.Specialization, "spec", "", "the specialization skill")
	f.StringVar(&weapons, "weapons", "", "weapons carried, first one wielded, e.g. Espada,Revólver")
	f.IntVar(&req.MaxHope, "hope", 0, "The One Ring: maximum Hope")
	f.StringVar(&req.Culture, "culture", "", "The One Ring: culture (a hobbit adds to the fellowship pool)")
	f.StringSliceVar(&req.Traits, "traits", nil, "The One Ring: traits (specialities and distinctive features), comma-separated")
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
	cmd.AddCommand(create, show, list)
	return cmd
}

func (a *app) sessionCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "session", Short: "Start and end sessions (the seed is committed at start, revealed at end)"}
	var title, diceFlag string
	start := &cobra.Command{
		Use:   "start [ID] [--title T]",
		Short: "Start a session: draw its secret seed and record its commitment",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			if err := a.runSpec(c, "session-start", body{"id": id, "title": title, "dice": diceFlag}); err != nil {
				return err
			}
			algorithm := startedAlgorithm(a.recorded)
			if algorithm != dice.AlgorithmV2 {
				if diceFlag == "" && algorithm != "" {
					// The default chose v1: say which and why, in one line.
					fmt.Fprintln(a.stderr, a.language().T("v2d.default_v1", algorithm, dice.AlgorithmV2))
				}
				return nil
			}
			return a.afterV2Start(c)
		},
	}
	start.Flags().StringVar(&title, "title", "", "the session's title")
	start.Flags().StringVar(&diceFlag, "dice", "", "v1 or v2 (journal-dice-v2); default: v2 when the campaign has a registered device key, else v1 (refused once it has one)")
	end := &cobra.Command{
		Use:   "end",
		Short: "End the session in progress and reveal its seed",
		Args:  cobra.NoArgs,
		Long: `End the session in progress and reveal its seed. In a journal-dice-v2
session the CLI then co-signs the end with your device key (when the
campaign holds it), and says so; the other participants co-sign it from
their devices with 'journal session cosign'.`,
		RunE: func(c *cobra.Command, _ []string) error {
			v2, err := a.inV2Session(c)
			if err != nil {
				return err
			}
			if err := a.runSpec(c, "session-end", body{}); err != nil || !v2 {
				return err
			}
			return a.afterV2End(c)
		},
	}
	cmd.AddCommand(start, end, a.sessionListCommand(), a.contributeCommand(), a.cosignCommand())
	return cmd
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

func (a *app) contestCommand() *cobra.Command {
	var req command.ContestRequest
	var keyName string
	cmd := &cobra.Command{
		Use:   "contest A SKILL_A B SKILL_B [--with-attr-a X] [--mod-a N] [--token-a] [--spec-a] [--entropy-a S] [... -b] [--rematch ID]",
		Short: "An opposed roll: the higher total wins (a SKILL may be an attribute)",
		Long: `An opposed roll between characters A and B. SKILL_A and SKILL_B are each a
skill or an attribute: an attribute's letter or name always means the
attribute (D is Destreza, not Diagnosis), a skill may be a unique prefix.
Both sides explode and have a natural 1, skill or attribute (docs/rules.md 1.5).

Each side may use what any roll may: the flags ending in -a are the first
side's, those ending in -b the second's. A tie may be re-rolled with
--rematch naming the tied contest, by the same characters with the same
skills or attributes.`,
		Example: `  journal -c mordor contest lodin Sigilo orco Advertir --mod-b 2
  journal -c mordor contest lodin F orco F
  journal -c mordor contest lodin Pelea orco Pelea --rematch 01a230d8-6f16-71f1-a668-c1a24eff7dad`,
		Args: cobra.ExactArgs(4),
		RunE: func(c *cobra.Command, args []string) error {
			req.A, req.SkillA, req.B, req.SkillB = args[0], args[1], args[2], args[3]
			if req.Rematch != "" {
				if err := a.resolveShortEvent(c, &req.Rematch); err != nil {
					return err
				}
			}
			return a.v2Path(c, func() error { return a.contestV2(c, keyName, req) }, "contest", req)
		},
	}
	f := cmd.Flags()
	f.StringVar(&keyName, "name", device.DefaultName, "journal-dice-v2: the device key that signs the contest")
	for _, s := range []struct {
		flag        string
		attr        *string
		mod         *int
		token, spec *bool
		entropy     *string
	}{
		{"a", &req.AttrA, &req.ModA, &req.TokenA, &req.SpecA, &req.EntropyA},
		{"b", &req.AttrB, &req.ModB, &req.TokenB, &req.SpecB, &req.EntropyB},
	} {
		side := strings.ToUpper(s.flag)
		f.StringVar(s.attr, "with-attr-"+s.flag, "", "another attribute the GM names for "+side+"'s skill (default: the skill's)")
		aliasFlag(cmd, "attr-"+s.flag, "with-attr-"+s.flag)
		f.IntVar(s.mod, "mod-"+s.flag, 0, "the GM's modifier to "+side+"'s roll")
		f.BoolVar(s.token, "token-"+s.flag, false, side+" spends the token: one level higher")
		f.BoolVar(s.spec, "spec-"+s.flag, false, side+" uses the specialization (once per day)")
		f.StringVar(s.entropy, "entropy-"+s.flag, "", side+"'s player's own entropy")
	}
	f.StringVar(&req.Rematch, "rematch", "", "the tied contest (event id) this one re-rolls")
	return cmd
}

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
	round := &cobra.Command{
		Use:   "round",
		Short: "Start the next round",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runSpec(c, "combat-round", body{})
		},
	}
	end := &cobra.Command{
		Use:   "end",
		Short: "End the combat",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runSpec(c, "combat-end", body{})
		},
	}
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
	cmd.AddCommand(start, round, end, show)
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
	var source string
	damage := &cobra.Command{
		Use:   "damage CHAR N [--source CHAR]",
		Short: "Apply damage by hand",
		Args:  cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			n, err := positive(args[1], "damage")
			if err != nil {
				return err
			}
			return a.runSpec(c, "damage", body{"character": args[0], "amount": n, "source": source})
		},
	}
	damage.Flags().StringVar(&source, "source", "", "who dealt it")
	heal := &cobra.Command{
		Use:   "heal CHAR N",
		Short: "Heal by hand (never past max HP; the dead do not heal)",
		Args:  cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			n, err := positive(args[1], "healing")
			if err != nil {
				return err
			}
			return a.runSpec(c, "heal", body{"character": args[0], "amount": n})
		},
	}
	var comfort bool
	rest := &cobra.Command{
		Use:   "rest [--comfort]",
		Short: "A night's sleep: everyone heals 1 HP (2 in comfort); a new day",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runSpec(c, "rest", body{"comfort": comfort})
		},
	}
	rest.Flags().BoolVar(&comfort, "comfort", false, "full comfort: 2 HP")
	var entropy, healKey string
	after := &cobra.Command{
		Use:   "heal-after-combat CHAR",
		Short: "Roll 1d6 healing after the last combat (at most the damage taken in it, once)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.v2Path(c, func() error { return a.healV2(c, healKey, args[0], entropy) }, "heal-after-combat",
				body{"character": args[0], "entropy": entropy})
		},
	}
	after.Flags().StringVar(&entropy, "entropy", "", "the player's own entropy")
	after.Flags().StringVar(&healKey, "name", device.DefaultName, "journal-dice-v2: the device key that signs the healing")
	positiveArg(damage, "damage") // negative damage never is: 'journal heal' heals
	positiveArg(heal, "healing")
	return []*cobra.Command{damage, heal, rest, after}
}

func (a *app) progressCommands() []*cobra.Command {
	xp := &cobra.Command{Use: "xp", Short: "Experience"}
	grant := &cobra.Command{
		Use:   "grant CHAR N",
		Short: "Grant 1..10 XP (once per character per session)",
		Args:  cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			n, err := positive(args[1], "XP")
			if err != nil {
				return err
			}
			return a.runSpec(c, "xp", body{"character": args[0], "amount": n})
		},
	}
	xp.AddCommand(positiveArg(grant, "XP"))
	token := &cobra.Command{Use: "token", Short: "The token"}
	ret := &cobra.Command{
		Use:   "return CHAR",
		Short: "The GM gives the token back: the character's next roll is one level lower",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.runSpec(c, "token-return", body{"character": args[0]})
		},
	}
	token.AddCommand(ret)
	day := &cobra.Command{Use: "day", Short: "In-game days"}
	newDay := &cobra.Command{
		Use:   "new",
		Short: "Start a new in-game day: specializations may be used again",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runSpec(c, "day-new", body{})
		},
	}
	day.AddCommand(newDay)
	reload := &cobra.Command{
		Use:   "reload CHAR [WEAPON]",
		Short: "Reload a magazine weapon",
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			weapon := ""
			if len(args) == 2 {
				weapon = args[1]
			}
			return a.runSpec(c, "reload", body{"character": args[0], "weapon": weapon})
		},
	}
	return []*cobra.Command{xp, token, day, reload}
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
