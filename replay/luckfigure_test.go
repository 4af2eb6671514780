package replay_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// TestLuckFigureExact: one roll's luck figure is its kept die's mid-rank
// in the exact kept distribution of its level; two rolls', the mid-rank of
// the sum in the convolution, computed here by hand.
func TestLuckFigureExact(t *testing.T) {
	mid, err := odds.KeptProbs(odds.Mid)
	require.NoError(t, err)
	high, err := odds.KeptProbs(odds.High)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		kept  []int // first kept die of each roll
		level []string
		want  float64
	}{
		{"a 1 at mid", []int{1}, []string{"mid"}, 100 * mid[0] / 2},
		{"a 10 at mid", []int{10}, []string{"mid"}, 100 * (1 - mid[9]/2)},
		{"a 5 at high", []int{5}, []string{"high"}, 100 * (sum(high[:4]) + high[4]/2)},
		{"5 at mid and 7 at high", []int{5, 7}, []string{"mid", "high"}, func() float64 {
			below, at := 0.0, 0.0
			for a := 1; a <= 10; a++ {
				for b := 1; b <= 10; b++ {
					p := mid[a-1] * high[b-1]
					if a+b < 12 {
						below += p
					} else if a+b == 12 {
						at += p
					}
				}
			}
			return 100 * (below + at/2)
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "mordor", "ryf", 40)
			s := w.start("s1", seedOf(40))
			for i, k := range tc.kept {
				ev := editRoll(t, s.skill("lodin", "Sigilo", ryf.Media), func(rm *events.RollMade) {
					rm.Level, rm.Kept = tc.level[i], []int{k}
				})
				w.evs = replace(w.evs, ev)
			}
			c, ok := character(luck(t, w.evs, replay.LuckFilter{}), "lodin")
			require.True(t, ok)
			require.NotNil(t, c.Luck)
			require.True(t, c.Luck.Exact)
			require.Equal(t, len(tc.kept), c.Luck.Dice)
			require.InDelta(t, tc.want, c.Luck.Percentile, 1e-9)
		})
	}
}

func sum(p []float64) float64 {
	s := 0.0
	for _, x := range p {
		s += x
	}
	return s
}

// TestLuckFigureOrdersLuck: all tens are very lucky, all ones very unlucky,
// honest dice in between; past the exact bound the normal approximation
// keeps the order; a voided roll does not count.
func TestLuckFigureOrdersLuck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		face   int // 0: honest
		lo, hi float64
		exact  bool
	}{
		{"ten tens", 10, 10, 99, 100, true},
		{"ten ones", 10, 1, 0, 1, true},
		{"honest", 40, 0, 0.01, 99.99, true},
		{"700 tens", 700, 10, 99.999, 100, false},
		{"700 fives", 700, 5, 0, 0.001, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "mordor", "ryf", 41)
			s := w.start("s1", seedOf(41))
			var voided events.Event
			for i := range tc.n + 1 {
				ev := s.skill("mara", "Medicina", ryf.Media)
				if tc.face != 0 {
					ev = editRoll(t, ev, func(rm *events.RollMade) { rm.Kept = []int{tc.face} })
				}
				if i == 0 {
					ev = editRoll(t, ev, func(rm *events.RollMade) { rm.Kept = []int{11 - max(tc.face, 1)} })
					voided = ev
				}
				w.evs = replace(w.evs, ev)
			}
			s.void(voided.ID, "mal")
			c, _ := character(luck(t, w.evs, replay.LuckFilter{}), "mara")
			require.NotNil(t, c.Luck)
			require.Equal(t, tc.n, c.Luck.Dice, "the voided roll is left out")
			require.Equal(t, tc.exact, c.Luck.Exact)
			require.GreaterOrEqual(t, c.Luck.Percentile, tc.lo)
			require.LessOrEqual(t, c.Luck.Percentile, tc.hi)
			require.False(t, math.IsNaN(c.Luck.Percentile))
		})
	}
}

// TestLuckTOR: One Ring feat dice are flagged, their faces 11 and 12 are
// the Eye and the rune in the chart, the characters' table has The One
// Ring's columns, and the feat die counts the Eye as 0 and the rune as 11.
func TestLuckTOR(t *testing.T) {
	w := newWorld(t, "erebor", "tor", 42)
	s := w.start("s1", seedOf(42))
	for range 61 {
		s.torRoll("frodo", 2, 14, "")
	}
	r := luck(t, w.evs, replay.LuckFilter{})
	d12 := distribution(t, r, "d12")
	require.True(t, d12.Feat)
	require.True(t, d12.Charted())
	for _, tc := range []struct {
		lang                 i18n.Lang
		eye, rune, eyes, col string
		absent               string
	}{
		{i18n.EN, "  Eye ", "  rune ", "Eyes", "luck", "fumble"},
		{i18n.ES, "  Ojo ", " Runa ", "Ojos", "suerte", "pifias"},
	} {
		var b bytes.Buffer
		require.NoError(t, r.WriteTextIn(&b, tc.lang))
		text := b.String()
		for _, want := range []string{tc.eye, tc.rune, tc.eyes, tc.col, "#", "|"} {
			require.Contains(t, text, want, "%s:\n%s", tc.lang, text)
		}
		require.NotContains(t, text, tc.absent)
		require.NotContains(t, text, "  11 ", "face 11 is named")
	}

	// The Eye counts 0 and the rune 11: one roll each.
	for _, tc := range []struct {
		feat int
		want int
	}{{tor.EyeFace, 0}, {tor.RuneFace, 11}, {7, 7}} {
		w := newWorld(t, "erebor", "tor", 43)
		s := w.start("s1", seedOf(43))
		ev := editRoll(t, s.torRoll("bilbo", 0, 14, ""), func(rm *events.RollMade) { rm.Faces = []int{tc.feat} })
		c, _ := character(luck(t, replace(w.evs, ev), replay.LuckFilter{}), "bilbo")
		require.NotNil(t, c.Luck)
		require.Equal(t, tc.want, c.Luck.Sum)
		require.InDelta(t, 100*(float64(tc.want)+0.5)/12, c.Luck.Percentile, 1e-9)
		require.Equal(t, "tor", c.System)
	}
}

// TestLuckTextChartsAndLegend: a distribution with fewer than 5 dice per
// face draws no chart and says why; a legend explains '#' and '|' once a
// chart is drawn.
func TestLuckTextChartsAndLegend(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rolls   int
		legend  bool
		tooFewS string
	}{
		{"one roll", 1, false, "no chart below 50 dice (5 per face): with 3 the bars would be noise"},
		{"many rolls", 40, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "mordor", "ryf", 44)
			s := w.start("s1", seedOf(44))
			for range tc.rolls {
				s.skill("lodin", "Sigilo", ryf.Media)
			}
			var b bytes.Buffer
			require.NoError(t, luck(t, w.evs, replay.LuckFilter{}).WriteText(&b))
			text := b.String()
			require.Equal(t, tc.legend, strings.Contains(text, "legend: # observed, | expected"), text)
			if tc.tooFewS != "" {
				require.Contains(t, text, tc.tooFewS)
				require.NotContains(t, text, "#")
			} else {
				require.Contains(t, text, "d10: n=120")
				require.Contains(t, text, "#")
			}
		})
	}
}
