package command

import (
	"fmt"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
)

// The chain of journal-dice-v2 (DESIGN.md §3.2; events/chain.go): a
// campaign is chained from the start of its first v2 session on — that
// session-started event and every event after it carry prevhash, the hash
// of the campaign's previous event's stored bytes. Campaigns without a v2
// session record no prevhash (their events are what they were). Every
// append is conditional on the campaign's last sequence, so the previous
// event is the one the draft was decided on.

// chained reports whether the campaign, with the drafted events, has a v2
// session.
func chained(c *projections.Campaign, evs []events.Event) bool {
	if c.ChainedFrom != 0 {
		return true
	}
	for _, e := range evs {
		if e.Type != events.TypeSessionStarted {
			continue
		}
		if p, err := e.Payload(); err == nil {
			if d, ok := p.(*events.SessionStarted); ok && d.Algorithm == dice.AlgorithmV2 {
				return true
			}
		}
	}
	return false
}

// chain sets prevhash on the drafted events of a chained campaign, in order.
func (s *campaignState) chain(c *projections.Campaign, evs []events.Event) error {
	if !chained(c, evs) {
		return nil
	}
	prev, has := s.last, s.hasLast
	for i := range evs {
		if has {
			h, err := events.EventHash(prev)
			if err != nil {
				return fmt.Errorf("chain: the campaign's previous event %s: %w", prev.ID, err)
			}
			evs[i].PrevHash = h
		}
		prev, has = evs[i], true
	}
	return nil
}
