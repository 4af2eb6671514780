package odds_test

import (
	"fmt"

	"github.com/campaign-journal/journal/rules/odds"
)

// A skill roll with base 12 (attribute + skill) against difícil (20) at the
// usual mid level: the kept die must reach 8, or explode.
func ExampleRyF() {
	o, err := odds.RyF(odds.RyFQuery{Base: 12, Level: odds.Mid, Difficulty: 20, Kind: odds.Skill})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("success   %s = %.4f\n", o.Success.Exact, o.Success.P)
	fmt.Printf("critical  %s = %.6f\n", o.Critical.Exact, o.Critical.P)
	fmt.Printf("fumble    %s\n", o.Fumble.Exact)
	fmt.Printf("natural 1 %s\n", o.Natural1.Exact)
	fmt.Printf("failure   %s\n", o.Failure.Exact)
	// totals 13..21, then 23.. after an explosion (a die part of 10 is impossible)
	fmt.Printf("P(total %d) = %s\n", o.Totals[9].Total, o.Totals[9].Exact)
	fmt.Println("truncated:", o.Truncated, "tail <", odds.TruncationMass, o.Tail.P < odds.TruncationMass)
	// Output:
	// success   27/125 = 0.2160
	// critical  189/31250 = 0.006048
	// fumble    1/1000
	// natural 1 27/1000
	// failure   98/125
	// P(total 23) = 49/62500
	// truncated: true tail < 1e-15 true
}

// An attribute roll (2 × attribute + modifiers) neither explodes nor fails on
// a natural 1: only the fumble fails when the difficulty is already reached.
func ExampleRyF_attribute() {
	o, _ := odds.RyF(odds.RyFQuery{Base: 16, Level: odds.Low, Difficulty: 15, Kind: odds.Attribute})
	fmt.Println(o.Success.Exact, o.Natural1.Exact, len(o.Totals), o.Truncated)
	// Output:
	// 999/1000 0/1 10 false
}

// Three success dice against the default TN 14, and spending Hope for +3.
func ExampleTOR() {
	o, err := odds.TOR(odds.TORQuery{Dice: 3, TN: 14, HopeBonus: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("success           %s = %.4f\n", o.Success.Exact, o.Success.P)
	fmt.Printf("with Hope (+3)    %s = %.4f\n", o.SuccessWithHope.Exact, o.SuccessWithHope.P)
	fmt.Printf("great             %s\n", o.Quality.Great.Exact)
	fmt.Printf("extraordinary     %s\n", o.Quality.Extraordinary.Exact)
	fmt.Printf("success, the Eye  %s\n", o.SuccessEye.Exact)
	fmt.Printf("rune %s, eye %s\n", o.Rune.Exact, o.Eye.Exact)
	// Output:
	// success           1801/2592 = 0.6948
	// with Hope (+3)    253/288 = 0.8785
	// great             41/144
	// extraordinary     7/96
	// success, the Eye  35/2592
	// rune 1/12, eye 1/12
}

// The expected kept faces of 1o3d10 at each level, over 1000 outcomes.
func ExampleKeptCounts() {
	for _, l := range []odds.Level{odds.Low, odds.Mid, odds.High} {
		c, _ := odds.KeptCounts(l)
		fmt.Println(l, c)
	}
	// Output:
	// low [271 217 169 127 91 61 37 19 7 1]
	// mid [28 76 112 136 148 148 136 112 76 28]
	// high [1 7 19 37 61 91 127 169 217 271]
}

// Observed kept faces of a session's mid-level rolls against the expected
// distribution.
func ExampleChiSquare() {
	want, _ := odds.KeptProbs(odds.Mid)
	observed := []int{7, 14, 25, 24, 31, 27, 30, 20, 16, 6}
	r, err := odds.ChiSquare(observed, want)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("n = %d, smallest expected count %.1f\n", r.N, r.MinExpected)
	fmt.Printf("chi2 = %.3f, df = %d, p = %.3f\n", r.Stat, r.DF, r.PValue)
	// Output:
	// n = 200, smallest expected count 5.6
	// chi2 = 2.034, df = 9, p = 0.991
}

// The 5% critical values of the chi-square distribution.
func ExampleChiSquarePValue() {
	p1, _ := odds.ChiSquarePValue(3.84, 1)
	p10, _ := odds.ChiSquarePValue(18.307, 10)
	fmt.Printf("%.4f %.4f\n", p1, p10)
	// Output:
	// 0.0500 0.0500
}
