package rolls

import (
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// Rules versions (docs/rules.md part 4): every roll event names
// the version of its engine's rules it was judged under, "engine/N", and
// is judged again by that version's judge only. A version this journal
// does not know is reported (ErrUnknownRules), never judged by another.

// ErrUnknownRules marks a roll event recorded under a rules version this
// journal has no judge for (a later journal's, or a forged one).
var ErrUnknownRules = msgerr.New("unknown rules version")

// The rules engines, the part of a version before its slash.
const (
	EngineRyF  = "ryf"  // 1o3d10, damage and healing rolls (rules/ryf)
	EngineTOR  = "tor"  // The One Ring's rolls (rules/tor)
	EngineDice = "dice" // free rolls of a dice expression (rules/dice)
)

// Current returns the version the journal records today for a roll of
// kind: one constant per engine (ryf.RulesVersion, tor.RulesVersion,
// dice.RulesVersion).
func Current(kind string) string {
	switch EngineOf(kind) {
	case EngineTOR:
		return tor.RulesVersion
	case EngineDice:
		return dice.RulesVersion
	}
	return ryf.RulesVersion
}

// EngineOf returns the engine whose rules judge a roll of kind.
func EngineOf(kind string) string {
	switch kind {
	case KindTOR:
		return EngineTOR
	case KindFree:
		return EngineDice
	}
	return EngineRyF
}

// Version returns the rules version a roll event was judged under: its
// Rules field; for an event recorded before the journal recorded one,
// version 1 of its kind's engine, except a 1o3d10 roll flagged Opposed,
// which only ryf/2 records (the flag is that version's own input).
func Version(e events.RollMade) string {
	if e.Rules != "" {
		return e.Rules
	}
	switch EngineOf(e.Kind) {
	case EngineTOR:
		return tor.RulesV1
	case EngineDice:
		return dice.RulesV1
	}
	if e.Opposed {
		return ryf.RulesV2
	}
	return ryf.RulesV1
}

// judge re-judges a roll event of one rules version from its faces.
type judge func(e events.RollMade, faces *dice.Faces) (events.RollMade, error)

// judges are the versions this journal knows, each with its engine and
// its judge. A new rule decision adds a version here; none is removed.
// Each states which rolls it judges otherwise than its engine's version 1
// (changed; nil: none), so that Alike can tell two versions apart.
var judges = map[string]struct {
	engine  string
	judge   judge
	changed func(events.RollMade) bool
}{
	ryf.RulesV1:  {EngineRyF, judgeRyFV1, nil},
	ryf.RulesV2:  {EngineRyF, judgeRyFV2, func(e events.RollMade) bool { return e.Opposed }},
	tor.RulesV1:  {EngineTOR, judgeTORV1, nil},
	dice.RulesV1: {EngineDice, judgeFreeV1, nil},
}

// Alike reports whether rules versions a and b, both known and of one
// engine, judge roll e alike from its inputs: neither judges it otherwise
// than the engine's version 1 does (ryf/2 judges only the sides flagged
// opposed otherwise). A reproduction compares a roll recorded before rolls
// named their version with its re-run under today's version by it.
func Alike(a, b string, e events.RollMade) bool {
	ja, oka := judges[a]
	jb, okb := judges[b]
	if !oka || !okb || ja.engine != jb.engine {
		return false
	}
	if a == b {
		return true
	}
	return (ja.changed == nil || !ja.changed(e)) && (jb.changed == nil || !jb.changed(e))
}

// Known reports whether this journal has a judge for version.
func Known(version string) bool {
	_, ok := judges[version]
	return ok
}

// Versions lists the versions this journal judges, sorted.
func Versions() []string {
	out := make([]string, 0, len(judges))
	for v := range judges {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// judgeOf returns the judge of a roll event's version, or an error
// wrapping ErrUnknownRules (an unknown version) or ErrMismatch (a version
// of another engine than the kind's).
func judgeOf(e events.RollMade) (string, judge, error) {
	v := Version(e)
	j, ok := judges[v]
	if !ok {
		return v, nil, msgerr.Errorf("%w %q (this journal judges %s)", ErrUnknownRules, clip.Text(v), strings.Join(Versions(), ", "))
	}
	if want := EngineOf(e.Kind); j.engine != want {
		return v, nil, msgerr.Errorf("%w: rules %s do not judge a %s roll (%s rules do)", ErrMismatch, v, clip.Text(e.Kind), want)
	}
	return v, j.judge, nil
}

// CheckVersion returns nil when this journal judges e's rules version,
// else Rejudge's error for it.
func CheckVersion(e events.RollMade) error {
	_, _, err := judgeOf(e)
	return err
}

// judgeRyFV1 judges a roll of ryf/1: no roll is a side of an opposed
// roll, so an attribute roll neither explodes nor has a natural 1.
func judgeRyFV1(e events.RollMade, faces *dice.Faces) (events.RollMade, error) {
	if e.Opposed {
		return events.RollMade{}, msgerr.Errorf("%w: rules %s have no opposed rolls (a side flagged opposed is %s's)", ErrMismatch, ryf.RulesV1, ryf.RulesV2)
	}
	return judgeRyF(e, faces)
}

// judgeRyFV2 judges a roll of ryf/2: a side flagged Opposed, attribute
// sides included, explodes and has a natural 1.
func judgeRyFV2(e events.RollMade, faces *dice.Faces) (events.RollMade, error) {
	return judgeRyF(e, faces)
}
