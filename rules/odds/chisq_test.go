package odds_test

import (
	"errors"
	"math"
	"testing"

	"github.com/campaign-journal/journal/rules/odds"
)

// closedChiP is P(χ²(df) ≥ x) by the closed forms: for even df
// e^(−y) Σ_{k<df/2} y^k/k!, for odd df erfc(√y) + e^(−y) Σ_{j=1}^{(df−1)/2} y^(j−1/2)/Γ(j+1/2), y = x/2.
func closedChiP(x float64, df int) float64 {
	y := x / 2
	if df%2 == 0 {
		term, sum := math.Exp(-y), 0.0
		for k := 0; k < df/2; k++ {
			if k > 0 {
				term *= y / float64(k)
			}
			sum += term
		}
		return sum
	}
	sum := math.Erfc(math.Sqrt(y))
	// term_j = e^(−y) y^(j−1/2) / Γ(j+1/2); term_1 = e^(−y) √y / Γ(3/2)
	term := math.Exp(-y) * math.Sqrt(y) / (math.Sqrt(math.Pi) / 2)
	for j := 1; j <= (df-1)/2; j++ {
		if j > 1 {
			term *= y / (float64(j) - 0.5)
		}
		sum += term
	}
	return sum
}

func TestChiSquarePValueClosedForms(t *testing.T) {
	worst := 0.0
	for _, df := range []int{1, 2, 3, 4, 5, 7, 10, 11, 20, 30, 51, 100, 1000} {
		for _, x := range []float64{1e-6, 0.01, 0.1, 0.5, 1, 2, 3.84, 5, 9, 10, 15, 18.3, 25, 40, 60, 99, 100, 101, 150, 200, 900, 1000, 1100, 1500} {
			got, err := odds.ChiSquarePValue(x, df)
			if err != nil {
				t.Fatalf("df=%d x=%v: %v", df, x, err)
			}
			want := closedChiP(x, df)
			diff := math.Abs(got - want)
			// absolute 1e-12, or relative 1e-9 in the far tail
			if diff > 1e-12 && diff > 1e-9*want {
				t.Errorf("P(χ²(%d) ≥ %v) = %.17g, want %.17g", df, x, got, want)
			}
			worst = max(worst, diff)
		}
	}
	t.Logf("largest absolute error %.3g", worst)
}

func TestChiSquarePValueKnown(t *testing.T) {
	tests := []struct {
		x    float64
		df   int
		want float64
		tol  float64
	}{
		{3.841458820694124, 1, 0.05, 1e-12},
		{18.307038053275146, 10, 0.05, 1e-12},
		{6.634896601021214, 1, 0.01, 1e-12},
		{3.84, 1, 0.05004352124870519, 1e-12},
		{18.307, 10, 0.05, 1e-5},
		{0, 4, 1, 0},
		{math.Inf(1), 3, 0, 0},
	}
	for _, tt := range tests {
		got, err := odds.ChiSquarePValue(tt.x, tt.df)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-tt.want) > tt.tol {
			t.Errorf("P(χ²(%d) ≥ %v) = %.15g, want %.15g", tt.df, tt.x, got, tt.want)
		}
	}
	for _, bad := range []struct {
		x  float64
		df int
	}{{1, 0}, {1, -3}, {-1, 2}, {math.NaN(), 2}} {
		if _, err := odds.ChiSquarePValue(bad.x, bad.df); !errors.Is(err, odds.ErrInvalid) {
			t.Errorf("ChiSquarePValue(%v, %d) error = %v, want ErrInvalid", bad.x, bad.df, err)
		}
	}
	for _, a := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := odds.GammaQ(a, 1); !errors.Is(err, odds.ErrInvalid) {
			t.Errorf("GammaQ(%v, 1) error = %v, want ErrInvalid", a, err)
		}
	}
	// Q(1, x) = e^(−x)
	for _, x := range []float64{0.3, 1, 2, 7, 30} {
		got, _ := odds.GammaQ(1, x)
		if math.Abs(got-math.Exp(-x)) > 1e-15 {
			t.Errorf("GammaQ(1, %v) = %v, want %v", x, got, math.Exp(-x))
		}
	}
}

func TestChiSquare(t *testing.T) {
	uni, _ := odds.Uniform(6)
	r, err := odds.ChiSquare([]int{10, 10, 10, 10, 10, 10}, uni)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stat > 1e-20 || r.DF != 5 || r.PValue != 1 || r.N != 60 || math.Abs(r.MinExpected-10) > 1e-12 {
		t.Errorf("perfect fit = %+v", r)
	}
	// 2 cells, 60/40 of 100 against 1/2: χ² = 4, df 1.
	r, err = odds.ChiSquare([]int{60, 40}, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Stat-4) > 1e-12 || math.Abs(r.PValue-math.Erfc(math.Sqrt(2))) > 1e-14 {
		t.Errorf("60/40 = %+v, want stat 4, p %v", r, math.Erfc(math.Sqrt(2)))
	}
	// a zero-probability cell: ignored when empty, fatal when observed.
	r, err = odds.ChiSquare([]int{5, 5, 0}, []float64{0.5, 0.5, 0})
	if err != nil || r.DF != 1 || r.Stat > 1e-20 {
		t.Errorf("empty impossible cell = %+v, %v", r, err)
	}
	r, err = odds.ChiSquare([]int{5, 5, 1}, []float64{0.5, 0.5, 0})
	if err != nil || !math.IsInf(r.Stat, 1) || r.PValue != 0 {
		t.Errorf("observed impossible cell = %+v, %v", r, err)
	}
	bad := []struct {
		obs []int
		exp []float64
	}{
		{[]int{1, 2}, []float64{1}},
		{[]int{1, 2}, []float64{0.5, 0.6}},
		{[]int{1, -2}, []float64{0.5, 0.5}},
		{[]int{0, 0}, []float64{0.5, 0.5}},
		{[]int{3}, []float64{1}},
		{[]int{3, 0}, []float64{1, 0}},
		{[]int{1, 1}, []float64{math.NaN(), 1}},
		{[]int{1, 1}, []float64{-0.5, 1.5}},
		{[]int{math.MaxInt, 1}, []float64{0.5, 0.5}},
		{nil, nil},
	}
	for _, b := range bad {
		if _, err := odds.ChiSquare(b.obs, b.exp); !errors.Is(err, odds.ErrInvalid) {
			t.Errorf("ChiSquare(%v, %v) error = %v, want ErrInvalid", b.obs, b.exp, err)
		}
	}
}
