package main

import (
	"fmt"
	"io"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/spf13/cobra"
)

func (a *app) oddsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "odds ryf|galaxia|tor",
		Short: "Exact probability of a roll",
		Long:  `Exact probability of a roll, as fractions and percentages.`,
		Example: `  journal odds ryf --base 12 --vs 20                 attribute 7 + skill 5, against 20
  journal odds ryf --base 16 --vs difícil --kind attribute --level high
  journal odds tor --dice 3 --tn 14 --hope 4`,
	}
	var base, mod, dice, tn, hope int
	var vs, level, kind string
	var hist bool
	ryfCmd := &cobra.Command{
		Use:     "ryf",
		Aliases: []string{"galaxia"},
		Short:   "Odds of a 1o3d10 roll (RyF and Galaxia)",
		Long: `Odds of a 1o3d10 roll (docs/rules.md 1.5): the total is --base + --mod + the
kept die, against --vs.

--base is attribute + skill for a skill, opposed or combat roll (attributes
2..10, skills 0..10: 2..20), or 2 × attribute for an attribute roll (4..20).
--mod adds the GM's modifiers, a weapon's precision, a range's penalty
(-100..100).`,
		Example: `  journal odds ryf --base 12 --vs 20
  journal odds ryf --base 16 --mod -2 --vs difícil --kind attribute --level high
  journal odds galaxia --base 9 --vs media --chart=false`,
		Args: cobra.NoArgs,
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
			return a.emit(o, func(w io.Writer) { printRyFOdds(w, a.language(), o, diff, hist) })
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
		Example: `  journal odds tor --dice 3 --tn 14
  journal odds tor --dice 2 --tn 16 --hope 3`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o, err := odds.TOR(odds.TORQuery{Dice: dice, TN: tn, HopeBonus: hope})
			if err != nil {
				return err
			}
			return a.emit(o, func(w io.Writer) { printTOROdds(w, a.language(), o) })
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

// oddsKind names a RyF roll's kind in l.
func oddsKind(l i18n.Lang, k odds.Kind) string { return l.T(i18n.Key("odds.kind." + k.String())) }

// oddsRows prints the named probabilities as a table.
func oddsRows(w io.Writer, rows [][2]any) {
	t := newTable("  ").alignRight(1)
	for _, r := range rows {
		p := r[1].(odds.Prob)
		t.add(r[0].(string), percent(p.P), p.Exact)
	}
	t.write(w)
}

func printRyFOdds(w io.Writer, l i18n.Lang, o odds.RyFOdds, diff int, chart bool) {
	q := o.Query
	fmt.Fprintln(w, l.T("odds.ryf_head", oddsKind(l, q.Kind), q.Base, l.T(i18n.Key("level."+q.Level.String())), diff, ryf.DifficultyName(diff)))
	oddsRows(w, [][2]any{
		{l.T("tor.success"), o.Success},
		{l.T("odds.critical"), o.Critical},
		{l.T("tor.failure"), o.Failure},
		{l.T("odds.fumble"), o.Fumble},
		{l.T("odds.natural1"), o.Natural1},
	})
	if !chart {
		return
	}
	fmt.Fprintln(w, l.T("odds.distribution"))
	var rows []bar
	for _, t := range o.Totals {
		if t.P < 0.0005 {
			continue // the long tail of explosions
		}
		mark := " "
		if t.Total >= diff {
			mark = "▶"
		}
		rows = append(rows, bar{label: fmt.Sprintf("%s%3d", mark, t.Total), value: t.P, note: percent(t.P)})
	}
	histogram(w, rows, 40)
}

func printTOROdds(w io.Writer, l i18n.Lang, o odds.TOROdds) {
	q := o.Query
	fmt.Fprintln(w, l.N("odds.tor_head", q.Dice, q.TN))
	rows := [][2]any{
		{l.T("tor.success"), o.Success},
		{"  " + l.T("odds.ordinary"), o.Quality.Ordinary},
		{"  " + l.T("odds.great_six"), o.Quality.Great},
		{"  " + l.T("odds.extra_six"), o.Quality.Extraordinary},
		{l.T("odds.rune"), o.Rune},
		{l.T("odds.eye"), o.Eye},
	}
	if q.HopeBonus > 0 {
		rows = append(rows, [2]any{l.T("odds.with_hope", q.HopeBonus), o.SuccessWithHope})
	}
	oddsRows(w, rows)
	histogram(w, []bar{
		{label: l.T("odds.ordinary"), value: o.Quality.Ordinary.P, note: percent(o.Quality.Ordinary.P)},
		{label: l.T("odds.great"), value: o.Quality.Great.P, note: percent(o.Quality.Great.P)},
		{label: l.T("odds.extraordinary"), value: o.Quality.Extraordinary.P, note: percent(o.Quality.Extraordinary.P)},
		{label: l.T("tor.failure"), value: 1 - o.Success.P, note: percent(1 - o.Success.P)},
	}, 30)
}
