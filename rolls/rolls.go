// Package rolls is the one place where rule results become roll events and
// roll events are judged again by the rules.
//
// Invariants: for every roll event E built here from a rule result,
// Rejudge(E) reproduces E's rule-derived fields (total, outcome, kept dice,
// flags) from E's inputs and faces alone. Recording and auditing therefore
// cannot disagree about what the rules say. The package is pure.
package rolls

import (
	"fmt"
	"slices"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// Kinds of roll events beyond the 1o3d10 kinds of ryf.Kind.
const (
	KindDamage = "damage" // a weapon's damage dice
	KindHeal   = "heal"   // the after-combat 1d6
	KindTOR    = "tor"    // a One Ring feat die and success dice
	KindFree   = "free"   // a free roll of a dice expression (dice.ParseExpr)
)

// ErrMismatch marks a roll event that disagrees with the rules or its dice.
var ErrMismatch = msgerr.New("roll does not match the rules")

// The From functions stamp the roll with its engine's rules version today
// (ryf.RulesVersion, tor.RulesVersion, dice.RulesVersion): the one place
// the command layer takes it from.

// FromRyF returns the rule-derived part of a roll event for a 1o3d10 result.
// The caller adds character, nonce, entropy and context (target, range).
func FromRyF(system string, res ryf.Result) events.RollMade {
	c := res.Check
	return events.RollMade{
		System: system, Rules: ryf.RulesVersion, Kind: string(c.Kind), Skill: c.Skill, Attribute: string(c.Attribute),
		AttributeValue: c.AttributeValue, Attribute2: string(c.Attribute2), Attribute2Value: c.Attribute2Value,
		Rank: c.Rank, Modifier: c.Modifier, Precision: c.Precision, Weapon: c.Weapon,
		Difficulty: c.Difficulty, Specialization: c.Specialization, Token: c.TokenSpent,
		TokenReturned: c.TokenReturned, Incapacitated: c.Incapacitated, Opposed: c.Opposed,
		Base: res.Base, Level: res.Level.String(), LevelReasons: res.LevelReasons,
		Dice: "1o3d10", Faces: res.Faces(), Kept: res.Kept(), DiePart: res.DiePart, Total: res.Total,
		Outcome: string(res.Outcome), Critical: res.Critical, Fumble: res.Fumble, Natural1: res.Natural1,
		Exploded: res.Exploded,
	}
}

// CheckOf returns the 1o3d10 check a roll event records.
func CheckOf(e events.RollMade) ryf.Check {
	return ryf.Check{
		Kind: ryf.Kind(e.Kind), Attribute: ryf.Attr(e.Attribute), AttributeValue: e.AttributeValue,
		Attribute2: ryf.Attr(e.Attribute2), Attribute2Value: e.Attribute2Value,
		Skill: e.Skill, Rank: e.Rank, Weapon: e.Weapon, Precision: e.Precision, Modifier: e.Modifier,
		Difficulty: e.Difficulty, Specialization: e.Specialization, TokenSpent: e.Token,
		TokenReturned: e.TokenReturned, Incapacitated: e.Incapacitated, Opposed: e.Opposed,
	}
}

// FromDamage returns the rule-derived part of a damage roll event.
func FromDamage(system string, d ryf.DamageRoll) events.RollMade {
	return events.RollMade{
		System: system, Rules: ryf.RulesVersion, Kind: KindDamage, Dice: d.Dice.String(), Faces: d.Faces(),
		DiePart: d.DiceSum, Total: d.Total, Critical: d.Critical, Outcome: "rolled",
		Exploded: len(d.Faces()) > d.Dice.Count,
	}
}

// FromHeal returns the rule-derived part of the after-combat healing die.
func FromHeal(system string, h ryf.AfterCombat) events.RollMade {
	return events.RollMade{
		System: system, Rules: ryf.RulesVersion, Kind: KindHeal, Dice: "1d6", Faces: []int{h.Face}, Total: h.Face, Outcome: "rolled",
	}
}

// FromFree returns the rule-derived part of a free roll of x that drew
// faces for total.
func FromFree(system string, x dice.Expr, faces []int, total int) events.RollMade {
	return events.RollMade{System: system, Rules: dice.RulesVersion, Kind: KindFree, Dice: x.String(), Faces: faces, Total: total, Outcome: "rolled"}
}

// FreeExpr reads a free roll's recorded expression, which must be in the
// one spelling the journal records (dice.Expr.String).
func FreeExpr(text string) (dice.Expr, error) {
	x, err := dice.ParseExpr(text)
	if err != nil {
		return x, msgerr.Errorf("%w: %w", ErrMismatch, err)
	}
	if x.String() != text {
		return x, msgerr.Errorf("%w: dice %q is not written as the journal writes it, %q", ErrMismatch, text, x.String())
	}
	return x, nil
}

// FromTOR returns the rule-derived part of a One Ring roll event.
func FromTOR(res tor.Result) events.RollMade {
	return events.RollMade{
		System: events.SystemTOR, Rules: tor.RulesVersion, Kind: KindTOR, Dice: fmt.Sprintf("d12+%dd6", len(res.SuccessDice)),
		Rank: len(res.SuccessDice), TN: res.TN, Feat: res.Feat, Faces: res.Faces(),
		Eye: res.Eye, Rune: res.Rune, Total: res.Total, Quality: string(res.Quality), Outcome: string(res.Outcome),
	}
}

// Dice returns the sides of every die a roll event's faces were drawn as,
// in draw order, or an error when the event does not say enough to know.
// A 1o3d10 roll is all d10; a damage roll draws each die and its
// explosions; a TOR roll is a d12 then d6s.
func Dice(e events.RollMade) ([]int, error) {
	switch e.Kind {
	case KindDamage:
		d, err := ryf.ParseDamage(e.Dice)
		if err != nil {
			return nil, err
		}
		return repeat(d.Sides, len(e.Faces)), nil
	case KindHeal:
		return repeat(6, len(e.Faces)), nil
	case KindFree:
		x, err := FreeExpr(e.Dice)
		if err != nil {
			return nil, err
		}
		return x.Sides(), nil
	case KindTOR:
		if len(e.Faces) == 0 {
			return nil, msgerr.Errorf("%w: no faces", ErrMismatch)
		}
		return append([]int{tor.FeatSides}, repeat(tor.SuccessSides, len(e.Faces)-1)...), nil
	}
	return repeat(10, len(e.Faces)), nil
}

func repeat(n, count int) []int {
	out := make([]int, count)
	for i := range out {
		out[i] = n
	}
	return out
}

// Rejudge recomputes a roll event's rule-derived fields from its inputs and
// faces, with the judge of its rules version (Version), and returns them as
// an event. It returns ErrMismatch when the faces cannot come from that
// roll (too few, too many, out of range), and ErrUnknownRules when the
// journal has no judge for the version: such a roll is never judged by
// another version's rules. Compare the result with Diff.
func Rejudge(e events.RollMade) (events.RollMade, error) {
	_, j, err := judgeOf(e)
	if err != nil {
		return events.RollMade{}, err
	}
	faces := dice.NewFaces(e.Faces...)
	want, err := j(e, faces)
	if err != nil {
		return want, err
	}
	want.Rules = e.Rules
	if n := faces.Remaining(); n > 0 {
		return want, msgerr.Errorf("%w: %d face(s) more than the roll draws", ErrMismatch, n)
	}
	return want, nil
}

// judgeRyF judges a 1o3d10, damage or healing roll by the rules engine of
// rules/ryf; the version's judge has checked what the version allows.
func judgeRyF(e events.RollMade, faces *dice.Faces) (events.RollMade, error) {
	switch e.Kind {
	case KindDamage:
		d, err := ryf.ParseDamage(e.Dice)
		if err != nil {
			return events.RollMade{}, msgerr.Errorf("%w: damage dice %q: %w", ErrMismatch, e.Dice, err)
		}
		dr, err := ryf.RollDamage(d, e.Critical, faces)
		if err != nil {
			return events.RollMade{}, msgerr.Errorf("%w: %w", ErrMismatch, err)
		}
		return FromDamage(e.System, dr), nil
	case KindHeal:
		face, err := faces.Roll(6)
		if err != nil {
			return events.RollMade{}, msgerr.Errorf("%w: after-combat healing is one d6: %w", ErrMismatch, err)
		}
		return FromHeal(e.System, ryf.AfterCombat{Face: face}), nil
	}
	res, err := ryf.Roll(CheckOf(e), faces)
	if err != nil {
		return events.RollMade{}, msgerr.Errorf("%w: %w", ErrMismatch, err)
	}
	return FromRyF(e.System, res), nil
}

// judgeFreeV1 judges a free roll of dice/1: its expression's terms.
func judgeFreeV1(e events.RollMade, faces *dice.Faces) (events.RollMade, error) {
	x, err := FreeExpr(e.Dice)
	if err != nil {
		return events.RollMade{}, err
	}
	out, total, err := x.Roll(faces)
	if err != nil {
		return events.RollMade{}, msgerr.Errorf("%w: %w", ErrMismatch, err)
	}
	return FromFree(e.System, x, out, total), nil
}

// judgeTORV1 judges a One Ring roll of tor/1. The rank recorded (the
// character's skill rank) says how many success dice the roll draws; a
// dropped die is a missing face.
func judgeTORV1(e events.RollMade, faces *dice.Faces) (events.RollMade, error) {
	res, err := tor.Roll(faces, e.Rank, e.TN)
	if err != nil {
		return events.RollMade{}, msgerr.Errorf("%w: %w", ErrMismatch, err)
	}
	return FromTOR(res), nil
}

// Diff lists the rule-derived fields where got differs from want, as
// "field: got X, want Y" lines; none means they agree.
func Diff(got, want events.RollMade) []string {
	var out []string
	check := func(name string, g, w any) {
		if fmt.Sprint(g) != fmt.Sprint(w) {
			out = append(out, fmt.Sprintf("%s: recorded %v, rules say %v", name, g, w))
		}
	}
	check("total", got.Total, want.Total)
	check("outcome", got.Outcome, want.Outcome)
	check("faces", got.Faces, want.Faces)
	if !slices.Equal(got.Kept, want.Kept) {
		check("kept", got.Kept, want.Kept)
	}
	check("die_part", got.DiePart, want.DiePart)
	check("base", got.Base, want.Base)
	check("level", got.Level, want.Level)
	check("critical", got.Critical, want.Critical)
	check("fumble", got.Fumble, want.Fumble)
	check("natural1", got.Natural1, want.Natural1)
	check("exploded", got.Exploded, want.Exploded)
	check("eye", got.Eye, want.Eye)
	check("rune", got.Rune, want.Rune)
	check("quality", got.Quality, want.Quality)
	check("feat", got.Feat, want.Feat)
	check("rank", got.Rank, want.Rank)
	return out
}
