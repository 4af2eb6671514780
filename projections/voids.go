package projections

import "github.com/campaign-journal/journal/events"

// LogLine is one line of the campaign's log (journal log): a transcript
// line, the event's short id and, for a voided event, the event that
// voided it. With --json one object per line.
type LogLine struct {
	Line
	ShortID  string    `json:"short_id"`
	VoidedBy *VoidMark `json:"voided_by,omitempty"`
}

// VoidMark says which event voided an event, and why.
type VoidMark struct {
	Seq     uint64 `json:"seq"`
	EventID string `json:"event_id"`
	Actor   string `json:"actor,omitempty"`
	Reason  string `json:"reason"`
}

// ShortIDLen is the length of a short event id.
const ShortIDLen = 8

// ShortID is the last 8 hex digits of an event id: the random part of a
// UUIDv7, where the first digits are the time and repeat from event to
// event. A shorter id is itself.
func ShortID(id string) string {
	if len(id) <= ShortIDLen {
		return id
	}
	return id[len(id)-ShortIDLen:]
}

// Voids maps the id of every voided event to its void: the first
// event-voided event that names it (a later one changes nothing).
type Voids map[string]*VoidMark

// Add folds r when it is an event-voided event; any other is ignored.
func (v Voids) Add(r events.Recorded) {
	if r.Event.Type != events.TypeEventVoided {
		return
	}
	var d events.EventVoided
	if r.Event.DecodeData(&d) == nil && d.EventID != "" {
		if _, seen := v[d.EventID]; !seen {
			v[d.EventID] = &VoidMark{Seq: r.Seq, EventID: r.Event.ID, Actor: r.Event.Actor, Reason: d.Reason}
		}
	}
}
