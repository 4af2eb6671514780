package projections

import (
	"time"

	"github.com/campaign-journal/journal/events"
)

// Participant is a user of the campaign's devices (journal-dice-v2, DESIGN.md
// §3.3): its role and every device it registered (devices.go). PublicKey,
// Fingerprint and Seq are its newest active device's.
type Participant struct {
	User        string   `json:"user"`
	Role        string   `json:"role"`
	PublicKey   string   `json:"public_key"`
	Fingerprint string   `json:"fingerprint"`
	Seq         uint64   `json:"seq"`
	Devices     []Device `json:"devices,omitempty"`
}

// Request states of a v2 session's roll requests.
const (
	RequestPending   = "pending"   // recorded, waiting for its reveal
	RequestMade      = "made"      // revealed: its roll is recorded
	RequestCancelled = "cancelled" // cancelled by the GM, nonce consumed
)

// PendingRoll is a v2 roll request as recorded: what its reveal is checked
// against and rolled from.
type PendingRoll struct {
	Event     string               `json:"event"`
	State     string               `json:"state"`
	Requested events.RollRequested `json:"requested"`
	// At is the request event's time: a GM's request may be resolved
	// unwitnessed once At + Requested.Wait has passed.
	At time.Time `json:"at,omitzero"`
}

// applyV2 folds the journal-dice-v2 events; false for any other.
func (c *Campaign) applyV2(rec events.Recorded, data any) bool {
	ev := rec.Event
	if c.applyDevice(rec, data) { // devices.go
		return true
	}
	switch d := data.(type) {
	case *events.SessionContributed:
		if s := c.Session(ev.Session); s != nil {
			s.Contributions = append(s.Contributions, d.Value)
		}
	case *events.RollRequested:
		if s := c.Session(ev.Session); s != nil {
			if s.Requests == nil {
				s.Requests = map[string]*PendingRoll{}
			}
			s.Requests[d.Request] = &PendingRoll{Event: ev.ID, State: RequestPending, Requested: *d, At: ev.Time}
			for _, n := range d.Taken() {
				if n >= s.NextNonce {
					s.NextNonce = n + 1
				}
			}
		}
	case *events.SessionCosigned:
		if s := c.Session(ev.Session); s != nil {
			s.cosign(ev, d)
		}
	case *events.RollCancelled:
		if s := c.Session(ev.Session); s != nil {
			if p := s.Requests[d.Request]; p != nil {
				p.State = RequestCancelled
			}
		}
	default:
		return false
	}
	return true
}

// applyV2Roll marks the request a v2 roll answers as made.
func (c *Campaign) applyV2Roll(ev events.Event, d *events.RollMade) {
	if d.Request == "" {
		return
	}
	if s := c.Session(ev.Session); s != nil {
		if p := s.Requests[d.Request]; p != nil {
			p.State = RequestMade
		}
	}
}

// V2 reports whether the session draws its dice by journal-dice-v2.
func (s *Session) V2() bool { return s != nil && s.Algorithm == "journal-dice-v2" }
