package replay

import (
	"math"

	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/tor"
)

// LuckFigure is one character's luck in one number: where the sum of the
// dice that count in their rolls falls in the exact distribution of that
// sum with fair dice. The dice that count are the kept die of each 1o3d10
// roll (its first round: later rounds follow from a 10) and, in The One
// Ring, the feat die (the Eye counting 0, 1…10, the rune 11) and the success
// dice. Damage and healing dice are left out.
type LuckFigure struct {
	// Dice is the number of dice summed; Sum their sum; Expected its mean
	// with fair dice.
	Dice     int     `json:"dice"`
	Sum      int     `json:"sum"`
	Expected float64 `json:"expected"`
	// Percentile is P(S < Sum) + P(S = Sum)/2 in per cent: the share of
	// tables of fair dice this character was luckier than (50 is par).
	Percentile float64 `json:"percentile"`
	// Exact is false when the distribution was approximated by a normal
	// one (more than maxExactSupport possible sums).
	Exact bool `json:"exact"`
}

// luckDice counts one character's dice that make up its luck figure.
type luckDice struct {
	kept    [3]int // first kept die of RyF rolls, by level low, mid, high
	feat    int    // One Ring feat dice
	success int    // One Ring success dice
	sum     int
}

// maxExactSupport bounds the exact convolution; beyond it the normal
// approximation (with continuity correction) is used, whose error there
// is far below the percent shown.
const maxExactSupport = 6000

func (d *luckDice) addKept(level, face int) {
	d.kept[level]++
	d.sum += face
}

// addTOR counts a One Ring roll's faces: the feat die first.
func (d *luckDice) addTOR(faces []int) {
	d.feat++
	switch f := faces[0]; f {
	case tor.EyeFace:
	case tor.RuneFace:
		d.sum += 11
	default:
		d.sum += f
	}
	for _, f := range faces[1:] {
		d.success++
		d.sum += f
	}
}

// figure computes the luck figure, or nil with no dice.
func (d *luckDice) figure() *LuckFigure {
	type die struct {
		probs []float64 // probs[i] is P(value = lo+i)
		lo, n int
	}
	var dice []die
	for lv, ol := range []odds.Level{odds.Low, odds.Mid, odds.High} {
		if d.kept[lv] > 0 {
			p, err := odds.KeptProbs(ol)
			if err != nil {
				return nil
			}
			dice = append(dice, die{p, 1, d.kept[lv]})
		}
	}
	if d.feat > 0 {
		dice = append(dice, die{uniform(12), 0, d.feat})
	}
	if d.success > 0 {
		dice = append(dice, die{uniform(6), 1, d.success})
	}
	f := &LuckFigure{Sum: d.sum, Exact: true}
	lo, support := 0, 1
	var mean, variance float64
	for _, x := range dice {
		f.Dice += x.n
		lo += x.lo * x.n
		support += (len(x.probs) - 1) * x.n
		m, v := moments(x.probs, x.lo)
		mean += m * float64(x.n)
		variance += v * float64(x.n)
	}
	if f.Dice == 0 {
		return nil
	}
	f.Expected = mean
	if support > maxExactSupport {
		f.Exact = false
		sd := math.Sqrt(variance)
		below := normalCDF((float64(d.sum) - 0.5 - mean) / sd)
		upto := normalCDF((float64(d.sum) + 0.5 - mean) / sd)
		f.Percentile = 100 * (below + upto) / 2
		return f
	}
	dist := []float64{1}
	for _, x := range dice {
		for range x.n {
			dist = convolve(dist, x.probs)
		}
	}
	i := d.sum - lo
	below, at := 0.0, 0.0
	for k, p := range dist {
		switch {
		case k < i:
			below += p
		case k == i:
			at = p
		}
	}
	f.Percentile = 100 * (below + at/2)
	return f
}

func uniform(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}

func moments(p []float64, lo int) (mean, variance float64) {
	for i, q := range p {
		mean += q * float64(lo+i)
	}
	for i, q := range p {
		d := float64(lo+i) - mean
		variance += q * d * d
	}
	return mean, variance
}

func convolve(a, b []float64) []float64 {
	out := make([]float64, len(a)+len(b)-1)
	for i, x := range a {
		if x == 0 {
			continue
		}
		for j, y := range b {
			out[i+j] += x * y
		}
	}
	return out
}

func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
