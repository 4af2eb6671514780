package rolls_test

import (
	"errors"
	"testing"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// An event recorded before the journal recorded a version reads as
// version 1 of its engine, except a 1o3d10 side flagged opposed (ryf/2).
func TestVersionOfAnEventWithoutTheField(t *testing.T) {
	for _, c := range []struct {
		e    events.RollMade
		want string
	}{
		{events.RollMade{Kind: "skill"}, ryf.RulesV1},
		{events.RollMade{Kind: "attribute"}, ryf.RulesV1},
		{events.RollMade{Kind: "attribute", Opposed: true}, ryf.RulesV2},
		{events.RollMade{Kind: "damage"}, ryf.RulesV1},
		{events.RollMade{Kind: "heal"}, ryf.RulesV1},
		{events.RollMade{Kind: "tor"}, tor.RulesV1},
		{events.RollMade{Kind: "free"}, dice.RulesV1},
		{events.RollMade{Kind: "skill", Rules: "ryf/7"}, "ryf/7"},
	} {
		if got := rolls.Version(c.e); got != c.want {
			t.Errorf("Version(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
}

// The From functions stamp the version of today's rules of each engine.
func TestFromStampsTodaysVersion(t *testing.T) {
	x, _ := dice.ParseExpr("1d6")
	for _, e := range []events.RollMade{
		rolls.FromRyF("ryf", ryf.Result{Check: ryf.Check{Kind: ryf.KindSkill}}),
		rolls.FromDamage("ryf", ryf.DamageRoll{}),
		rolls.FromHeal("ryf", ryf.AfterCombat{Face: 3}),
		rolls.FromFree("ryf", x, []int{3}, 3),
		rolls.FromTOR(tor.Result{}),
	} {
		if e.Rules == "" || e.Rules != rolls.Current(e.Kind) {
			t.Errorf("a %s roll is stamped %q, want %q", e.Kind, e.Rules, rolls.Current(e.Kind))
		}
	}
	if ryf.RulesVersion != ryf.RulesV2 || tor.RulesVersion != tor.RulesV1 || dice.RulesVersion != dice.RulesV1 {
		t.Error("today's versions changed: add a judge and a docs/rules.md entry for the new one")
	}
}

// An attribute roll whose first round keeps a 10: under ryf/1 (no
// version, not opposed) it does not explode, so a second round's faces
// are too many; as a ryf/2 opposed side it explodes and they are its own.
func TestRejudgeDispatchesOnTheVersion(t *testing.T) {
	base := events.RollMade{System: "ryf", Kind: "attribute", Attribute: "F", AttributeValue: 5, Level: "mid",
		Dice: "1o3d10", Faces: []int{10, 10, 10, 4, 5, 6}}
	legacy := base
	if _, err := rolls.Rejudge(legacy); !errors.Is(err, rolls.ErrMismatch) {
		t.Errorf("ryf/1 attribute roll with a second round: err %v, want a mismatch (too many faces)", err)
	}
	for _, opposed := range []events.RollMade{withOpposed(base, ""), withOpposed(base, ryf.RulesV2)} {
		want, err := rolls.Rejudge(opposed)
		if err != nil {
			t.Fatalf("ryf/2 opposed attribute roll (rules %q): %v", opposed.Rules, err)
		}
		if !want.Exploded || want.Total != 2*5+10+5 || want.Rules != opposed.Rules {
			t.Errorf("ryf/2 opposed attribute roll: %+v, want exploded, total 25, rules %q", want, opposed.Rules)
		}
	}
	// ryf/1 has no opposed rolls: a roll claiming both is judged by neither.
	if _, err := rolls.Rejudge(withOpposed(base, ryf.RulesV1)); !errors.Is(err, rolls.ErrMismatch) {
		t.Errorf("a ryf/1 roll flagged opposed: err %v, want a mismatch", err)
	}
}

func withOpposed(e events.RollMade, rules string) events.RollMade {
	e.Opposed, e.Rules = true, rules
	return e
}

// A version the journal has no judge for is never judged by today's
// rules; a version of another engine than the kind's is a mismatch.
func TestRejudgeRefusesAnUnknownVersion(t *testing.T) {
	good := events.RollMade{System: "ryf", Kind: "skill", Skill: "Sigilo", Attribute: "D", AttributeValue: 5, Rank: 2,
		Level: "mid", Dice: "1o3d10", Faces: []int{3, 4, 5}, Base: 7, DiePart: 4, Total: 11, Kept: []int{4}, Outcome: "rolled"}
	if _, err := rolls.Rejudge(good); err != nil {
		t.Fatalf("a genuine ryf/1 roll: %v", err)
	}
	for _, v := range []string{"ryf/3", "ryf/0", "RYF/2", "ryf", "tor/2", "x"} {
		e := good
		e.Rules = v
		if _, err := rolls.Rejudge(e); !errors.Is(err, rolls.ErrUnknownRules) {
			t.Errorf("rules %q: err %v, want ErrUnknownRules", v, err)
		}
		if rolls.Known(v) {
			t.Errorf("Known(%q)", v)
		}
	}
	e := good
	e.Rules = tor.RulesV1
	if _, err := rolls.Rejudge(e); !errors.Is(err, rolls.ErrMismatch) || errors.Is(err, rolls.ErrUnknownRules) {
		t.Errorf("a skill roll under tor/1: err %v, want a mismatch", err)
	}
	for _, v := range rolls.Versions() {
		if !rolls.Known(v) {
			t.Errorf("Versions lists %q, Known says no", v)
		}
	}
}

// Two versions are alike on a roll unless one of them judges it otherwise
// than its engine's version 1.
func TestAlike(t *testing.T) {
	plain := events.RollMade{Kind: "attribute"}
	side := events.RollMade{Kind: "attribute", Opposed: true}
	for _, c := range []struct {
		a, b string
		e    events.RollMade
		want bool
	}{
		{ryf.RulesV1, ryf.RulesV2, plain, true},
		{ryf.RulesV1, ryf.RulesV2, side, false},
		{ryf.RulesV2, ryf.RulesV2, side, true},
		{ryf.RulesV1, tor.RulesV1, plain, false},
		{ryf.RulesV1, "ryf/9", plain, false},
		{"ryf/9", "ryf/9", plain, false},
	} {
		if got := rolls.Alike(c.a, c.b, c.e); got != c.want {
			t.Errorf("Alike(%s, %s, opposed %v) = %v, want %v", c.a, c.b, c.e.Opposed, got, c.want)
		}
	}
}
