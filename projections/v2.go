package projections

import (
	"slices"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/own"
)

// Participant is a user of the campaign's devices (journal-dice-v2, docs/design.md
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
	// CancelledBy and CancelledSeq are, for a cancelled request, who
	// cancelled it (the event's actor) and the cancellation's stream
	// sequence (CancelEvent its id); Proved is the id of its journal.roll.proved.v1 ("" until
	// its requester proves it: a request is proved once).
	CancelledBy  string `json:"cancelled_by,omitempty"`
	CancelledSeq uint64 `json:"cancelled_seq,omitempty"`
	CancelEvent  string `json:"cancel_event,omitempty"`
	Proved       string `json:"proved,omitempty"`
	// Witnessed are the chain witnesses recorded for a GM's request of a
	// session of witness chains (events.RollWitnessed), in stream order;
	// Receipted the users whose devices receipted a beacon request.
	Witnessed []events.GMWitness `json:"witnessed,omitempty"`
	Receipted []string           `json:"receipted,omitempty"`
}

// WitnessAnchor is a contribution's witness chain (docs/design.md §3.3): the
// contributing user and the anchor, hex(H^N(w)).
type WitnessAnchor struct {
	User   string `json:"user"`
	Anchor string `json:"anchor"`
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
			if d.WitnessAnchor != "" {
				s.WitnessAnchors = append(s.WitnessAnchors, WitnessAnchor{User: d.User, Anchor: d.WitnessAnchor})
			}
		}
	case *events.RollRequested:
		if s := c.Session(ev.Session); s != nil {
			if s.Requests == nil {
				s.Requests = map[string]*PendingRoll{}
			}
			// The key is a copy: the map keeps it after the request has
			// forgotten the event's text (detach).
			s.Requests[strings.Clone(d.Request)] = &PendingRoll{Event: ev.ID, State: RequestPending, Requested: *d, At: ev.Time}
			if d.Commitment == "" {
				s.GMRequests++
			}
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
	case *events.RollWitnessed:
		if p := c.Session(ev.Session).request(d.Request); p != nil {
			p.Witnessed = append(p.Witnessed, events.GMWitness{User: d.User, Value: d.Value})
		}
	case *events.RollReceipted:
		if p := c.Session(ev.Session).request(d.Request); p != nil {
			p.Receipted = append(p.Receipted, d.User)
		}
	case *events.RollCancelled:
		if s := c.Session(ev.Session); s != nil {
			if p := s.Requests[d.Request]; p != nil {
				p.State = RequestCancelled
				p.CancelledBy, p.CancelledSeq, p.CancelEvent = ev.Actor, rec.Seq, ev.ID
			}
		}
		c.unanswer(d.Request) // a call it answered may be answered again (table.go)
	case *events.RollProved:
		if s := c.Session(ev.Session); s != nil {
			if p := s.Requests[d.Request]; p != nil {
				p.Proved = ev.ID
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
			// A made request's device message is never read again (a
			// reveal or proof of it is refused; the roll events carry
			// their own): the state keeps only what later commands and
			// pages read, so a long campaign's state does not hold every
			// request's signed string (the event in the stream does).
			p.Requested.Signed, p.Requested.Signature = "", ""
			p.detach()
		}
	}
}

// detach gives the request's strings and slices memory of their own, in
// one allocation for the strings: a decoded event's strings are parts of
// one string holding all its text (the signed string's too), which a
// request kept for the rest of a long campaign would otherwise keep whole.
// The values do not change. Every string and slice field of
// events.RollRequested is here (TestPendingRollDetach).
func (p *PendingRoll) detach() {
	q := &p.Requested
	ss := []*string{&p.Event, &q.User, &q.Signed, &q.Signature, &q.Request, &q.Commitment, &q.Character, &q.Kind,
		&q.Skill, &q.Attribute, &q.Vs, &q.Target, &q.Weapon, &q.Range, &q.Trait, &q.B, &q.SkillB, &q.AttributeB,
		&q.Rematch, &q.Dice, &q.Note}
	q.Nonces = slices.Clone(q.Nonces)
	q.Participants, q.Tokens = slices.Clone(q.Participants), slices.Clone(q.Tokens)
	for i := range q.Participants {
		ss = append(ss, &q.Participants[i])
	}
	for i := range q.Tokens {
		ss = append(ss, &q.Tokens[i])
	}
	own.Strings(ss...)
}

// V2 reports whether the session draws its dice by journal-dice-v2.
func (s *Session) V2() bool { return s != nil && s.Algorithm == "journal-dice-v2" }

// request returns the session's request id, or nil (s may be nil).
func (s *Session) request(id string) *PendingRoll {
	if s == nil {
		return nil
	}
	return s.Requests[id]
}
