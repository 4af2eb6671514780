package projections

import (
	"strings"

	"github.com/campaign-journal/journal/events"
)

// HiddenRoll is a GM's secret roll of a session (events.RollHidden):
// recorded without its outcome, revealed by a roll event naming it.
type HiddenRoll struct {
	ID     string            `json:"id"`
	Seq    uint64            `json:"seq"`
	Hidden events.RollHidden `json:"hidden"`
	// Revealed is the id of the roll event that revealed it, "" until then.
	Revealed string `json:"revealed,omitempty"`
}

// Unrevealed lists the session's secret rolls not yet revealed, in
// stream order.
func (s *Session) Unrevealed() []*HiddenRoll {
	var out []*HiddenRoll
	for _, h := range s.Hidden {
		if h.Revealed == "" {
			out = append(out, h)
		}
	}
	return out
}

// HiddenRollByID finds a secret roll of the session by its event id or a
// part of it (its start or its end, log's short id, at least 4
// characters) and reports how many match: a part naming several is
// ambiguous (nil, n > 1).
func (s *Session) HiddenRollByID(id string) (*HiddenRoll, int) {
	id = strings.ToLower(strings.TrimSpace(id))
	var found *HiddenRoll
	n := 0
	for _, h := range s.Hidden {
		switch {
		case h.ID == id:
			return h, 1
		case len(id) >= 4 && (strings.HasPrefix(h.ID, id) || strings.HasSuffix(h.ID, id)):
			found, n = h, n+1
		}
	}
	if n > 1 {
		return nil, n
	}
	return found, n
}

// applyHidden folds a secret roll: it takes its nonce.
func (c *Campaign) applyHidden(rec events.Recorded, d *events.RollHidden) {
	s := c.Session(rec.Event.Session)
	if s == nil {
		return
	}
	if d.Nonce >= s.NextNonce {
		s.NextNonce = d.Nonce + 1
	}
	s.Hidden = append(s.Hidden, &HiddenRoll{ID: rec.Event.ID, Seq: rec.Seq, Hidden: *d})
	if d.Request != "" {
		if p := s.Requests[d.Request]; p != nil {
			p.State = RequestMade
		}
	}
}

// applyReveal marks the secret roll a roll event reveals.
func (c *Campaign) applyReveal(ev events.Event, d *events.RollMade) {
	if d.Hidden == "" {
		return
	}
	if s := c.Session(ev.Session); s != nil {
		for _, h := range s.Hidden {
			if h.ID == d.Hidden && h.Revealed == "" {
				h.Revealed = ev.ID
			}
		}
	}
}
