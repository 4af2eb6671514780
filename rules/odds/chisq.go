package odds

import (
	"fmt"
	"math"
)

// ChiSquareResult is Pearson's chi-square goodness-of-fit test of observed
// counts against expected probabilities.
type ChiSquareResult struct {
	// Stat is Σ (observed − expected)² / expected over the cells.
	Stat float64 `json:"stat"`
	// DF is the number of cells with expected probability > 0, minus 1.
	DF int `json:"df"`
	// PValue is P(χ²(DF) ≥ Stat): small values mean the counts are unlikely
	// under the expected distribution.
	PValue float64 `json:"p_value"`
	// N is the number of observations.
	N int `json:"n"`
	// MinExpected is the smallest expected count among the cells with
	// probability > 0; the chi-square approximation wants it ≥ 5.
	MinExpected float64 `json:"min_expected"`
}

// expectedSumTolerance bounds |Σ expected − 1|.
const expectedSumTolerance = 1e-9

// ChiSquare tests observed counts (observed[i] for cell i) against expected
// probabilities (expected[i], summing to 1 within 1e-9; they are normalized).
// A cell of probability 0 with observations makes Stat +Inf and PValue 0; one
// without observations is left out of DF.
func ChiSquare(observed []int, expected []float64) (ChiSquareResult, error) {
	if len(observed) != len(expected) {
		return ChiSquareResult{}, fmt.Errorf("%w: %d observed cells, %d expected", ErrInvalid, len(observed), len(expected))
	}
	var n int
	var sum float64
	cells := 0
	for i, p := range expected {
		if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
			return ChiSquareResult{}, fmt.Errorf("%w: expected[%d] = %v", ErrInvalid, i, p)
		}
		if observed[i] < 0 {
			return ChiSquareResult{}, fmt.Errorf("%w: observed[%d] = %d", ErrInvalid, i, observed[i])
		}
		if n > math.MaxInt-observed[i] {
			return ChiSquareResult{}, fmt.Errorf("%w: observed counts overflow", ErrInvalid)
		}
		n += observed[i]
		sum += p
		if p > 0 {
			cells++
		}
	}
	if math.Abs(sum-1) > expectedSumTolerance {
		return ChiSquareResult{}, fmt.Errorf("%w: expected probabilities sum to %v, want 1", ErrInvalid, sum)
	}
	if cells < 2 {
		return ChiSquareResult{}, fmt.Errorf("%w: %d cells of positive probability (want at least 2)", ErrInvalid, cells)
	}
	if n == 0 {
		return ChiSquareResult{}, fmt.Errorf("%w: no observations", ErrInvalid)
	}
	r := ChiSquareResult{DF: cells - 1, N: n, MinExpected: math.Inf(1)}
	for i, p := range expected {
		o := float64(observed[i])
		if p == 0 {
			if observed[i] > 0 {
				r.Stat = math.Inf(1)
			}
			continue
		}
		e := float64(n) * p / sum
		r.MinExpected = min(r.MinExpected, e)
		r.Stat += (o - e) * (o - e) / e
	}
	p, err := ChiSquarePValue(r.Stat, r.DF)
	if err != nil {
		return ChiSquareResult{}, err
	}
	r.PValue = p
	return r, nil
}

// ChiSquarePValue returns P(χ²(df) ≥ stat), the upper tail of the
// chi-square distribution: GammaQ(df/2, stat/2). stat ≥ 0 (+Inf gives 0),
// df ≥ 1.
func ChiSquarePValue(stat float64, df int) (float64, error) {
	if df < 1 {
		return 0, fmt.Errorf("%w: %d degrees of freedom (want ≥ 1)", ErrInvalid, df)
	}
	if math.IsNaN(stat) || stat < 0 {
		return 0, fmt.Errorf("%w: chi-square statistic %v", ErrInvalid, stat)
	}
	return GammaQ(float64(df)/2, stat/2)
}

// Accuracy parameters of GammaQ.
const (
	gammaEps     = 4e-16
	gammaTiny    = 1e-300
	gammaMaxIter = 1_000_000
)

// GammaQ returns the regularized upper incomplete gamma function
// Q(a, x) = Γ(a, x)/Γ(a) for a > 0, x ≥ 0 (x = +Inf gives 0). Against the
// closed forms for df ≤ 1000 its absolute error is below 1e-13 and its
// relative error below 1e-12 (it grows like 1e-16·(x + a·ln x)).
// It sums the series of P(a, x) = 1 − Q when x < a+1 and evaluates the
// continued fraction of Q (modified Lentz) otherwise.
func GammaQ(a, x float64) (float64, error) {
	if math.IsNaN(a) || math.IsInf(a, 0) || a <= 0 {
		return 0, fmt.Errorf("%w: gamma shape %v (want > 0)", ErrInvalid, a)
	}
	if math.IsNaN(x) || x < 0 {
		return 0, fmt.Errorf("%w: gamma argument %v (want ≥ 0)", ErrInvalid, x)
	}
	switch {
	case x == 0:
		return 1, nil
	case math.IsInf(x, 1):
		return 0, nil
	case x < a+1:
		p, err := gammaPSeries(a, x)
		return 1 - p, err
	default:
		return gammaQFraction(a, x)
	}
}

// gammaPrefactor returns x^a·e^(−x)/Γ(a).
func gammaPrefactor(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	return math.Exp(a*math.Log(x) - x - lg)
}

// gammaPSeries: P(a, x) = x^a e^(−x)/Γ(a) · Σ_{n≥0} x^n / (a(a+1)…(a+n)).
func gammaPSeries(a, x float64) (float64, error) {
	ap, del := a, 1/a
	sum := del
	for range gammaMaxIter {
		ap++
		del *= x / ap
		sum += del
		if math.Abs(del) < math.Abs(sum)*gammaEps {
			return min(sum*gammaPrefactor(a, x), 1), nil
		}
	}
	return 0, fmt.Errorf("%w: gamma series did not converge for a=%v x=%v", ErrInvalid, a, x)
}

// gammaQFraction: Q(a, x) = x^a e^(−x)/Γ(a) · 1/(x+1−a− 1·(1−a)/(x+3−a− 2·(2−a)/(x+5−a− …))).
func gammaQFraction(a, x float64) (float64, error) {
	b := x + 1 - a
	c := 1 / gammaTiny
	d := 1 / b
	h := d
	for i := 1; i <= gammaMaxIter; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < gammaTiny {
			d = gammaTiny
		}
		c = b + an/c
		if math.Abs(c) < gammaTiny {
			c = gammaTiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < gammaEps {
			return max(0, min(h*gammaPrefactor(a, x), 1)), nil
		}
	}
	return 0, fmt.Errorf("%w: gamma continued fraction did not converge for a=%v x=%v", ErrInvalid, a, x)
}

// Uniform returns the expected face distribution of a fair die with the
// given sides (2..256, the dice the journal can draw): probs[f-1] = 1/sides.
// The TOR feat die is Uniform(12), its success dice Uniform(6).
func Uniform(sides int) ([]float64, error) {
	if sides < 2 || sides > 256 {
		return nil, fmt.Errorf("%w: d%d (want 2..256 sides)", ErrInvalid, sides)
	}
	p := make([]float64, sides)
	for i := range p {
		p[i] = 1 / float64(sides)
	}
	return p, nil
}
