package odds_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/odds"
)

// simRolls is the number of simulated rolls per level or per TOR query.
const simRolls = 200_000

// simSeed is the fixed seed of the simulations.
func simSeed() dice.Seed {
	var s dice.Seed
	for i := range s {
		s[i] = byte(0xa5 ^ i*7)
	}
	return s
}

// ryfRoll is one simulated 1o3d10 roll, written straight from docs/rules.md §1.5
// and independent of the package under test.
type ryfRoll struct {
	first [3]int // the three dice of the first round
	kept1 int    // the first round's kept die
	chain int    // the die part if the roll explodes: kept dice of all rounds
}

// keep returns the lowest (pos 0), median (1) or highest (2) of three dice.
func keep(r dice.Roller, pos int) ([3]int, int, error) {
	var d [3]int
	for i := range d {
		f, err := r.Roll(10)
		if err != nil {
			return d, 0, err
		}
		d[i] = f
	}
	s := d
	for i := 1; i < 3; i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return d, s[pos], nil
}

func simulateRyF(t *testing.T, pos int) []ryfRoll {
	t.Helper()
	key := dice.NewKey(simSeed())
	out := make([]ryfRoll, simRolls)
	for i := range out {
		s := key.Stream("odds-sim", fmt.Sprintf("ryf-%d", pos), uint64(i), "")
		first, k, err := keep(s, pos)
		if err != nil {
			t.Fatal(err)
		}
		r := ryfRoll{first: first, kept1: k, chain: k}
		for k == 10 {
			if _, k, err = keep(s, pos); err != nil {
				t.Fatal(err)
			}
			r.chain += k
		}
		out[i] = r
	}
	return out
}

// within4SE fails unless the observed count of n trials agrees with
// probability p within 4 standard errors (exactly, when p is 0 or 1).
func within4SE(t *testing.T, name string, count, n int, p float64) {
	t.Helper()
	got := float64(count) / float64(n)
	se := math.Sqrt(p * (1 - p) / float64(n))
	if math.Abs(got-p) > 4*se+1e-12 {
		t.Errorf("%s: observed %.6f (%d/%d), exact %.6f, %.1f standard errors apart", name, got, count, n, p, math.Abs(got-p)/se)
	}
}

func TestRyFSimulation(t *testing.T) {
	queries := []struct{ base, diff int }{{12, 20}, {5, 15}, {8, 10}, {20, 25}, {25, 30}, {18, 40}, {0, 1}, {15, 35}, {10, 21}, {5, 26}, {0, 31}, {3, 13}}
	for pos, l := range []odds.Level{odds.Low, odds.Mid, odds.High} {
		rolls := simulateRyF(t, pos)

		// the kept faces of the first round against KeptProbs
		want, err := odds.KeptProbs(l)
		if err != nil {
			t.Fatal(err)
		}
		obs := make([]int, 10)
		for _, r := range rolls {
			obs[r.kept1-1]++
		}
		fit, err := odds.ChiSquare(obs, want)
		if err != nil {
			t.Fatal(err)
		}
		if fit.PValue < 1e-4 {
			t.Errorf("%v: kept faces %v do not fit %v: %+v", l, obs, want, fit)
		}

		for _, kind := range []odds.Kind{odds.Skill, odds.Attribute} {
			explode := kind == odds.Skill
			for _, qq := range queries {
				q := odds.RyFQuery{Base: qq.base, Level: l, Difficulty: qq.diff, Kind: kind}
				o, err := odds.RyF(q)
				if err != nil {
					t.Fatal(err)
				}
				var succ, crit, fum, nat1 int
				totals := map[int]int{}
				for _, r := range rolls {
					die := r.kept1
					if explode {
						die = r.chain
					}
					total := qq.base + die
					totals[total]++
					fumble := r.first == [3]int{1, 1, 1}
					natural := explode && r.kept1 == 1 && !fumble
					switch {
					case fumble:
						fum++
					case natural:
						nat1++
					case total >= qq.diff:
						succ++
						if total >= 30 {
							crit++
						}
					}
				}
				name := fmt.Sprintf("%v %v %d vs %d", kind, l, qq.base, qq.diff)
				within4SE(t, name+" success", succ, simRolls, o.Success.P)
				within4SE(t, name+" critical", crit, simRolls, o.Critical.P)
				within4SE(t, name+" fumble", fum, simRolls, o.Fumble.P)
				within4SE(t, name+" natural 1", nat1, simRolls, o.Natural1.P)
				within4SE(t, name+" failure", simRolls-succ, simRolls, o.Failure.P)

				// every total expected at least 10 times on its own, the rest together
				rareP, rareN := o.Tail.P, 0
				listed := map[int]bool{}
				for _, tp := range o.Totals {
					listed[tp.Total] = true
					if tp.P*simRolls >= 10 {
						within4SE(t, fmt.Sprintf("%s total %d", name, tp.Total), totals[tp.Total], simRolls, tp.P)
					} else {
						rareP += tp.P
						rareN += totals[tp.Total]
					}
				}
				for total, c := range totals {
					if !listed[total] {
						rareN += c // beyond the truncation
					}
				}
				if rareP*simRolls >= 10 {
					within4SE(t, name+" rare totals", rareN, simRolls, rareP)
				} else if lim := rareP*simRolls + 4*math.Sqrt(rareP*simRolls) + 3; float64(rareN) > lim {
					t.Errorf("%s: %d rare totals, expected %.3g", name, rareN, rareP*simRolls)
				}
			}
		}
	}
}

func TestTORSimulation(t *testing.T) {
	key := dice.NewKey(simSeed())
	for qi, q := range []odds.TORQuery{{Dice: 3, TN: 14, HopeBonus: 3}, {Dice: 6, TN: 20, HopeBonus: 2}, {Dice: 1, TN: 12, HopeBonus: 5}} {
		o, err := odds.TOR(q)
		if err != nil {
			t.Fatal(err)
		}
		var succ, hope, succEye, hopeEye, rune, eye int
		var qual, qualHope [3]int
		for i := range simRolls {
			s := key.Stream("odds-sim", fmt.Sprintf("tor-%d", qi), uint64(i), "")
			feat, err := s.Roll(12)
			if err != nil {
				t.Fatal(err)
			}
			sum, sixes := 0, 0
			for range q.Dice {
				f, err := s.Roll(6)
				if err != nil {
					t.Fatal(err)
				}
				sum += f
				if f == 6 {
					sixes++
				}
			}
			value := feat
			switch feat {
			case 11:
				value = 0
				eye++
			case 12:
				rune++
			}
			ok := feat == 12 || value+sum >= q.TN
			okHope := ok || value+sum+q.HopeBonus >= q.TN
			quality := min(sixes, 2)
			if ok {
				succ++
				qual[quality]++
				if feat == 11 {
					succEye++
				}
			}
			if okHope {
				hope++
				qualHope[quality]++
				if feat == 11 {
					hopeEye++
				}
			}
		}
		name := fmt.Sprintf("%+v", q)
		within4SE(t, name+" success", succ, simRolls, o.Success.P)
		within4SE(t, name+" with hope", hope, simRolls, o.SuccessWithHope.P)
		within4SE(t, name+" success eye", succEye, simRolls, o.SuccessEye.P)
		within4SE(t, name+" success eye with hope", hopeEye, simRolls, o.SuccessEyeWithHope.P)
		within4SE(t, name+" rune", rune, simRolls, o.Rune.P)
		within4SE(t, name+" eye", eye, simRolls, o.Eye.P)
		within4SE(t, name+" ordinary", qual[0], simRolls, o.Quality.Ordinary.P)
		within4SE(t, name+" great", qual[1], simRolls, o.Quality.Great.P)
		within4SE(t, name+" extraordinary", qual[2], simRolls, o.Quality.Extraordinary.P)
		within4SE(t, name+" great with hope", qualHope[1], simRolls, o.QualityWithHope.Great.P)
		within4SE(t, name+" extraordinary with hope", qualHope[2], simRolls, o.QualityWithHope.Extraordinary.P)
	}
}
