package odds_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/campaign-journal/journal/rules/odds"
)

var levels = []odds.Level{odds.Low, odds.Mid, odds.High}
var kinds = []odds.Kind{odds.Skill, odds.Opposed, odds.Combat, odds.Attribute}

func TestKeptCountsClosedForms(t *testing.T) {
	cube := func(n int) int { return n * n * n }
	want := map[odds.Level]func(k int) int{
		odds.Low:  func(k int) int { return cube(11-k) - cube(10-k) },
		odds.Mid:  func(k int) int { return 6*(k-1)*(10-k) + 3*(k-1) + 3*(10-k) + 1 },
		odds.High: func(k int) int { return cube(k) - cube(k-1) },
	}
	for _, l := range levels {
		got, err := odds.KeptCounts(l)
		if err != nil {
			t.Fatalf("KeptCounts(%v): %v", l, err)
		}
		sum := 0
		for k := 1; k <= 10; k++ {
			if got[k-1] != want[l](k) {
				t.Errorf("%v: count(kept=%d) = %d, want %d", l, k, got[k-1], want[l](k))
			}
			sum += got[k-1]
		}
		if sum != odds.Outcomes {
			t.Errorf("%v: counts sum to %d, want 1000", l, sum)
		}
		probs, err := odds.KeptProbs(l)
		if err != nil {
			t.Fatal(err)
		}
		var ps float64
		for _, p := range probs {
			ps += p
		}
		if math.Abs(ps-1) > 1e-15 {
			t.Errorf("%v: probabilities sum to %v", l, ps)
		}
	}
	low, _ := odds.KeptCounts(odds.Low)
	high, _ := odds.KeptCounts(odds.High)
	mid, _ := odds.KeptCounts(odds.Mid)
	if low[0] != 271 || high[9] != 271 || mid[0] != 28 || mid[4] != 148 {
		t.Errorf("low[1]=%d high[10]=%d mid[1]=%d mid[5]=%d, want 271 271 28 148", low[0], high[9], mid[0], mid[4])
	}
	for _, l := range []odds.Level{0, 4, -1} {
		if _, err := odds.KeptCounts(l); !errors.Is(err, odds.ErrInvalid) {
			t.Errorf("KeptCounts(%d) error = %v, want ErrInvalid", l, err)
		}
		if _, err := odds.KeptProbs(l); !errors.Is(err, odds.ErrInvalid) {
			t.Errorf("KeptProbs(%d) error = %v, want ErrInvalid", l, err)
		}
	}
}

func TestRyFExactValues(t *testing.T) {
	tests := []struct {
		q                                     odds.RyFQuery
		success, critical, fumble, nat1, fail string
	}{
		// die part ≥ 8 at mid: 112+76+28 = 216; critical needs 18: 28·216/10^6.
		{odds.RyFQuery{Base: 12, Level: odds.Mid, Difficulty: 20, Kind: odds.Skill},
			"216/1000", "6048/1000000", "1/1000", "27/1000", "784/1000"},
		// anything but a first kept 1 succeeds; a critical needs three explosions at low.
		{odds.RyFQuery{Base: 0, Level: odds.Low, Difficulty: 2, Kind: odds.Combat},
			"729/1000", "1/1000000000", "1/1000", "270/1000", "271/1000"},
		{odds.RyFQuery{Base: 30, Level: odds.Mid, Difficulty: 10, Kind: odds.Opposed},
			"972/1000", "972/1000", "1/1000", "27/1000", "28/1000"},
		// attribute: only the fumble fails; no critical below 30.
		{odds.RyFQuery{Base: 10, Level: odds.High, Difficulty: 0, Kind: odds.Attribute},
			"999/1000", "0/1", "1/1000", "0/1", "1/1000"},
		// attribute at mid: kept ≥ 5 is 648; critical needs kept 10 (28).
		{odds.RyFQuery{Base: 20, Level: odds.Mid, Difficulty: 25, Kind: odds.Attribute},
			"648/1000", "28/1000", "1/1000", "0/1", "352/1000"},
		// attribute with a die part beyond 10: impossible.
		{odds.RyFQuery{Base: 5, Level: odds.High, Difficulty: 16, Kind: odds.Attribute},
			"0/1", "0/1", "1/1000", "0/1", "1/1"},
		// high: die part ≥ 11 needs one explosion (271/1000); ≥ 30 needs three
		// (die parts are never multiples of 10); high keeps 1 only on the fumble.
		{odds.RyFQuery{Base: 0, Level: odds.High, Difficulty: 11, Kind: odds.Skill},
			"271/1000", "19902511/1000000000", "1/1000", "0/1", "729/1000"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v_%v_%d_vs_%d", tt.q.Kind, tt.q.Level, tt.q.Base, tt.q.Difficulty), func(t *testing.T) {
			o, err := odds.RyF(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			checkExact(t, "success", o.Success, tt.success)
			checkExact(t, "critical", o.Critical, tt.critical)
			checkExact(t, "fumble", o.Fumble, tt.fumble)
			checkExact(t, "natural 1", o.Natural1, tt.nat1)
			checkExact(t, "failure", o.Failure, tt.fail)
		})
	}
}

func TestRyFHuge(t *testing.T) {
	// die part ≥ 1000 (100 tens in a row): beyond the exact range, a float only.
	o, err := odds.RyF(odds.RyFQuery{Base: 0, Level: odds.High, Difficulty: 1000, Kind: odds.Skill})
	if err != nil {
		t.Fatal(err)
	}
	want := math.Pow(0.271, 100) // 99 explosions, then a 10 on round 100
	if o.Success.Exact != "" || math.Abs(o.Success.P-want) > 1e-12*want {
		t.Errorf("success = %+v, want float %v without fraction", o.Success, want)
	}
	// the edge of the exact range: 64 explosions, then ≥ 1 → 0.271^64 exactly.
	o, err = odds.RyF(odds.RyFQuery{Base: 0, Level: odds.High, Difficulty: 641, Kind: odds.Skill})
	if err != nil {
		t.Fatal(err)
	}
	w := new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(271), big.NewInt(64), nil), new(big.Int).Exp(big.NewInt(1000), big.NewInt(64), nil))
	checkExact(t, "success", o.Success, w.String())
	// extreme integers never panic and give 0 or 1.
	for _, d := range []int{math.MinInt, math.MinInt + 1, math.MaxInt, math.MaxInt - 1} {
		for _, b := range []int{-odds.MaxBase, 0, odds.MaxBase} {
			for _, k := range kinds {
				o, err := odds.RyF(odds.RyFQuery{Base: b, Level: odds.Mid, Difficulty: d, Kind: k})
				if err != nil {
					t.Fatalf("difficulty %d base %d: %v", d, b, err)
				}
				if d < 0 && o.Success.P != 1-0.028*b2f(k.Explodes())-0.001*b2f(!k.Explodes()) {
					t.Errorf("difficulty %d base %d %v: success %v", d, b, k, o.Success.P)
				}
				if d > 0 && o.Success.P != 0 {
					t.Errorf("difficulty %d base %d %v: success %v, want 0", d, b, k, o.Success.P)
				}
			}
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func TestRyFInvalid(t *testing.T) {
	tests := []odds.RyFQuery{
		{Base: 10, Level: 0, Difficulty: 15, Kind: odds.Skill},
		{Base: 10, Level: 4, Difficulty: 15, Kind: odds.Skill},
		{Base: 10, Level: -1, Difficulty: 15, Kind: odds.Skill},
		{Base: 10, Level: odds.Mid, Difficulty: 15, Kind: 0},
		{Base: 10, Level: odds.Mid, Difficulty: 15, Kind: 5},
		{Base: odds.MaxBase + 1, Level: odds.Mid, Difficulty: 15, Kind: odds.Skill},
		{Base: math.MinInt, Level: odds.Mid, Difficulty: 15, Kind: odds.Skill},
	}
	for _, q := range tests {
		if _, err := odds.RyF(q); !errors.Is(err, odds.ErrInvalid) {
			t.Errorf("RyF(%+v) error = %v, want ErrInvalid", q, err)
		}
	}
}

// TestRyFConsistency checks, for many queries, that the outcomes partition
// the sample space exactly and agree with the distribution of totals.
func TestRyFConsistency(t *testing.T) {
	one := big.NewRat(1, 1)
	for _, l := range levels {
		for _, k := range kinds {
			for base := -5; base <= 30; base += 5 {
				// the distribution does not depend on the difficulty: check it once
				o, err := odds.RyF(odds.RyFQuery{Base: base, Level: l, Difficulty: 0, Kind: k})
				if err != nil {
					t.Fatal(err)
				}
				tail := rat(t, "tail", o.Tail)
				if o.Truncated != (tail.Sign() > 0) || o.Tail.P >= odds.TruncationMass {
					t.Fatalf("%v %v: truncated %v with tail %s", l, k, o.Truncated, tail)
				}
				// above[i] = P(total ≥ Totals[i].Total) + tail
				above := make([]*big.Rat, len(o.Totals)+1)
				above[len(o.Totals)] = tail
				for i := len(o.Totals) - 1; i >= 0; i-- {
					tp := o.Totals[i]
					p := rat(t, "total", tp.Prob)
					if p.Sign() <= 0 || (i > 0 && o.Totals[i-1].Total >= tp.Total) {
						t.Fatalf("%v %v base %d: totals not ascending with positive mass at %d", l, k, base, tp.Total)
					}
					above[i] = new(big.Rat).Add(above[i+1], p)
				}
				if above[0].Cmp(one) != 0 {
					t.Fatalf("%v %v base %d: totals + tail = %s, want 1", l, k, base, above[0])
				}
				// P(total ≥ x), the tail counted as above every listed total
				atLeast := func(x int) *big.Rat {
					for i, tp := range o.Totals {
						if tp.Total >= x {
							return above[i]
						}
					}
					return above[len(o.Totals)]
				}

				for diff := base - 3; diff <= base+45; diff++ {
					q := odds.RyFQuery{Base: base, Level: l, Difficulty: diff, Kind: k}
					o, err := odds.RyF(q)
					if err != nil {
						t.Fatal(err)
					}
					s, c, f, n, fl := rat(t, "success", o.Success), rat(t, "critical", o.Critical),
						rat(t, "fumble", o.Fumble), rat(t, "nat1", o.Natural1), rat(t, "failure", o.Failure)
					if new(big.Rat).Add(s, fl).Cmp(one) != 0 {
						t.Fatalf("%+v: success + failure = %s", q, new(big.Rat).Add(s, fl))
					}
					if c.Cmp(s) > 0 {
						t.Fatalf("%+v: critical %s > success %s", q, c, s)
					}
					if new(big.Rat).Add(f, n).Cmp(fl) > 0 {
						t.Fatalf("%+v: fumble + natural 1 > failure", q)
					}
					succ := new(big.Rat).Set(atLeast(diff))
					crit := new(big.Rat).Set(atLeast(max(diff, odds.CriticalTotal)))
					// the die part is 1 exactly on natural 1 or fumble, which fail
					if base+1 >= diff {
						succ.Sub(succ, f)
						succ.Sub(succ, n)
						if base+1 >= odds.CriticalTotal {
							crit.Sub(crit, f)
							crit.Sub(crit, n)
						}
					}
					if succ.Cmp(s) != 0 && (!o.Truncated || math.Abs(o.Success.P-mustFloat(succ)) > odds.TruncationMass) {
						t.Fatalf("%+v: success from totals %s, odds %s", q, succ, s)
					}
					if crit.Cmp(c) != 0 && (!o.Truncated || math.Abs(o.Critical.P-mustFloat(crit)) > odds.TruncationMass) {
						t.Fatalf("%+v: critical from totals %s, odds %s", q, crit, c)
					}
				}
			}
		}
	}
}

func mustFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

func TestRyFMonotonic(t *testing.T) {
	for _, k := range kinds {
		for base := 0; base <= 25; base += 5 {
			var prev [4]*big.Rat
			for diff := base - 2; diff <= base+80; diff++ {
				var byLevel [4]*big.Rat
				for _, l := range levels {
					o, err := odds.RyF(odds.RyFQuery{Base: base, Level: l, Difficulty: diff, Kind: k})
					if err != nil {
						t.Fatal(err)
					}
					s := rat(t, "success", o.Success)
					if prev[l] != nil && s.Cmp(prev[l]) > 0 {
						t.Errorf("%v %v base %d: success rises from %s to %s at difficulty %d", k, l, base, prev[l], s, diff)
					}
					prev[l] = s
					byLevel[l] = s
				}
				// a higher level never hurts
				if byLevel[odds.Low].Cmp(byLevel[odds.Mid]) > 0 || byLevel[odds.Mid].Cmp(byLevel[odds.High]) > 0 {
					t.Errorf("%v base %d difficulty %d: low %s mid %s high %s not ascending", k, base, diff,
						byLevel[odds.Low], byLevel[odds.Mid], byLevel[odds.High])
				}
			}
		}
	}
}

func TestLevelKindText(t *testing.T) {
	for _, l := range levels {
		got, err := odds.ParseLevel(" " + l.String() + " ")
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l.String(), got, err)
		}
	}
	if l, err := odds.ParseLevel("HIGH"); err != nil || l != odds.High {
		t.Errorf("ParseLevel(HIGH) = %v, %v", l, err)
	}
	for _, k := range kinds {
		got, err := odds.ParseKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k.String(), got, err)
		}
	}
	for _, s := range []string{"", "median", "lowest"} {
		if _, err := odds.ParseLevel(s); !errors.Is(err, odds.ErrInvalid) {
			t.Errorf("ParseLevel(%q) error = %v", s, err)
		}
	}
	if _, err := odds.ParseKind("damage"); !errors.Is(err, odds.ErrInvalid) {
		t.Errorf("ParseKind(damage) error = %v", err)
	}
	if odds.Level(7).String() != "level(7)" || odds.Kind(0).String() != "kind(0)" {
		t.Errorf("invalid names: %v %v", odds.Level(7), odds.Kind(0))
	}
}
