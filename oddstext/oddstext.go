// Package oddstext writes the text of 'journal odds': the exact odds of a
// roll (package rules/odds) as a table of named probabilities, in the
// output's language, with a chart of the distribution.
//
// Invariants:
//   - Every label is the catalogue's (i18n), in the language given; the
//     numbers are rules/odds's, unchanged (percentages by textout.Percent,
//     the exact fraction beside them).
//   - A RyF chart leaves out the totals under 0.05% (the long tail of
//     explosions) and marks with ▶ the totals that reach the difficulty.
package oddstext

import (
	"fmt"
	"io"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/textout"
)

// kindName names a RyF roll's kind in l.
func kindName(l i18n.Lang, k odds.Kind) string { return l.T(i18n.Key("odds.kind." + k.String())) }

// row is a named probability.
type row struct {
	name string
	p    odds.Prob
}

// rows prints the named probabilities as a table.
func rows(w io.Writer, rs []row) {
	t := textout.NewTable("  ").AlignRight(1)
	for _, r := range rs {
		t.Add(r.name, textout.Percent(r.p.P), r.p.Exact)
	}
	t.Write(w)
}

// RyF writes the odds of a 1o3d10 roll against difficulty diff, with the
// distribution of the total as a chart when chart is set.
func RyF(w io.Writer, l i18n.Lang, o odds.RyFOdds, diff int, chart bool) {
	q := o.Query
	fmt.Fprintln(w, l.T("odds.ryf_head", kindName(l, q.Kind), q.Base, l.T(i18n.Key("level."+q.Level.String())), diff, ryf.DifficultyName(diff)))
	rows(w, []row{
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
	var bars []textout.Bar
	for _, t := range o.Totals {
		if t.P < 0.0005 {
			continue // the long tail of explosions
		}
		mark := " "
		if t.Total >= diff {
			mark = "▶"
		}
		bars = append(bars, textout.Bar{Label: fmt.Sprintf("%s%3d", mark, t.Total), Value: t.P, Note: textout.Percent(t.P)})
	}
	textout.Histogram(w, bars, 40)
}

// TOR writes the odds of a One Ring roll, with the qualities of success
// as a chart.
func TOR(w io.Writer, l i18n.Lang, o odds.TOROdds) {
	q := o.Query
	fmt.Fprintln(w, l.N("odds.tor_head", q.Dice, q.TN))
	rs := []row{
		{l.T("tor.success"), o.Success},
		{"  " + l.T("odds.ordinary"), o.Quality.Ordinary},
		{"  " + l.T("odds.great_six"), o.Quality.Great},
		{"  " + l.T("odds.extra_six"), o.Quality.Extraordinary},
		{l.T("odds.rune"), o.Rune},
		{l.T("odds.eye"), o.Eye},
	}
	if q.HopeBonus > 0 {
		rs = append(rs, row{l.T("odds.with_hope", q.HopeBonus), o.SuccessWithHope})
	}
	rows(w, rs)
	pct := textout.Percent
	textout.Histogram(w, []textout.Bar{
		{Label: l.T("odds.ordinary"), Value: o.Quality.Ordinary.P, Note: pct(o.Quality.Ordinary.P)},
		{Label: l.T("odds.great"), Value: o.Quality.Great.P, Note: pct(o.Quality.Great.P)},
		{Label: l.T("odds.extraordinary"), Value: o.Quality.Extraordinary.P, Note: pct(o.Quality.Extraordinary.P)},
		{Label: l.T("tor.failure"), Value: 1 - o.Success.P, Note: pct(1 - o.Success.P)},
	}, 30)
}
