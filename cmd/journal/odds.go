package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/oddstext"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
)

func (a *app) oddsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "odds ryf|galaxia|tor",
		Short: "Exact probability of a roll",
	}
	var base, mod, dice, tn, hope int
	var vs, level, kind string
	var hist bool
	ryfCmd := &cobra.Command{
		Use:     "ryf",
		Aliases: []string{"galaxia"},
		Short:   "Odds of a 1o3d10 roll (RyF and Galaxia)",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("base") {
				return usagef("odds ryf: --base is required: attribute + skill (2..20), or 2 × attribute with --kind attribute (4..20)")
			}
			diff, err := ryf.ParseDifficulty(vs)
			if err != nil {
				return msgerr.Errorf("--vs: %w", err)
			}
			lv, err := odds.ParseLevel(level)
			if err != nil {
				return msgerr.Errorf("--level: %w", err)
			}
			k, err := odds.ParseKind(kind)
			if err != nil {
				return msgerr.Errorf("--kind: %w", err)
			}
			if err := checkBase(base, mod, k); err != nil {
				return err
			}
			o, err := odds.RyF(odds.RyFQuery{Base: base + mod, Level: lv, Difficulty: diff, Kind: k})
			if err != nil {
				return err
			}
			return a.emit(o, func(w io.Writer) { oddstext.RyF(w, a.language(), o, diff, hist) })
		},
	}
	ryfCmd.Flags().IntVar(&base, "base", 0, "attribute + skill, 2..20 (2 × attribute for an attribute roll, 4..20); required")
	ryfCmd.Flags().IntVar(&mod, "mod", 0, "modifiers added to the base (GM's modifier, precision, range), -100..100")
	ryfCmd.Flags().StringVar(&vs, "vs", "media", "difficulty: fácil, media, difícil, insólito, imposible or a number")
	ryfCmd.Flags().StringVar(&level, "level", "mid", "kept die: low, mid or high")
	ryfCmd.Flags().StringVar(&kind, "kind", "skill", "skill, attribute, opposed or combat")
	ryfCmd.Flags().BoolVar(&hist, "chart", true, "show the distribution of the total as a chart")

	torCmd := &cobra.Command{
		Use:   "tor",
		Short: "Odds of a One Ring roll (feat die and success dice)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o, err := odds.TOR(odds.TORQuery{Dice: dice, TN: tn, HopeBonus: hope})
			if err != nil {
				return err
			}
			return a.emit(o, func(w io.Writer) { oddstext.TOR(w, a.language(), o) })
		},
	}
	torCmd.Flags().IntVar(&dice, "dice", 0, "success dice (the skill's rank, 0..10)")
	torCmd.Flags().IntVar(&tn, "tn", 14, "target number")
	torCmd.Flags().IntVar(&hope, "hope", 0, "bonus of spending Hope after a failure (the attribute's basic or favoured value)")
	cmd.AddCommand(ryfCmd, torCmd)
	return cmd
}

// checkBase refuses a base no character can have (docs/rules.md 1.1, 1.2):
// attribute 2..10 plus skill 0..10, or twice an attribute; and a modifier
// beyond the rules' bound.
func checkBase(base, mod int, k odds.Kind) error {
	lo, hi, what := 2, 20, "attribute + skill"
	if k == odds.Attribute {
		lo, what = 4, "2 × attribute"
	}
	if base < lo || base > hi {
		return usagef("--base %d: %s is %d..%d (attributes 2..10, skills 0..10); put modifiers in --mod", base, what, lo, hi)
	}
	if mod < -ryf.MaxModifier || mod > ryf.MaxModifier {
		return usagef("--mod %d: want %d..%d", mod, -ryf.MaxModifier, ryf.MaxModifier)
	}
	return nil
}
