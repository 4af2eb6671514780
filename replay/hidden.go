package replay

// Verification of the GM's secret rolls (docs/design.md §3.4): a
// roll.hidden records every input of a roll and none of its outcome; the
// roll.made that reveals it (Hidden names it) must have exactly those
// inputs (events.HiddenInputs), and its faces are then checked like any
// roll's, so the reveal could not choose them. A hidden roll of an ended
// session that nothing revealed is flagged hidden-unrevealed: a host
// that rolled in secret several times cannot keep only the one it likes
// without the audit saying so. verify.js checks the same.

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
)

// FlagHiddenUnrevealed: a GM's secret roll whose session ended without its reveal.
const FlagHiddenUnrevealed FlagCode = "hidden-unrevealed"

// hiddenRoll is a secret roll seen in a session.
type hiddenRoll struct {
	id       string
	nonce    uint64
	inputs   map[string]any // the event's data, as JSON values
	revealed string         // the roll event that revealed it
}

// sessionHidden is a session's secret rolls, by event id and in order.
type sessionHidden struct {
	byID  map[string]*hiddenRoll
	order []*hiddenRoll
}

// jsonValues decodes an event's data into JSON values (nil if it is not an object).
func jsonValues(data []byte) map[string]any {
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return m
}

// zeroJSON reports whether a JSON value is its type's zero (an absent
// member reads as one).
func zeroJSON(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case float64:
		return x == 0
	case bool:
		return !x
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// hiddenDiff lists the inputs where a reveal (got) differs from its
// hidden roll (want).
func hiddenDiff(got, want map[string]any) text {
	var out text
	for _, k := range events.HiddenInputs {
		g, w := got[k], want[k]
		if zeroJSON(g) && zeroJSON(w) || reflect.DeepEqual(g, w) {
			continue
		}
		if len(out) > 0 {
			out = append(out, msg("mm.sep"))
		}
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		out = append(out, msg("mm.hidden_field", k, clip(string(gb), 80), clip(string(wb), 80)))
	}
	return out
}

// hiddenEvent checks a roll.hidden and keeps it for its reveal. In a v1
// session it takes its nonce; in a v2 one it answers a pending secret
// request (whose nonce the request took).
func (v *Verifier) hiddenEvent(s *session, m Mismatch, ev events.Event, d *events.RollHidden) {
	nonce := d.Nonce
	m.Nonce = &nonce
	if s == nil {
		m.Kind = MismatchUnknownSession
		m.say("mm.roll_unstarted", ev.Session)
		v.record(nil, m)
		return
	}
	if s.ended {
		m.Kind = MismatchAfterEnd
		m.say("mm.hidden_after_end", s.endID)
		v.record(s, m)
	}
	switch d.Kind {
	case rolls.KindFree, "skill", "attribute":
	default:
		m.Kind = MismatchInvalidRoll
		m.say("mm.hidden_kind", d.Kind)
		v.record(s, m)
		return
	}
	if s.v2 != nil {
		r := s.v2.requests[d.Request]
		var why i18n.Key
		switch {
		case r == nil:
			why = "mm.hidden_unknown_req"
		case !r.d.Secret:
			why = "mm.hidden_not_secret"
		case r.state != projections.RequestPending || r.hidden != "":
			why = "mm.hidden_not_pending"
		}
		if why != "" {
			m.Kind = MismatchRequest
			state := ""
			if r != nil {
				state = r.state
			}
			m.tell(text{msg("mm.hidden_request", d.Request, ""), msg(why, state)})
			v.record(s, m) // kept all the same: its reveal is checked, its absence flagged
		} else {
			r.hidden = strings.Clone(ev.ID)
		}
	} else {
		if prev, taken := s.nonces[nonce]; taken {
			m.Kind = MismatchNonceRepeat
			m.say("mm.nonce_repeat", nonce, idString(prev))
			v.record(s, m)
			return
		}
		s.nonces[nonce] = keyOf(ev.ID)
	}
	if s.hidden.byID == nil {
		s.hidden.byID = map[string]*hiddenRoll{}
	}
	h := &hiddenRoll{id: ev.ID, nonce: nonce, inputs: jsonValues(ev.Data)}
	s.hidden.byID[ev.ID] = h
	s.hidden.order = append(s.hidden.order, h)
}

// revealOf checks a roll that reveals a secret roll against it (nil when
// the roll reveals none). It reports false when the roll is not its
// hidden roll's reveal (recorded as a mismatch).
func (v *Verifier) revealOf(s *session, m Mismatch, ev events.Event, d *events.RollMade) (*hiddenRoll, bool) {
	if d.Hidden == "" {
		return nil, true
	}
	h := s.hidden.byID[d.Hidden]
	switch {
	case h == nil:
		m.Kind = MismatchInputs
		m.say("mm.hidden_unknown", d.Hidden)
	case h.revealed != "":
		m.Kind = MismatchInputs
		m.say("mm.hidden_twice", d.Hidden, h.revealed)
	default:
		if diff := hiddenDiff(jsonValues(ev.Data), h.inputs); len(diff) > 0 {
			m.Kind = MismatchInputs
			m.tell(append(text{msg("mm.hidden_inputs", d.Hidden, "")}, diff...))
		}
	}
	if m.Kind != "" {
		v.record(s, m)
		return h, false
	}
	h.revealed = ev.ID
	return h, true
}

// hiddenLeft counts a session's secret rolls not revealed: each took a
// nonce that no roll event holds.
func (s *session) hiddenLeft() int {
	n := 0
	for _, h := range s.hidden.order {
		if h.revealed == "" {
			n++
		}
	}
	return n
}

// hiddenFlags are an ended session's secret rolls never revealed.
func (s *session) hiddenFlags() []Flag {
	if !s.ended {
		return nil
	}
	var out []Flag
	for _, h := range s.hidden.order {
		if h.revealed == "" {
			out = append(out, newFlag(FlagHiddenUnrevealed, h.id, "rp2.f.hidden_unrevealed", h.id, h.nonce, s.id))
		}
	}
	return out
}
