package replay

import (
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

// judgedSide is what the verifier keeps of one of the last two rolls of a
// campaign, to judge a contest that names it.
type judgedSide struct {
	id        string // "" for none
	character string
	result    ryf.Result // the recorded total, natural 1 and fumble
	opposed   bool
	rules     string // its rules version (rolls.Version)
	claimed   bool   // a contest named it
	s         *session
	m         Mismatch
}

// contestRing is the last two rolls of a campaign: the command layer
// records a contest's two rolls and its verdict together, in that order,
// so the rolls a contest names are the two just before it.
type contestRing [2]judgedSide

// contestEvent checks contests as the events come: a contest names the two
// rolls recorded just before it, of its two characters, of one rules
// version and flagged opposed as that version flags contest sides (ryf/2:
// both; ryf/1, before docs/rules.md 1.5's decision: neither), and its
// verdict is what the rules say of their recorded totals (ryf.Contest); a
// roll flagged opposed is a side of a contest. Checking the verdict from
// the recorded totals is enough: checkRules re-judges each total.
func (v *Verifier) contestEvent(c *campaign, ev events.Event, data any, m Mismatch) {
	if !v.inSession(ev) {
		return
	}
	switch d := data.(type) {
	case *events.RollMade:
		side := judgedSide{
			id: ev.ID, character: d.Character, opposed: d.Opposed, rules: rolls.Version(*d), s: v.sessionOf(ev), m: m,
			result: ryf.Result{Total: d.Total, Natural1: d.Natural1, Fumble: d.Fumble},
		}
		v.unclaimed(&c.contests[0])
		c.contests[0], c.contests[1] = c.contests[1], side
	case *events.ContestResolved:
		a, b := &c.contests[0], &c.contests[1]
		s := v.sessionOf(ev)
		bad := func(kind MismatchKind, key i18n.Key, args ...any) {
			m.Kind = kind
			m.say(key, args...)
			v.record(s, m)
		}
		if a.id == "" || b.id == "" || a.id != d.RollA || b.id != d.RollB {
			bad(MismatchInputs, "mm.contest_rolls", clip(d.RollA, 40), clip(d.RollB, 40))
			return
		}
		a.claimed, b.claimed = true, true
		if a.character != d.A || b.character != d.B {
			bad(MismatchInputs, "mm.contest_sides", d.A, d.B, a.character, b.character)
			return
		}
		if key, args, judge := contestRules(a, b); key != "" {
			bad(MismatchInputs, key, args...)
			return
		} else if !judge {
			return // flagged unknown-rules: not judged by other rules
		}
		want := ryf.Contest(a.result, b.result)
		winner := ""
		switch want.Winner {
		case 1:
			winner = d.A
		case 2:
			winner = d.B
		}
		if d.Winner != winner || d.Tie != (want.Winner == 0) || d.Reason != want.Reason {
			bad(MismatchRules, "mm.contest_verdict", d.Winner, d.Tie, d.Reason, winner, want.Winner == 0, want.Reason)
		} else if d.Critical && !want.Critical {
			// Only a critical recorded is judged: older contests have none.
			bad(MismatchRules, "mm.contest_critical", ryf.CriticalTotal)
		}
	default:
		return
	}
}

// unclaimed records a roll flagged opposed that no contest named.
func (v *Verifier) unclaimed(side *judgedSide) {
	if side.id == "" || !side.opposed || side.claimed {
		return
	}
	m := side.m
	m.Kind = MismatchInputs
	m.say("mm.unclaimed")
	v.record(side.s, m)
}

// flushContests records the opposed rolls still waiting for a contest at
// the end of the input (once: the ring is emptied).
func (v *Verifier) flushContests() {
	for _, c := range v.corder {
		for i := range c.contests {
			v.unclaimed(&c.contests[i])
			c.contests[i] = judgedSide{}
		}
	}
}
