package replay

import (
	"errors"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Rules versions (docs/rules.md part 4; docs/design.md §2.1.2): every
// roll is judged by the judge of the
// rules version it records (rolls.Rejudge dispatches). A roll recorded
// under a version this verifier has no judge for is flagged unknown-rules,
// with the version named, and its verdict is not judged by another
// version's rules; its faces are still checked against the seed, and it
// counts as verified only with the flag.

// FlagUnknownRules: a roll recorded under a rules version this verifier
// does not know (a later journal's, or a forged one): its verdict is not
// judged.
const FlagUnknownRules FlagCode = "unknown-rules"

// unknownRules reports whether a roll's rules version is one this
// verifier has no judge for, and flags it in session s (or, outside a
// session, records the mismatch that it cannot be judged).
func (v *Verifier) unknownRules(s *session, m Mismatch, d *events.RollMade) bool {
	err := rolls.CheckVersion(*d)
	if err == nil || !errors.Is(err, rolls.ErrUnknownRules) {
		return false
	}
	if s == nil {
		m.Kind = MismatchInvalidRoll
		m.say("mm.cannot_judge", err.Error())
		v.record(nil, m)
		return true
	}
	s.rulesFlags = append(s.rulesFlags, newFlag(FlagUnknownRules, m.EventID, "rp2.f.unknown_rules",
		m.EventID, *m.Nonce, clip(rolls.Version(*d), 40), strings.Join(rolls.Versions(), ", ")))
	return true
}

// contestRules checks the rules versions of a contest's two sides: one
// version for both, known, and under it the sides flagged opposed as that
// version flags them (ryf/2 flags every side, ryf/1 none). It returns the
// mismatch's key and arguments, or "" when they fit; judge is false when
// the verdict cannot be judged (a version this verifier does not know:
// flagged unknown-rules).
func contestRules(a, b *judgedSide) (key i18n.Key, args []any, judge bool) {
	switch {
	case a.opposed != b.opposed:
		return "mm.contest_opposed", nil, true
	case a.rules != b.rules:
		return "mm.contest_rules", []any{clip(a.rules, 40), clip(b.rules, 40)}, true
	case !rolls.Known(a.rules):
		return "", nil, false
	case a.opposed != ryf.OpposedSides(a.rules):
		return "mm.contest_unopposed", []any{a.rules}, true
	}
	return "", nil, true
}
