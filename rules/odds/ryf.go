package odds

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/ryf"
)

// The odds of a RyF roll are computed on the engine's own model of the
// roll (rules/ryf): which die a level keeps is ryf.Level.Keep, which kinds
// explode and have a natural 1 is ryf.Check.Explodes, the critical total
// is ryf.CriticalTotal. TestOddsAgreeWithTheEngine compares the exact
// odds of every kind and level with the engine's verdicts on every face.

// Level selects the kept die of 1o3d10 (docs/rules.md §1.5). The zero value is
// not a level.
type Level int

// The three levels of the kept die.
const (
	Low  Level = iota + 1 // the lowest of the three dice
	Mid                   // the median
	High                  // the highest
)

var levelNames = [...]string{Low: "low", Mid: "mid", High: "high"}

// Engine returns the engine's level l is (ryf.Low, ryf.Mid, ryf.High).
func (l Level) Engine() ryf.Level { return ryf.Level(l - Low) }

// Valid reports whether l is Low, Mid or High.
func (l Level) Valid() bool { return l >= Low && l <= High }

// String returns "low", "mid" or "high" (or "level(N)" when invalid).
func (l Level) String() string {
	if !l.Valid() {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel reads "low", "mid" or "high" in any case.
func ParseLevel(s string) (Level, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for l := Low; l <= High; l++ {
		if levelNames[l] == t {
			return l, nil
		}
	}
	return 0, msgerr.Errorf("%w: level %q (want low, mid or high)", ErrInvalid, clip.Text(s))
}

// MarshalText encodes the level as its name.
func (l Level) MarshalText() ([]byte, error) {
	if !l.Valid() {
		return nil, msgerr.Errorf("%w: level %d out of range", ErrInvalid, int(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText decodes a level name.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// Kind is the kind of a RyF roll. The zero value is not a kind.
type Kind int

// Kinds of RyF roll. Skill, Opposed and Combat rolls explode and suffer the
// natural 1; Attribute rolls do neither. The fumble applies to all.
// An opposed roll is Opposed whether its side rolls a skill or an attribute
// (docs/rules.md 1.5).
const (
	Skill Kind = iota + 1
	Opposed
	Combat
	Attribute
)

var kindNames = [...]string{Skill: "skill", Opposed: "opposed", Combat: "combat", Attribute: "attribute"}

// kindChecks are the engine's checks each kind stands for (their inputs
// besides kind and flags left zero).
var kindChecks = [...][]ryf.Check{
	Skill:     {{Kind: ryf.KindSkill}, {Kind: ryf.KindInitiative}},
	Opposed:   {{Kind: ryf.KindSkill, Opposed: true}, {Kind: ryf.KindAttribute, Opposed: true}},
	Combat:    {{Kind: ryf.KindMelee}, {Kind: ryf.KindRanged}},
	Attribute: {{Kind: ryf.KindAttribute}},
}

// Checks returns the kinds of the engine's checks k stands for (nil when
// k is not a kind): the odds of k are those of each of them.
func (k Kind) Checks() []ryf.Check {
	if !k.Valid() {
		return nil
	}
	return kindChecks[k]
}

// Valid reports whether k is one of the four kinds.
func (k Kind) Valid() bool { return k >= Skill && k <= Attribute }

// String returns the kind's name (or "kind(N)" when invalid).
func (k Kind) String() string {
	if !k.Valid() {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// ParseKind reads "skill", "opposed", "combat" or "attribute" in any case.
func ParseKind(s string) (Kind, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for k := Skill; k <= Attribute; k++ {
		if kindNames[k] == t {
			return k, nil
		}
	}
	return 0, msgerr.Errorf("%w: kind %q (want skill, opposed, combat or attribute)", ErrInvalid, clip.Text(s))
}

// MarshalText encodes the kind as its name.
func (k Kind) MarshalText() ([]byte, error) {
	if !k.Valid() {
		return nil, msgerr.Errorf("%w: kind %d out of range", ErrInvalid, int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a kind name.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// Explodes reports whether rolls of this kind explode and suffer the
// natural 1: the engine's rule (ryf.Check.Explodes) for the checks it
// stands for.
func (k Kind) Explodes() bool { return k.Valid() && kindChecks[k][0].Explodes() }

// Outcomes is the number of equally likely outcomes of 3d10.
const Outcomes = 1000

// CriticalTotal is the least total of a critical success (the engine's).
const CriticalTotal = ryf.CriticalTotal

// MaxBase bounds |Base| of a RyF query; larger bases are refused.
const MaxBase = 1_000_000

// TruncationMass is the bound on the probability mass left out of a
// truncated distribution of totals.
const TruncationMass = 1e-15

// maxExactRounds is the largest number of explosions for which a success
// probability is given as an exact fraction (its denominator is at most
// 1000^(maxExactRounds+1)); beyond it (difficulty − base > 650) the
// probability is below 0.271^65 < 1e-36 and is given as a float only.
const maxExactRounds = 64

// keptCounts[l][f] is the number of the 1000 outcomes (a,b,c) of 3d10 whose
// kept die at level l shows f (1..10). Built by enumeration.
var keptCounts = buildKeptCounts()

func buildKeptCounts() [4][11]int64 {
	var t [4][11]int64
	for a := 1; a <= 10; a++ {
		for b := 1; b <= 10; b++ {
			for c := 1; c <= 10; c++ {
				for l := Low; l <= High; l++ {
					t[l][l.Engine().Keep([3]int{a, b, c})]++
				}
			}
		}
	}
	return t
}

// atLeast[l][r] = number of outcomes whose kept die at level l is ≥ r, r in 1..11.
var atLeast = buildAtLeast()

func buildAtLeast() [4][12]int64 {
	var t [4][12]int64
	for l := Low; l <= High; l++ {
		for r := 10; r >= 1; r-- {
			t[l][r] = t[l][r+1] + keptCounts[l][r]
		}
	}
	return t
}

// KeptCounts returns, for the kept die of 1o3d10 at level l, how many of the
// 1000 equally likely outcomes of 3d10 keep each face: counts[f-1] for face f.
// The counts sum to 1000. Low keeps face 1 in 271 outcomes; Mid keeps face k in
// 6(k-1)(10-k)+3(k-1)+3(10-k)+1; High keeps face 10 in 271.
func KeptCounts(l Level) ([10]int, error) {
	var out [10]int
	if !l.Valid() {
		return out, msgerr.Errorf("%w: level %d out of range", ErrInvalid, int(l))
	}
	for f := 1; f <= 10; f++ {
		out[f-1] = int(keptCounts[l][f])
	}
	return out, nil
}

// KeptProbs returns the expected distribution of the kept die's face at
// level l: probs[f-1] = KeptCounts(l)[f-1]/1000, ready for ChiSquare. Every
// round of an explosion keeps its die at the same level, so the kept faces
// of all rounds follow this distribution.
func KeptProbs(l Level) ([]float64, error) {
	c, err := KeptCounts(l)
	if err != nil {
		return nil, err
	}
	out := make([]float64, 10)
	for i, n := range c {
		out[i] = float64(n) / Outcomes
	}
	return out, nil
}

// RyFQuery asks for the odds of one RyF roll: total = Base + die part,
// against Difficulty. Base is attribute + skill + modifiers (skill roll) or
// 2 × attribute + modifiers (attribute roll).
type RyFQuery struct {
	Base       int   `json:"base"`
	Level      Level `json:"level"`
	Difficulty int   `json:"difficulty"`
	Kind       Kind  `json:"kind"`
}

// TotalProb is the probability of one total.
type TotalProb struct {
	Total int `json:"total"`
	Prob
}

// RyFOdds are the exact odds of a RyF roll.
type RyFOdds struct {
	Query RyFQuery `json:"query"`
	// Success: total ≥ difficulty, without fumble or (exploding kinds) natural 1.
	Success Prob `json:"success"`
	// Critical: a success with total ≥ 30 (a part of Success).
	Critical Prob `json:"critical"`
	// Fumble: all three first-round dice show 1 (1/1000, every kind and level).
	Fumble Prob `json:"fumble"`
	// Natural1: the first-round kept die is 1 but the roll is no fumble
	// (exploding kinds only; 0 for attribute rolls).
	Natural1 Prob `json:"natural_1"`
	// Failure = 1 − Success: every failure, fumbles and natural 1s included.
	Failure Prob `json:"failure"`
	// Totals is the distribution of the total, ascending, whatever the
	// success; totals of probability 0 are left out. When Truncated, the
	// totals above the last one listed are left out and their mass is Tail
	// (< TruncationMass).
	Totals    []TotalProb `json:"totals"`
	Truncated bool        `json:"truncated"`
	Tail      Prob        `json:"tail"`
}

// TotalMap returns the distribution of the total as a map total → probability.
func (o RyFOdds) TotalMap() map[int]float64 {
	m := make(map[int]float64, len(o.Totals))
	for _, t := range o.Totals {
		m[t.Total] = t.P
	}
	return m
}

// dieTable is the distribution of the die part D of an exploding roll at
// one level: P(D = 10m + j) = q^m·p_j for m ≥ 0 and j in 1..9, where p_j is
// the probability of a kept j and q = p_10, listed ascending for m < M, the
// least M with q^M < TruncationMass; tail = q^M is the mass left out, all of
// it above the last listed value.
type dieTable struct {
	points []TotalProb // Total holds D
	tail   Prob
}

// explodingTables (tables.go, generated and checked by TestTables) holds the
// dieTable of each level, with exact fractions.

// keptTotals returns the distribution of base + the kept die (no explosion).
func keptTotals(l Level, base int) []TotalProb {
	out := make([]TotalProb, 0, 10)
	for f := 1; f <= 10; f++ {
		out = append(out, TotalProb{Total: base + f, Prob: fracProb(keptCounts[l][f], Outcomes)})
	}
	return out
}

// dieAtLeast returns P(D ≥ t) for the die part at level l: exact as a
// *big.Rat when possible (nil otherwise), and as a float.
func dieAtLeast(l Level, explode bool, t int) (*big.Rat, float64) {
	if t <= 1 {
		return big.NewRat(1, 1), 1
	}
	if !explode {
		if t > 10 {
			return new(big.Rat), 0
		}
		r := big.NewRat(atLeast[l][t], Outcomes)
		f, _ := r.Float64()
		return r, f
	}
	// D ≥ t with t = 10m + r, r in 1..10: at least m explosions, and then
	// the kept die of round m is ≥ r (a 10 there is a further explosion).
	m := (t - 1) / 10
	r := t - 10*m
	if m > maxExactRounds {
		q := float64(keptCounts[l][10]) / Outcomes
		return nil, math.Pow(q, float64(m)) * float64(atLeast[l][r]) / Outcomes
	}
	num := new(big.Int).Exp(big.NewInt(keptCounts[l][10]), big.NewInt(int64(m)), nil)
	num.Mul(num, big.NewInt(atLeast[l][r]))
	den := new(big.Int).Exp(big.NewInt(Outcomes), big.NewInt(int64(m+1)), nil)
	rat := new(big.Rat).SetFrac(num, den)
	f, _ := rat.Float64()
	return rat, f
}

// satSub returns a − b clamped to the int range.
func satSub(a, b int) int {
	if b > 0 && a < math.MinInt+b {
		return math.MinInt
	}
	if b < 0 && a > math.MaxInt+b {
		return math.MaxInt
	}
	return a - b
}

func mkProb(r *big.Rat, f float64) Prob {
	if r == nil {
		return Prob{P: f}
	}
	return ratProb(r)
}

// RyF returns the exact odds of a RyF 1o3d10 roll (docs/rules.md §1.5).
//
// The die part D is the kept die; for skill, opposed and combat rolls a kept
// 10 adds 10 and rolls 1o3d10 again at the same level, while it is 10.
// Success is Base + D ≥ Difficulty without a fumble (three 1s in the first
// round) and, for those kinds, without a natural 1 (first kept die 1).
// Success probabilities are exact fractions unless the difficulty needs more
// than 64 explosions (probability below 1e-36), where they are floats.
func RyF(q RyFQuery) (RyFOdds, error) {
	if !q.Level.Valid() {
		return RyFOdds{}, msgerr.Errorf("%w: level %d out of range (want low, mid or high)", ErrInvalid, int(q.Level))
	}
	if !q.Kind.Valid() {
		return RyFOdds{}, msgerr.Errorf("%w: kind %d out of range", ErrInvalid, int(q.Kind))
	}
	if q.Base < -MaxBase || q.Base > MaxBase {
		return RyFOdds{}, msgerr.Errorf("%w: base %d out of range (|base| ≤ %d)", ErrInvalid, q.Base, MaxBase)
	}
	l, explode := q.Level, q.Kind.Explodes()
	t := satSub(q.Difficulty, q.Base)  // the die part must reach t
	tc := max(t, CriticalTotal-q.Base) // … and tc for a critical
	fumble := big.NewRat(1, Outcomes)

	var succ, crit, nat1 *big.Rat
	var succF, critF float64
	if explode {
		// D = 1 exactly when the first kept die is 1: natural 1 or fumble.
		succ, succF = dieAtLeast(l, true, max(t, 2))
		crit, critF = dieAtLeast(l, true, max(tc, 2))
		nat1 = big.NewRat(keptCounts[l][1]-1, Outcomes)
	} else {
		succ, succF = dieAtLeast(l, false, t)
		crit, critF = dieAtLeast(l, false, tc)
		// D ≥ t ≤ 1 counts the fumble, which always fails.
		if t <= 1 {
			succ = new(big.Rat).Sub(succ, fumble)
			succF, _ = succ.Float64()
		}
		if tc <= 1 {
			crit = new(big.Rat).Sub(crit, fumble)
			critF, _ = crit.Float64()
		}
		nat1 = new(big.Rat)
	}

	o := RyFOdds{
		Query:    q,
		Success:  mkProb(succ, succF),
		Critical: mkProb(crit, critF),
		Fumble:   ratProb(fumble),
		Natural1: ratProb(nat1),
	}
	if succ != nil {
		o.Failure = ratProb(new(big.Rat).Sub(big.NewRat(1, 1), succ))
	} else {
		o.Failure = Prob{P: 1 - succF}
	}

	if !explode {
		o.Totals, o.Tail = keptTotals(l, q.Base), Prob{P: 0, Exact: "0/1"}
		return o, nil
	}
	d := explodingTables[l]
	o.Totals = make([]TotalProb, len(d.points))
	for i, p := range d.points {
		o.Totals[i] = TotalProb{Total: q.Base + p.Total, Prob: p.Prob}
	}
	o.Truncated, o.Tail = true, d.tail
	return o, nil
}
