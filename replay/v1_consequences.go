package replay

// What the browser's verifier (web/static/verify.js) has always judged of
// journal-dice-v1 sessions beyond each roll, judged here too so that
// `journal replay` and the browser give one verdict on the same bytes
// (docs/design.md §3.3; the shared corpus is web/testdata/corpus):
//   - a roll's character was created before it, when the input holds the
//     campaign's creation (a session's export may not);
//   - outside journal-dice-v2 sessions (which v2.go and v2_paths.go follow
//     from their requests), an attack's resolution follows from the rolls
//     it names: its total, the difficulty it was against, hit or miss, the
//     damage (the damage roll's total on a hit, its critical the attack's),
//     and the damage the target takes in the events just before it;
//   - and a combat's initiative from the initiative rolls it names: each
//     total is its roll's, the order goes down the totals.
// The memory this takes is a few bytes per roll of those sessions.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
)

// v1Roll is what a consequence of a v1 roll needs of it.
type v1Roll struct {
	total      int
	outcome    string
	critical   bool
	difficulty *int
}

// recentEvent is one of a campaign's last events, for the damage an
// attack's resolution must follow.
type recentEvent struct {
	damage    bool // a damage-taken event
	character string
	amount    int
	roll      idKey // a roll-made event's id, else zero
}

// v1State is what a campaign keeps for v1 consequences.
type v1State struct {
	whole  bool // the input starts with the campaign's creation
	rolls  map[idKey]v1Roll
	recent [3]recentEvent // the last three events, the latest last
}

// MismatchConsequence: a consequence (an attack's resolution, a combat's
// initiative) that does not follow from the v1 rolls it names.
const MismatchConsequence MismatchKind = "consequence"

// v1Event checks what ev's consequences and character say, before the
// fold reads it, and keeps what later events need (data is nil for an
// event whose data cannot be read).
func (v *Verifier) v1Event(c *campaign, m Mismatch, ev events.Event, data any) {
	st := &c.v1
	if c.events == 1 && ev.Type == events.TypeCampaignCreated {
		st.whole = true
	}
	defer func() {
		d, ok := data.(*events.DamageTaken)
		copy(st.recent[:], st.recent[1:])
		st.recent[2] = recentEvent{}
		switch {
		case ok:
			st.recent[2] = recentEvent{damage: true, character: d.Character, amount: d.Amount}
		case ev.Type == events.TypeRollMade:
			st.recent[2] = recentEvent{roll: keyOf(ev.ID)}
		}
	}()
	if !v.inSession(ev) {
		return
	}
	s := v.sessionOf(ev)
	v1 := s == nil || s.v2 == nil
	bad := func(what string) {
		m.Kind, m.What = MismatchConsequence, what
		v.record(s, m)
	}
	switch d := data.(type) {
	case *events.RollMade:
		if st.whole && d.Character != "" && !c.hasCharacter(d.Character) && !(s != nil && s.v2 != nil && c.fold.System == torSystem) {
			m.Kind, m.What = MismatchInputs, fmt.Sprintf("no character %s was created before the roll", d.Character)
			v.record(s, m)
		}
		if v1 {
			if st.rolls == nil {
				st.rolls = map[idKey]v1Roll{}
			}
			st.rolls[keyOf(ev.ID)] = v1Roll{total: d.Total, outcome: d.Outcome, critical: d.Critical, difficulty: d.Difficulty}
		}
	case *events.AttackResolved:
		if v1 {
			if diff := st.attackDiff(d); len(diff) > 0 {
				bad(fmt.Sprintf("the attack's consequences are not the rules': %s", strings.Join(diff, "; ")))
			}
		}
	case *events.CombatStarted:
		if v1 {
			if diff := st.initiativeDiff(d); len(diff) > 0 {
				bad(fmt.Sprintf("the combat's initiative is not the rules': %s", strings.Join(diff, "; ")))
			}
		}
	}
}

// hasCharacter reports whether the campaign's fold holds the character.
func (c *campaign) hasCharacter(id string) bool {
	if c.fold.TOR != nil {
		return c.fold.TOR.Sheet(id) != nil
	}
	return c.fold.Characters[id] != nil
}

// attackDiff says how an attack's resolution differs from its v1 rolls
// (nothing when its attack roll is not one).
func (st *v1State) attackDiff(d *events.AttackResolved) []string {
	a, ok := st.rolls[keyOf(d.AttackRoll)]
	if !ok {
		return nil
	}
	var diff []string
	hit := a.outcome == "success" || a.outcome == "critical"
	if d.Total != a.total {
		diff = append(diff, fmt.Sprintf("total %d, the attack roll's %d", d.Total, a.total))
	}
	if a.difficulty != nil && d.Against != *a.difficulty {
		diff = append(diff, fmt.Sprintf("against %d, the attack roll's difficulty %d", d.Against, *a.difficulty))
	}
	if d.Hit != hit {
		diff = append(diff, fmt.Sprintf("hit %v, the attack roll's outcome %s", d.Hit, a.outcome))
	}
	var dmg *v1Roll
	if d.DamageRoll != "" {
		if r, ok := st.rolls[keyOf(d.DamageRoll)]; ok {
			dmg = &r
		}
	}
	want := 0
	if hit && dmg != nil {
		want = dmg.total
	}
	if d.Damage != want {
		diff = append(diff, fmt.Sprintf("damage %d, the rolls say %d", d.Damage, want))
	}
	if dmg != nil && dmg.critical != (a.outcome == "critical") {
		diff = append(diff, "the damage roll's critical is not the attack's")
	}
	if !hit && dmg != nil {
		diff = append(diff, "a damage roll for an attack that missed")
	}
	// The damage an attack caused follows its attack roll: looking back
	// from the latest event, the search stops at that roll, so an earlier
	// attack's damage to the same target is not this one's.
	var taken *recentEvent
	atk := keyOf(d.AttackRoll)
	for i := len(st.recent) - 1; i >= 0; i-- {
		r := &st.recent[i]
		if r.roll == atk {
			break
		}
		if r.damage && r.character == d.Target {
			taken = r
			break
		}
	}
	switch {
	case hit && want > 0 && (taken == nil || taken.amount != want):
		got := 0
		if taken != nil {
			got = taken.amount
		}
		diff = append(diff, fmt.Sprintf("%s takes %d, the damage roll says %d", d.Target, got, want))
	case !hit && taken != nil:
		diff = append(diff, fmt.Sprintf("%s takes damage from an attack that missed", d.Target))
	}
	return diff
}

// initiativeDiff says how a combat's initiative differs from its v1 rolls.
func (st *v1State) initiativeDiff(d *events.CombatStarted) []string {
	var diff []string
	for _, who := range slices.Sorted(maps.Keys(d.Initiative)) {
		if r, ok := st.rolls[keyOf(d.Initiative[who])]; ok && r.total != d.Totals[who] {
			diff = append(diff, fmt.Sprintf("%s's total %d, its roll's %d", who, d.Totals[who], r.total))
		}
	}
	for k := 1; k < len(d.Order); k++ {
		if d.Totals[d.Order[k]] > d.Totals[d.Order[k-1]] {
			diff = append(diff, fmt.Sprintf("order %s does not go down the totals", strings.Join(d.Order, " ")))
			break
		}
	}
	return diff
}
