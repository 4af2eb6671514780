package odds_test

import (
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
)

// engineBase is the base of every check the comparison rolls: with it, a
// roll whose first two rounds keep a 10 has a total of 31 or more, which
// succeeds against every difficulty compared (31 at most) and is critical, so
// its third round is drawn as any one (1, 1, 1) without changing a verdict.
const engineBase = 10

// engineCheck returns a valid check of the engine's kind c at level l with
// base engineBase: the token spent raises the level to high, the token
// just returned lowers it to low.
func engineCheck(t *testing.T, c ryf.Check, l odds.Level) ryf.Check {
	t.Helper()
	c.Attribute, c.AttributeValue = ryf.Attr("F"), 5
	switch c.Kind {
	case ryf.KindInitiative:
		c.Attribute, c.Attribute2, c.Attribute2Value = "D", "P", 4
	case ryf.KindSkill, ryf.KindMelee, ryf.KindRanged:
		c.Skill, c.Rank = "Pelea", 3
	}
	c.TokenSpent, c.TokenReturned = l == odds.High, l == odds.Low
	c.Modifier = engineBase - c.Base()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if lv, _ := ryf.ComputeLevel(c.LevelInput()); lv != l.Engine() {
		t.Fatalf("%s check at %v: the engine rolls it at %v", c.Kind, l, lv)
	}
	return c
}

// engineDifficulties are the difficulties compared: every verdict boundary
// of a base-10 roll that the first two rounds decide (no die part, the
// kept die's faces, one explosion, two, the critical total).
var engineDifficulties = [...]int{0, 1, 2, 10, 11, 12, 15, 19, 20, 21, 22, 25, 29, 30, 31}

// engineCounts are the engine's verdicts over every face, as counts out of
// 1000² (a roll decided by its first round weighs 1000, one decided by
// its second 1).
type engineCounts struct {
	success, critical [len(engineDifficulties)]int64 // by engineDifficulties
	fumble, natural1  int64
	totals            map[int]int64 // totals below engineBase+21
}

// enumerate rolls check c on every first round and, when the engine asks
// for more dice (it explodes), on every second round, the third (if the
// engine asks for it) being 1, 1, 1 (engineBase).
func enumerate(t *testing.T, c ryf.Check) engineCounts {
	t.Helper()
	out := engineCounts{totals: map[int]int64{}}
	// The engine's verdicts against every difficulty, once per total and
	// first-round flags: what Against judges a result by.
	type judged struct{ success, critical [len(engineDifficulties)]bool }
	type key struct {
		total            int
		fumble, natural1 bool
	}
	verdicts := map[key]judged{}
	add := func(res ryf.Result, w int64) {
		if res.Fumble {
			out.fumble += w
		} else if res.Natural1 {
			out.natural1 += w
		}
		if res.Total < engineBase+21 {
			out.totals[res.Total] += w
		}
		k := key{res.Total, res.Fumble, res.Natural1}
		v, ok := verdicts[k]
		if !ok {
			for i, d := range engineDifficulties {
				r := res.Against(d)
				v.success[i], v.critical[i] = r.Success, r.Critical
			}
			verdicts[k] = v
		}
		for i := range engineDifficulties {
			if v.success[i] {
				out.success[i] += w
			}
			if v.critical[i] {
				out.critical[i] += w
			}
		}
	}
	roll := func(faces ...int) (ryf.Result, bool) {
		res, err := ryf.Roll(c, dice.NewFaces(faces...))
		if errors.Is(err, dice.ErrExhausted) {
			return res, false
		}
		if err != nil {
			t.Fatal(err)
		}
		return res, true
	}
	var first []int
	for f := range 1000 {
		first = []int{f/100 + 1, f/10%10 + 1, f%10 + 1}
		if res, ok := roll(first...); ok {
			add(res, 1000)
			continue
		}
		for s := range 1000 {
			two := append(first[:3:3], s/100+1, s/10%10+1, s%10+1)
			res, ok := roll(two...)
			if !ok {
				if res, ok = roll(append(two, 1, 1, 1)...); !ok {
					t.Fatalf("%s roll of %v asks for a fourth round", c.Kind, two)
				}
			}
			add(res, 1)
		}
	}
	return out
}

// The exact odds of every kind and level are the engine's verdicts on
// every face: one model of the roll (odds.Kind.Checks, ryf.Level.Keep,
// ryf.Check.Explodes), checked end to end.
func TestOddsAgreeWithTheEngine(t *testing.T) {
	const den = 1000 * 1000
	exact := func(p odds.Prob) *big.Rat {
		r, ok := p.Rat()
		if !ok {
			t.Fatalf("probability %v is not exact", p)
		}
		return r
	}
	frac := func(n int64) *big.Rat { return big.NewRat(n, den) }
	for k := odds.Skill; k <= odds.Attribute; k++ {
		for _, kc := range k.Checks() {
			if kc.Explodes() != k.Explodes() {
				t.Errorf("%v: the engine's %s check (opposed %v) explodes %v, the odds say %v", k, kc.Kind, kc.Opposed, kc.Explodes(), k.Explodes())
			}
			for l := odds.Low; l <= odds.High; l++ {
				c := engineCheck(t, kc, l)
				got := enumerate(t, c)
				name := fmt.Sprintf("%v (%s, opposed %v) at %v", k, c.Kind, c.Opposed, l)
				for i, d := range engineDifficulties {
					o, err := odds.RyF(odds.RyFQuery{Base: engineBase, Level: l, Difficulty: d, Kind: k})
					if err != nil {
						t.Fatal(err)
					}
					for _, x := range []struct {
						what string
						odds odds.Prob
						n    int64
					}{
						{"success", o.Success, got.success[i]},
						{"critical", o.Critical, got.critical[i]},
						{"failure", o.Failure, den - got.success[i]},
						{"fumble", o.Fumble, got.fumble},
						{"natural 1", o.Natural1, got.natural1},
					} {
						if exact(x.odds).Cmp(frac(x.n)) != 0 {
							t.Errorf("%s vs %d: %s %v, the engine %v", name, d, x.what, x.odds, frac(x.n))
						}
					}
					if d > 0 {
						continue
					}
					for _, tp := range o.Totals {
						if tp.Total < engineBase+21 && exact(tp.Prob).Cmp(frac(got.totals[tp.Total])) != 0 {
							t.Errorf("%s: total %d: %v, the engine %v", name, tp.Total, tp.Prob, frac(got.totals[tp.Total]))
						}
					}
				}
			}
		}
	}
}
