package odds_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
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

// simulateRyF draws simRolls exploding 1o3d10 rolls of the engine
// (ryf.Roll, a skill check) at level l from the seeded stream, each as the
// faces it drew: a roll of another kind from the same stream draws the
// same faces, as many as it asks for.
func simulateRyF(t *testing.T, l odds.Level) [][]int {
	t.Helper()
	key := dice.NewKey(simSeed())
	c := engineCheck(t, ryf.Check{Kind: ryf.KindSkill}, l)
	out := make([][]int, simRolls)
	for i := range out {
		rec := &dice.Recorder{R: key.Stream("odds-sim", fmt.Sprintf("ryf-%d", l-odds.Low), uint64(i), "")}
		if _, err := ryf.Roll(c, rec); err != nil {
			t.Fatal(err)
		}
		out[i] = rec.Faces
	}
	return out
}

// distinctRoll is the faces one roll of a check used, and how many of
// the simulated rolls used them.
type distinctRoll struct {
	faces []int
	n     int
}

// distinctRolls rolls check c on each simulated roll's faces and groups
// the rolls by the faces the engine used (a roll that does not explode
// uses only its first round): the queries then judge each group once.
func distinctRolls(t *testing.T, c ryf.Check, sims [][]int) []distinctRoll {
	t.Helper()
	faceKey := func(f []int) string {
		b := make([]byte, len(f))
		for i, x := range f {
			b[i] = byte(x)
		}
		return string(b)
	}
	drawn := map[string]int{} // the simulated faces, by count
	var order []string
	for _, f := range sims {
		k := faceKey(f)
		if drawn[k] == 0 {
			order = append(order, k)
		}
		drawn[k]++
	}
	at := map[string]int{}
	var out []distinctRoll
	for _, k := range order {
		f := make([]int, len(k))
		for i := range k {
			f[i] = int(k[i])
		}
		faces := dice.NewFaces(f...)
		if _, err := ryf.Roll(c, faces); err != nil {
			t.Fatal(err)
		}
		used := f[:len(f)-faces.Remaining()]
		u := faceKey(used)
		if i, ok := at[u]; ok {
			out[i].n += drawn[k]
			continue
		}
		at[u] = len(out)
		out = append(out, distinctRoll{faces: used, n: drawn[k]})
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

// The engine's rolls on the journal's seeded dice agree with the exact
// odds within the sampling error: the kept faces fit KeptProbs, and every
// verdict and total of ryf.Roll is as frequent as RyF says.
func TestRyFSimulation(t *testing.T) {
	queries := []struct{ base, diff int }{{12, 20}, {5, 15}, {8, 10}, {20, 25}, {25, 30}, {18, 40}, {0, 1}, {15, 35}, {10, 21}, {5, 26}, {0, 31}, {3, 13}}
	for _, l := range []odds.Level{odds.Low, odds.Mid, odds.High} {
		sims := simulateRyF(t, l)

		// the kept faces of the first round against KeptProbs
		want, err := odds.KeptProbs(l)
		if err != nil {
			t.Fatal(err)
		}
		obs := make([]int, 10)
		for _, f := range sims {
			obs[l.Engine().Keep([3]int(f[:3]))-1]++
		}
		fit, err := odds.ChiSquare(obs, want)
		if err != nil {
			t.Fatal(err)
		}
		if fit.PValue < 1e-4 {
			t.Errorf("%v: kept faces %v do not fit %v: %+v", l, obs, want, fit)
		}

		for _, kind := range []odds.Kind{odds.Skill, odds.Attribute} {
			base := engineCheck(t, kind.Checks()[0], l)
			rolled := distinctRolls(t, base, sims)
			for _, qq := range queries {
				q := odds.RyFQuery{Base: qq.base, Level: l, Difficulty: qq.diff, Kind: kind}
				o, err := odds.RyF(q)
				if err != nil {
					t.Fatal(err)
				}
				c := base
				c.Modifier += qq.base - engineBase
				c = c.WithDifficulty(qq.diff)
				var succ, crit, fum, nat1 int
				totals := map[int]int{}
				for _, r := range rolled {
					res, err := ryf.Roll(c, dice.NewFaces(r.faces...))
					if err != nil {
						t.Fatal(err)
					}
					n := r.n
					totals[res.Total] += n
					switch res.Outcome {
					case ryf.OutcomeFumble:
						fum += n
					case ryf.OutcomeNatural1:
						nat1 += n
					case ryf.OutcomeCritical:
						crit += n
						succ += n
					case ryf.OutcomeSuccess:
						succ += n
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
