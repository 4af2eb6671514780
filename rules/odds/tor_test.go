package odds_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/campaign-journal/journal/rules/odds"
)

// torBrute enumerates all 12·6^n outcomes and counts every event of TOROdds.
type torCounts struct {
	den, succ, hope, succEye, hopeEye int64
	qual, qualHope                    [3]int64
}

func torBrute(n, tn, bonus int) torCounts {
	var c torCounts
	faces := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i < n {
			for f := 1; f <= 6; f++ {
				faces[i] = f
				rec(i + 1)
			}
			return
		}
		sum, sixes := 0, 0
		for _, f := range faces {
			sum += f
			if f == 6 {
				sixes++
			}
		}
		q := min(sixes, 2)
		for feat := 1; feat <= 12; feat++ {
			c.den++
			v := feat
			if feat == 11 {
				v = 0
			}
			ok := feat == 12 || v+sum >= tn
			okHope := ok || v+sum+bonus >= tn
			if ok {
				c.succ++
				c.qual[q]++
				if feat == 11 {
					c.succEye++
				}
			}
			if okHope {
				c.hope++
				c.qualHope[q]++
				if feat == 11 {
					c.hopeEye++
				}
			}
		}
	}
	rec(0)
	return c
}

func frac(a, b int64) string { return big.NewRat(a, b).String() }

func TestTORAgainstEnumeration(t *testing.T) {
	for n := 0; n <= 5; n++ {
		for _, tn := range []int{-3, 0, 1, 8, 12, 14, 16, 18, 20, 25, 31, 40} {
			for _, bonus := range []int{0, 1, 3, 6} {
				q := odds.TORQuery{Dice: n, TN: tn, HopeBonus: bonus}
				name := fmt.Sprintf("%+v", q)
				o, err := odds.TOR(q)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				c := torBrute(n, tn, bonus)
				checkExact(t, name+" success", o.Success, frac(c.succ, c.den))
				checkExact(t, name+" hope", o.SuccessWithHope, frac(c.hope, c.den))
				checkExact(t, name+" success eye", o.SuccessEye, frac(c.succEye, c.den))
				checkExact(t, name+" hope eye", o.SuccessEyeWithHope, frac(c.hopeEye, c.den))
				checkExact(t, name+" rune", o.Rune, "1/12")
				checkExact(t, name+" eye", o.Eye, "1/12")
				checkExact(t, name+" ordinary", o.Quality.Ordinary, frac(c.qual[0], c.den))
				checkExact(t, name+" great", o.Quality.Great, frac(c.qual[1], c.den))
				checkExact(t, name+" extraordinary", o.Quality.Extraordinary, frac(c.qual[2], c.den))
				checkExact(t, name+" hope ordinary", o.QualityWithHope.Ordinary, frac(c.qualHope[0], c.den))
				checkExact(t, name+" hope great", o.QualityWithHope.Great, frac(c.qualHope[1], c.den))
				checkExact(t, name+" hope extraordinary", o.QualityWithHope.Extraordinary, frac(c.qualHope[2], c.den))
				among := new(big.Rat)
				for _, p := range []odds.Prob{o.QualityAmongSuccesses.Ordinary, o.QualityAmongSuccesses.Great, o.QualityAmongSuccesses.Extraordinary} {
					among.Add(among, rat(t, name+" among", p))
				}
				checkExact(t, name+" among sum", odds.Prob{P: 1, Exact: among.String()}, "1/1")
				if c.succ > 0 {
					checkExact(t, name+" among great", o.QualityAmongSuccesses.Great, frac(c.qual[1], c.succ))
				}
			}
		}
	}
}

func TestTORKnownValues(t *testing.T) {
	tests := []struct {
		q             odds.TORQuery
		success, hope string
	}{
		// no success dice: only the rune reaches 14; with +4 the 10 does too.
		{odds.TORQuery{Dice: 0, TN: 14}, "1/12", "1/12"},
		{odds.TORQuery{Dice: 0, TN: 14, HopeBonus: 4}, "1/12", "2/12"},
		// one die: rune (6) + 8·6, 9·5-6, 10·4-6 (6) over 72.
		{odds.TORQuery{Dice: 1, TN: 14}, "12/72", "12/72"},
		// everything succeeds at TN ≤ 1 (the Eye with one die is ≥ 1).
		{odds.TORQuery{Dice: 1, TN: 1}, "1/1", "1/1"},
		// at TN 0 even the Eye with no dice succeeds.
		{odds.TORQuery{Dice: 0, TN: 0}, "1/1", "1/1"},
		// unreachable except by the rune.
		{odds.TORQuery{Dice: 10, TN: 71}, "1/12", "1/12"},
		{odds.TORQuery{Dice: 10, TN: math.MaxInt}, "1/12", "1/12"},
		// Hope lowers the TN to 0 here: every failure is rescued.
		{odds.TORQuery{Dice: 10, TN: math.MaxInt, HopeBonus: math.MaxInt}, "1/12", "1/1"},
		{odds.TORQuery{Dice: 10, TN: math.MinInt, HopeBonus: math.MaxInt}, "1/1", "1/1"},
	}
	for _, tt := range tests {
		o, err := odds.TOR(tt.q)
		if err != nil {
			t.Fatalf("%+v: %v", tt.q, err)
		}
		checkExact(t, fmt.Sprintf("%+v success", tt.q), o.Success, tt.success)
		checkExact(t, fmt.Sprintf("%+v hope", tt.q), o.SuccessWithHope, tt.hope)
	}
	// denominators of 10 dice: 12·6^10.
	o, err := odds.TOR(odds.TORQuery{Dice: 10, TN: 40})
	if err != nil {
		t.Fatal(err)
	}
	r := rat(t, "success", o.Success)
	den := new(big.Int).Mul(big.NewInt(12), new(big.Int).Exp(big.NewInt(6), big.NewInt(10), nil))
	if new(big.Int).Mod(den, r.Denom()).Sign() != 0 {
		t.Errorf("denominator %s does not divide 12·6^10", r.Denom())
	}
}

func TestTORMonotonic(t *testing.T) {
	for n := 0; n <= odds.MaxTORDice; n++ {
		var prev, prevHope *big.Rat
		for tn := -2; tn <= 75; tn++ {
			o, err := odds.TOR(odds.TORQuery{Dice: n, TN: tn, HopeBonus: 2})
			if err != nil {
				t.Fatal(err)
			}
			s, h := rat(t, "success", o.Success), rat(t, "hope", o.SuccessWithHope)
			if h.Cmp(s) < 0 {
				t.Errorf("n=%d tn=%d: with Hope %s < without %s", n, tn, h, s)
			}
			if prev != nil && (s.Cmp(prev) > 0 || h.Cmp(prevHope) > 0) {
				t.Errorf("n=%d tn=%d: success rises", n, tn)
			}
			prev, prevHope = s, h
			sum := new(big.Rat)
			for _, p := range []odds.Prob{o.Quality.Ordinary, o.Quality.Great, o.Quality.Extraordinary} {
				sum.Add(sum, rat(t, "quality", p))
			}
			if sum.Cmp(s) != 0 {
				t.Errorf("n=%d tn=%d: qualities sum to %s, success %s", n, tn, sum, s)
			}
		}
	}
}

func TestTORInvalid(t *testing.T) {
	for _, q := range []odds.TORQuery{
		{Dice: -1, TN: 14},
		{Dice: 11, TN: 14},
		{Dice: math.MaxInt, TN: 14},
		{Dice: 3, TN: 14, HopeBonus: -1},
	} {
		if _, err := odds.TOR(q); !errors.Is(err, odds.ErrInvalid) {
			t.Errorf("TOR(%+v) error = %v, want ErrInvalid", q, err)
		}
	}
}

func TestUniform(t *testing.T) {
	for _, n := range []int{2, 6, 10, 12, 20, 100, 256} {
		p, err := odds.Uniform(n)
		if err != nil || len(p) != n {
			t.Fatalf("Uniform(%d) = %d faces, %v", n, len(p), err)
		}
		var s float64
		for _, x := range p {
			s += x
		}
		if math.Abs(s-1) > 1e-13 {
			t.Errorf("Uniform(%d) sums to %v", n, s)
		}
	}
	for _, n := range []int{-1, 0, 1, 257} {
		if _, err := odds.Uniform(n); !errors.Is(err, odds.ErrInvalid) {
			t.Errorf("Uniform(%d) error = %v, want ErrInvalid", n, err)
		}
	}
}
