package odds

import (
	"math"

	"github.com/campaign-journal/journal/internal/msgerr"
	"gonum.org/v1/gonum/mathext"
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
		return ChiSquareResult{}, msgerr.Errorf("%w: %d observed cells, %d expected", ErrInvalid, len(observed), len(expected))
	}
	var n int
	var sum float64
	cells := 0
	for i, p := range expected {
		if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
			return ChiSquareResult{}, msgerr.Errorf("%w: expected[%d] = %v", ErrInvalid, i, p)
		}
		if observed[i] < 0 {
			return ChiSquareResult{}, msgerr.Errorf("%w: observed[%d] = %d", ErrInvalid, i, observed[i])
		}
		if n > math.MaxInt-observed[i] {
			return ChiSquareResult{}, msgerr.Errorf("%w: observed counts overflow", ErrInvalid)
		}
		n += observed[i]
		sum += p
		if p > 0 {
			cells++
		}
	}
	if math.Abs(sum-1) > expectedSumTolerance {
		return ChiSquareResult{}, msgerr.Errorf("%w: expected probabilities sum to %v, want 1", ErrInvalid, sum)
	}
	if cells < 2 {
		return ChiSquareResult{}, msgerr.Errorf("%w: %d cells of positive probability (want at least 2)", ErrInvalid, cells)
	}
	if n == 0 {
		return ChiSquareResult{}, msgerr.Errorf("%w: no observations", ErrInvalid)
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
		return 0, msgerr.Errorf("%w: %d degrees of freedom (want ≥ 1)", ErrInvalid, df)
	}
	if math.IsNaN(stat) || stat < 0 {
		return 0, msgerr.Errorf("%w: chi-square statistic %v", ErrInvalid, stat)
	}
	return GammaQ(float64(df)/2, stat/2)
}

// GammaQ returns the regularized upper incomplete gamma function
// Q(a, x) = Γ(a, x)/Γ(a) for a > 0, x ≥ 0 (x = +Inf gives 0), computed by
// gonum's mathext.GammaIncRegComp (the Cephes algorithms); against the
// closed forms for df ≤ 1000 its largest absolute error is 4.8e-15
// (TestChiSquarePValueClosedForms).
func GammaQ(a, x float64) (float64, error) {
	if math.IsNaN(a) || math.IsInf(a, 0) || a <= 0 {
		return 0, msgerr.Errorf("%w: gamma shape %v (want > 0)", ErrInvalid, a)
	}
	if math.IsNaN(x) || x < 0 {
		return 0, msgerr.Errorf("%w: gamma argument %v (want ≥ 0)", ErrInvalid, x)
	}
	switch {
	case x == 0:
		return 1, nil
	case math.IsInf(x, 1):
		return 0, nil
	}
	return max(0, min(mathext.GammaIncRegComp(a, x), 1)), nil
}

// Uniform returns the expected face distribution of a fair die with the
// given sides (2..256, the dice the journal can draw): probs[f-1] = 1/sides.
// The TOR feat die is Uniform(12), its success dice Uniform(6).
func Uniform(sides int) ([]float64, error) {
	if sides < 2 || sides > 256 {
		return nil, msgerr.Errorf("%w: d%d (want 2..256 sides)", ErrInvalid, sides)
	}
	p := make([]float64, sides)
	for i := range p {
		p[i] = 1 / float64(sides)
	}
	return p, nil
}
