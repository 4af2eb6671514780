package oddstext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/rules/odds"
)

// TestTOR: the head, a row per probability with its exact fraction, the
// Hope row only with a bonus, and the chart, in each language.
func TestTOR(t *testing.T) {
	o, err := odds.TOR(odds.TORQuery{Dice: 1, TN: 14, HopeBonus: 2})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	TOR(&b, i18n.EN, o)
	out := b.String()
	for _, want := range []string{"1 success die against", o.Success.Exact, "██████████████████████████████ 83.33%", i18n.EN.T("odds.with_hope", 2)} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	b.Reset()
	TOR(&b, i18n.ES, o)
	if !strings.Contains(b.String(), "1 dado de éxito contra") {
		t.Errorf("Spanish:\n%s", b.String())
	}
}

// TestRyFChart: the chart marks the totals that reach the difficulty, and
// is left out without chart.
func TestRyFChart(t *testing.T) {
	o, err := odds.RyF(odds.RyFQuery{Base: 12, Level: odds.Mid, Difficulty: 20, Kind: odds.Skill})
	if err != nil {
		t.Fatal(err)
	}
	var with, without bytes.Buffer
	RyF(&with, i18n.EN, o, 20, true)
	RyF(&without, i18n.EN, o, 20, false)
	if !strings.Contains(with.String(), "▶ 20") || strings.Contains(with.String(), "▶ 19") {
		t.Errorf("chart:\n%s", with.String())
	}
	if !strings.HasPrefix(with.String(), without.String()) || strings.Contains(without.String(), "▶") {
		t.Errorf("without the chart:\n%s", without.String())
	}
}
