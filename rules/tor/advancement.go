package tor

import (
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Eligibility says whether a roll earns the next advancement point of its
// skill group, which box (1..3) and why.
type Eligibility struct {
	Qualifies bool   `json:"qualifies"`
	Box       int    `json:"box"` // the box the roll is judged for: count + 1
	Reason    string `json:"reason"`
}

// NextAdvancement says whether roll res, made with a trait invoked before it
// or not, earns the next advancement point of a skill group that already
// holds count points this adventure (docs/rules.md §2.7):
//
//   - box 1: any success;
//   - box 2: a great or extraordinary success, or a success with a trait
//     invoked;
//   - box 3: a great or extraordinary success with a trait invoked.
//
// A success after spending Hope counts as a success. A group holding 3
// points is full (ErrGroupFull); count outside 0..3 is ErrOutOfRange. The GM
// still grants the point (GrantAdvancement).
func NextAdvancement(res Result, traitInvoked bool, count int) (Eligibility, error) {
	if count < 0 || count > MaxAdvancementPoints {
		return Eligibility{}, msgerr.Errorf("%w: advancement count %d not in 0..%d", ErrOutOfRange, count, MaxAdvancementPoints)
	}
	if count == MaxAdvancementPoints {
		return Eligibility{}, ErrGroupFull
	}
	e := Eligibility{Box: count + 1}
	great := res.Success && (res.Quality == QualityGreat || res.Quality == QualityExtraordinary)
	switch {
	case !res.Success:
		e.Reason = "the roll failed"
	case e.Box == 1:
		e.Qualifies, e.Reason = true, "a success"
	case e.Box == 2 && great:
		e.Qualifies, e.Reason = true, "a "+res.Describe()
	case e.Box == 2 && traitInvoked:
		e.Qualifies, e.Reason = true, "a success with a trait invoked"
	case e.Box == 2:
		e.Reason = "the 2nd point needs a great or extraordinary success, or a trait invoked"
	case great && traitInvoked:
		e.Qualifies, e.Reason = true, "a "+res.Describe()+" with a trait invoked"
	default:
		e.Reason = "the 3rd point needs a great or extraordinary success with a trait invoked"
	}
	return e, nil
}

// GrantAdvancement returns c with one more advancement point in group g for
// this adventure. A 4th point is refused (ErrGroupFull); g must be one of
// the six groups (ErrUnknownGroup).
func GrantAdvancement(c Character, g Group) (Character, error) {
	if !g.Valid() {
		return Character{}, msgerr.Errorf("%w %q", ErrUnknownGroup, clip.Text(string(g)))
	}
	n := c.Advancement[g]
	if n >= MaxAdvancementPoints {
		return Character{}, msgerr.Errorf("%w: %s", ErrGroupFull, g)
	}
	if n < 0 {
		return Character{}, msgerr.Errorf("%w: %s holds %d points", ErrOutOfRange, g, n)
	}
	c = c.Clone()
	if c.Advancement == nil {
		c.Advancement = map[Group]int{}
	}
	c.Advancement[g] = n + 1
	return c, nil
}

// FellowshipPhase returns c after the fellowship phase that ends an
// adventure: the adventure's advancement points are added to
// AdvancementTotal and the groups cleared, and temporary Shadow is cleared
// (permanent Shadow stays). Hope and everything else are unchanged.
func (c Character) FellowshipPhase() Character {
	c = c.Clone()
	c.AdvancementTotal += c.AdventurePoints()
	c.Advancement = nil
	c.Shadow = 0
	return c
}

// FellowshipPhase runs the fellowship phase for a whole company: every
// character's Character.FellowshipPhase, and the fellowship pool reset to
// StartingPool. The input slice is not changed.
func FellowshipPhase(company []Character) ([]Character, int) {
	out := make([]Character, len(company))
	for i, c := range company {
		out[i] = c.FellowshipPhase()
	}
	return out, StartingPool(out)
}
