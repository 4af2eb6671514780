package ryf

import (
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
)

// Kind is a kind of 1o3d10 roll.
type Kind string

// The kinds of roll. Opposed rolls are pairs of skill or attribute rolls
// judged by Contest.
const (
	KindSkill      Kind = "skill"      // attribute + skill + modifier
	KindAttribute  Kind = "attribute"  // 2 × attribute + modifier; no explosion, no natural 1 unless opposed
	KindInitiative Kind = "initiative" // Destreza + Percepción + modifier
	KindMelee      Kind = "melee"      // Fuerza + skill + precision + modifier, vs Defense
	KindRanged     Kind = "ranged"     // Destreza + skill + precision + modifier, vs range difficulty
)

// usesSkill reports whether the kind adds a skill rank (and so is a skill
// roll for the rank-0 and specialization rules).
func (k Kind) usesSkill() bool { return k == KindSkill || k == KindMelee || k == KindRanged }

// explodes reports whether a kept 10 explodes and a kept 1 in the first
// round is a natural 1: every kind but attribute rolls, and every side of an
// opposed roll, attribute sides included (docs/rules.md 1.5).
func (c Check) explodes() bool { return c.Kind != KindAttribute || c.Opposed }

// Limits of a Check.
const (
	MaxModifier = 100
	// MinDifficulty and MaxDifficulty bound the difficulties a roll may face.
	MinDifficulty = 0
	MaxDifficulty = 100
	// CriticalTotal is the least total of a critical success.
	CriticalTotal = 30
	// MaxRounds caps the rounds of one 1o3d10 roll (ErrRunaway).
	MaxRounds = 100
)

// Check is everything one 1o3d10 roll needs; a roll event records it as its
// inputs. Build one with the Rules' SkillCheck, AttributeCheck,
// InitiativeCheck, MeleeCheck or RangedCheck, then set the flags the
// situation calls for.
type Check struct {
	Kind Kind `json:"kind"`
	// Attribute and AttributeValue: the attribute added (doubled in an
	// attribute roll); Destreza in initiative rolls.
	Attribute      Attr `json:"attribute"`
	AttributeValue int  `json:"attribute_value"`
	// Attribute2 and Attribute2Value: Percepción in initiative rolls; empty otherwise.
	Attribute2      Attr `json:"attribute2,omitempty"`
	Attribute2Value int  `json:"attribute2_value,omitempty"`
	// Skill and Rank: the skill of skill, melee and ranged rolls.
	Skill string `json:"skill,omitempty"`
	Rank  int    `json:"rank"`
	// Weapon and Precision: the weapon of melee and ranged rolls.
	Weapon    string `json:"weapon,omitempty"`
	Precision int    `json:"precision,omitempty"`
	// Modifier: the GM's modifiers, added to the total.
	Modifier int `json:"modifier,omitempty"`
	// Difficulty: what the total must reach (a difficulty, a Defense or a
	// range difficulty); nil when the roll has none (initiative, opposed).
	Difficulty *int `json:"difficulty,omitempty"`
	// The level conditions (see LevelInput).
	Specialization bool `json:"specialization,omitempty"`
	TokenSpent     bool `json:"token_spent,omitempty"`
	TokenReturned  bool `json:"token_returned,omitempty"`
	Incapacitated  bool `json:"incapacitated,omitempty"`
	// Opposed: the roll is one side of an opposed roll (a skill or an
	// attribute roll). An opposed attribute roll explodes and has a natural
	// 1 like a skill roll (docs/rules.md 1.5, decision; rules RulesV2). A
	// roll recorded before that decision (RulesV1) has no flag and is judged
	// as it was made: an attribute side without the flag neither explodes
	// nor has a natural 1.
	Opposed bool `json:"opposed,omitempty"`
}

// WithDifficulty returns a copy of the check against difficulty n.
func (c Check) WithDifficulty(n int) Check {
	c.Difficulty = &n
	return c
}

// LevelInput returns what decides the check's level.
func (c Check) LevelInput() LevelInput {
	return LevelInput{
		Specialization: c.Specialization,
		RankZero:       c.Kind.usesSkill() && c.Rank == 0,
		TokenSpent:     c.TokenSpent,
		TokenReturned:  c.TokenReturned,
		Incapacitated:  c.Incapacitated,
	}
}

// Term is one named number added into a roll's base.
type Term struct {
	Name  string `json:"name"`
	Value int    `json:"value"`
}

// Terms returns what adds up to the check's base, for explaining it:
// attributes (doubled in attribute rolls), skill, precision, modifier.
func (c Check) Terms() []Term {
	t := make([]Term, 0, 4)
	switch c.Kind {
	case KindAttribute:
		t = append(t, Term{"2 × " + c.Attribute.Name(), 2 * c.AttributeValue})
	case KindInitiative:
		t = append(t, Term{c.Attribute.Name(), c.AttributeValue}, Term{c.Attribute2.Name(), c.Attribute2Value})
	default:
		t = append(t, Term{c.Attribute.Name(), c.AttributeValue}, Term{c.Skill, c.Rank})
	}
	if c.Weapon != "" || c.Precision != 0 {
		t = append(t, Term{strings.TrimSpace("precisión " + c.Weapon), c.Precision})
	}
	if c.Modifier != 0 {
		t = append(t, Term{"modificador", c.Modifier})
	}
	return t
}

// Base returns the sum of the check's terms: the total before the die part.
func (c Check) Base() int {
	switch c.Kind {
	case KindAttribute:
		return 2*c.AttributeValue + c.Modifier
	case KindInitiative:
		return c.AttributeValue + c.Attribute2Value + c.Modifier
	}
	return c.AttributeValue + c.Rank + c.Precision + c.Modifier
}

// Validate checks that the fields fit the kind and the rule ranges:
// attributes 2..10, rank 0..10, precision -10..10, modifier -100..100,
// difficulty 0..100, specialization only with a skill. Errors wrap
// ErrInvalidCheck or ErrOutOfRange.
func (c Check) Validate() error {
	bad := func(format string, args ...any) error {
		return msgerr.Errorf("%w: %s roll: %s", ErrInvalidCheck, c.Kind, msgerr.Errorf(format, args...))
	}
	rng := func(what string, v, lo, hi int) error {
		if v < lo || v > hi {
			return msgerr.Errorf("%w: %s %d, want %d..%d", ErrOutOfRange, what, v, lo, hi)
		}
		return nil
	}
	switch c.Kind {
	case KindSkill, KindAttribute, KindInitiative, KindMelee, KindRanged:
	default:
		return msgerr.Errorf("%w: unknown kind %q", ErrInvalidCheck, clip.Text(c.Kind))
	}
	if c.Attribute.Name() == "" {
		return bad("unknown attribute %q", clip.Text(c.Attribute))
	}
	if err := rng(c.Attribute.Name(), c.AttributeValue, MinAttribute, MaxAttribute); err != nil {
		return err
	}
	if c.Kind == KindInitiative {
		if c.Attribute2.Name() == "" {
			return bad("unknown second attribute %q", clip.Text(c.Attribute2))
		}
		if err := rng(c.Attribute2.Name(), c.Attribute2Value, MinAttribute, MaxAttribute); err != nil {
			return err
		}
	} else if c.Attribute2 != "" || c.Attribute2Value != 0 {
		return bad("a second attribute belongs to initiative rolls only")
	}
	if c.Kind.usesSkill() {
		if c.Skill == "" {
			return bad("no skill")
		}
		if err := rng("rank of "+c.Skill, c.Rank, MinRank, MaxRank); err != nil {
			return err
		}
	} else {
		if c.Skill != "" || c.Rank != 0 {
			return bad("no skill belongs in it")
		}
		if c.Specialization {
			return bad("the specialization applies to skill rolls only")
		}
	}
	if c.Opposed && c.Kind != KindSkill && c.Kind != KindAttribute {
		return bad("only a skill or an attribute roll can be a side of an opposed roll")
	}
	if c.Kind != KindMelee && c.Kind != KindRanged && (c.Weapon != "" || c.Precision != 0) {
		return bad("a weapon belongs to attack rolls only")
	}
	if err := rng("precision", c.Precision, MinPrecision, MaxPrecision); err != nil {
		return err
	}
	if err := rng("modifier", c.Modifier, -MaxModifier, MaxModifier); err != nil {
		return err
	}
	if c.Difficulty != nil {
		if err := rng("difficulty", *c.Difficulty, MinDifficulty, MaxDifficulty); err != nil {
			return err
		}
	}
	return nil
}

// Round is one throw of three d10 and the die its level kept.
type Round struct {
	Dice [3]int `json:"dice"`
	Kept int    `json:"kept"`
}

// Outcome is the verdict of a roll.
type Outcome string

// The outcomes. A roll without a difficulty is "rolled" unless it is a
// fumble or a natural 1.
const (
	OutcomeSuccess  Outcome = "success"
	OutcomeFailure  Outcome = "failure"
	OutcomeCritical Outcome = "critical" // a success with total ≥ 30
	OutcomeFumble   Outcome = "fumble"   // three 1s in the first round
	OutcomeNatural1 Outcome = "natural1" // kept 1 in the first round
	OutcomeRolled   Outcome = "rolled"   // no difficulty to judge against
)

// Result is a made 1o3d10 roll: its inputs, level and why, every round's
// faces and kept die, the sums, the flags and the outcome.
type Result struct {
	Check        Check    `json:"check"`
	Level        Level    `json:"level"`
	LevelReasons []string `json:"level_reasons"`
	Rounds       []Round  `json:"rounds"`
	Base         int      `json:"base"`
	DiePart      int      `json:"die_part"` // the kept dice of all rounds
	Total        int      `json:"total"`
	Exploded     bool     `json:"exploded"`
	Natural1     bool     `json:"natural1"`
	Fumble       bool     `json:"fumble"`
	Critical     bool     `json:"critical"`
	Success      bool     `json:"success"`
	Outcome      Outcome  `json:"outcome"`
}

// Faces returns every face of the roll in draw order: three per round.
func (r Result) Faces() []int {
	out := make([]int, 0, 3*len(r.Rounds))
	for _, rd := range r.Rounds {
		out = append(out, rd.Dice[:]...)
	}
	return out
}

// Kept returns the kept die of every round, in order.
func (r Result) Kept() []int {
	out := make([]int, 0, len(r.Rounds))
	for _, rd := range r.Rounds {
		out = append(out, rd.Kept)
	}
	return out
}

// Roll makes a 1o3d10 roll. It draws three d10 per round from r, keeps one
// by the check's level, and, except in attribute rolls, rolls again at the
// same level while the kept die is 10, adding 10 each time (attribute rolls
// explode only as a side of an opposed roll, Check.Opposed). Then:
//   - fumble: the first round shows three 1s — failure in every kind;
//   - natural 1: the first round's kept die is 1 (not in attribute rolls
//     outside opposed rolls) — failure whatever the total;
//   - otherwise success when the total reaches the difficulty, critical
//     when it is also 30 or more; "rolled" when there is no difficulty.
//
// An invalid check, a roller error or a face outside 1..10 returns an error
// and no result.
func Roll(c Check, r dice.Roller) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	if r == nil {
		return Result{}, msgerr.Errorf("%w: no dice roller", ErrInvalidCheck)
	}
	level, reasons := ComputeLevel(c.LevelInput())
	res := Result{Check: c, Level: level, LevelReasons: reasons, Base: c.Base(), Rounds: make([]Round, 0, 2)}
	explodes := c.explodes()
	for {
		if len(res.Rounds) == MaxRounds {
			return Result{}, msgerr.Errorf("%w: %d rounds of 1o3d10", ErrRunaway, MaxRounds)
		}
		var rd Round
		for i := range rd.Dice {
			f, err := rollDie(r, 10)
			if err != nil {
				return Result{}, msgerr.Errorf("1o3d10 round %d die %d: %w", len(res.Rounds)+1, i+1, err)
			}
			rd.Dice[i] = f
		}
		rd.Kept = level.Keep(rd.Dice)
		res.Rounds = append(res.Rounds, rd)
		res.DiePart += rd.Kept
		if !explodes || rd.Kept != 10 {
			break
		}
	}
	first := res.Rounds[0]
	res.Total = res.Base + res.DiePart
	res.Exploded = len(res.Rounds) > 1
	res.Fumble = first.Dice == [3]int{1, 1, 1}
	res.Natural1 = explodes && first.Kept == 1
	res.judge()
	return res, nil
}

// Against returns the same roll, the same dice, judged against difficulty
// d instead: what the roll would have been had it faced d. The odds
// (rules/odds) and their tests judge the engine's rolls so.
func (r Result) Against(d int) Result {
	r.Check = r.Check.WithDifficulty(d)
	r.judge()
	return r
}

// judge sets the verdict from the total, the first round's flags and the
// check's difficulty.
func (r *Result) judge() {
	r.Success, r.Critical = false, false
	switch {
	case r.Fumble:
		r.Outcome = OutcomeFumble
	case r.Natural1:
		r.Outcome = OutcomeNatural1
	case r.Check.Difficulty == nil:
		r.Outcome = OutcomeRolled
	case r.Total >= *r.Check.Difficulty:
		r.Success = true
		r.Outcome = OutcomeSuccess
		if r.Total >= CriticalTotal {
			r.Critical = true
			r.Outcome = OutcomeCritical
		}
	default:
		r.Outcome = OutcomeFailure
	}
}

// failed reports whether a roll fails whatever its total: a fumble or a natural 1.
func (r Result) failed() bool { return r.Fumble || r.Natural1 }

// ContestResult is the verdict of an opposed roll.
type ContestResult struct {
	// Winner is 1 or 2 for the first or second side, 0 for a tie (the GM
	// decides or asks for a re-roll).
	Winner int `json:"winner"`
	// Reason explains the verdict.
	Reason string `json:"reason"`
	// Critical: the winner's total is 30 or more.
	Critical bool `json:"critical,omitempty"`
}

// The reasons Contest gives.
const (
	ContestHigher     = "higher total"
	ContestEqual      = "equal totals"
	ContestOneFailed  = "natural 1 or fumble loses"
	ContestBothFailed = "both natural 1 or fumble"
)

// Contest judges an opposed roll from its two sides' results (their
// difficulties, if any, are ignored). A side with a natural 1 or a fumble
// loses; both so is a tie; else the higher total wins and equal totals tie.
// The winner's roll is critical when its total is 30 or more.
func Contest(a, b Result) ContestResult {
	var out ContestResult
	switch {
	case a.failed() && b.failed():
		out.Reason = ContestBothFailed
	case a.failed():
		out.Winner, out.Reason = 2, ContestOneFailed
	case b.failed():
		out.Winner, out.Reason = 1, ContestOneFailed
	case a.Total > b.Total:
		out.Winner, out.Reason = 1, ContestHigher
	case b.Total > a.Total:
		out.Winner, out.Reason = 2, ContestHigher
	default:
		out.Reason = ContestEqual
	}
	switch out.Winner {
	case 1:
		out.Critical = a.Total >= CriticalTotal
	case 2:
		out.Critical = b.Total >= CriticalTotal
	}
	return out
}

// The named difficulties (docs/rules.md 1.5).
const (
	Facil     = 10
	Media     = 15
	Dificil   = 20
	Insolito  = 25
	Imposible = 30
)

// difficulties are the named difficulties, built once: lookups only read them.
var difficulties = difficultyIndex()

func difficultyIndex() []entry[int] {
	return []entry[int]{
		newEntry("fácil", Facil),
		newEntry("media", Media),
		newEntry("difícil", Dificil),
		newEntry("insólito", Insolito),
		newEntry("imposible", Imposible),
	}
}

// ParseDifficulty reads a difficulty: a name (fácil 10, media 15, difícil
// 20, insólito 25, imposible 30; no accents needed, any case, unique prefix)
// or an integer 0..100.
func ParseDifficulty(s string) (int, error) {
	t := strings.TrimSpace(s)
	if t != "" && (t[0] == '+' || t[0] == '-' || (t[0] >= '0' && t[0] <= '9')) {
		n, err := strconv.Atoi(t)
		if err != nil {
			return 0, msgerr.Errorf("%w: difficulty %q: want a name or an integer", ErrSyntax, clip.Text(s))
		}
		if n < MinDifficulty || n > MaxDifficulty {
			return 0, msgerr.Errorf("%w: difficulty %d, want %d..%d", ErrOutOfRange, n, MinDifficulty, MaxDifficulty)
		}
		return n, nil
	}
	return find("difficulty", s, difficulties, ErrUnknownDifficulty)
}

// DifficultyName returns the name of a named difficulty ("difícil" for 20),
// or "" for any other number.
func DifficultyName(n int) string {
	for _, e := range difficulties {
		if e.value == n {
			return e.display
		}
	}
	return ""
}
