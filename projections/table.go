package projections

// The table's roll calls and void proposals (events/types_table.go),
// folded: the open calls with who answered each, and the open void
// proposals with their rollers' consents.
//
// Invariants:
//   - A call is open from its journal.call.made.v1 until its
//     journal.call.closed.v1; Calls holds the open ones, in the order they
//     were made. CallsMade counts every call made (voided ones too), so
//     that the next call's id ("call-N") is never one given before.
//   - A character answers a call once: Answered maps it to the event that
//     answered (a roll, or a journal-dice-v2 request); the cancellation of
//     that request frees the character to answer again, and so does the
//     void of the answer's journal.call.answered.v1 (a voided event is not
//     folded).
//   - A void proposal is open from its journal.void.proposed.v1 until the
//     void of its event; VoidsProposed counts every proposal made. Its
//     consent is the last journal.void.consented.v1 for it.

import (
	"fmt"
	"slices"
	"time"

	"github.com/campaign-journal/journal/events"
)

// Call is an open roll call, as the table shows it.
type Call struct {
	ID         string    `json:"id"`
	Characters []string  `json:"characters"`
	Skill      string    `json:"skill,omitempty"`
	Attribute  string    `json:"attribute,omitempty"`
	Vs         string    `json:"vs,omitempty"`
	Note       string    `json:"note,omitempty"`
	By         string    `json:"by"`
	Created    time.Time `json:"created"`
	// Event is the call's journal.call.made.v1.
	Event string `json:"event"`
	// Answered maps each character who answered to the event that
	// answered (always a map, empty when none did).
	Answered map[string]string `json:"answered"`
	// Answers are the answers in the order recorded, with a v2 answer's
	// request id, so that its cancellation frees its character.
	Answers []CallAnswer `json:"answers,omitempty"`
}

// CallAnswer is one answer of a call, as recorded.
type CallAnswer struct {
	Character string `json:"character"`
	Event     string `json:"event"`
	Request   string `json:"request,omitempty"`
}

// VoidProposal is an open proposal to void a v2 roll, with its roller's
// consent once given.
type VoidProposal struct {
	ID        string    `json:"id"`
	EventID   string    `json:"event_id"`
	Reason    string    `json:"reason"`
	Session   string    `json:"session"`
	Character string    `json:"character"`
	Roller    string    `json:"roller"`
	By        string    `json:"by"`
	Created   time.Time `json:"created"`
	// Event is the proposal's journal.void.proposed.v1.
	Event string `json:"event"`
	// The roller's signed void.consent, as the void command takes it.
	ConsentSigned    string `json:"consent_signed,omitempty"`
	ConsentSignature string `json:"consent_signature,omitempty"`
}

// CallID is the id of the n-th call of a campaign (from 1).
func CallID(n int) string { return fmt.Sprintf("call-%d", n) }

// ProposalID is the id of the n-th void proposal of a campaign (from 1).
func ProposalID(n int) string { return fmt.Sprintf("void-%d", n) }

// OpenCall returns the open call id, or nil.
func (c *Campaign) OpenCall(id string) *Call {
	for _, call := range c.Calls {
		if call.ID == id {
			return call
		}
	}
	return nil
}

// OpenVoidProposal returns the open void proposal id, or nil.
func (c *Campaign) OpenVoidProposal(id string) *VoidProposal {
	for _, p := range c.VoidProposals {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// applyTable folds the table's events; false for any other.
func (c *Campaign) applyTable(rec events.Recorded, data any) bool {
	ev := rec.Event
	switch d := data.(type) {
	case *events.CallMade:
		c.CallsMade++
		c.Calls = append(c.Calls, &Call{ID: d.Call, Characters: slices.Clone(d.Characters), Skill: d.Skill,
			Attribute: d.Attribute, Vs: d.Vs, Note: d.Note, By: d.By, Created: ev.Time, Event: ev.ID,
			Answered: map[string]string{}})
	case *events.CallClosed:
		c.Calls = slices.DeleteFunc(c.Calls, func(call *Call) bool { return call.ID == d.Call })
	case *events.CallAnswered:
		if call := c.OpenCall(d.Call); call != nil {
			if call.Answered == nil {
				call.Answered = map[string]string{}
			}
			call.Answered[d.Character] = d.Event
			call.Answers = append(call.Answers, CallAnswer{Character: d.Character, Event: d.Event, Request: d.Request})
		}
	case *events.VoidProposed:
		c.VoidsProposed++
		c.VoidProposals = append(c.VoidProposals, &VoidProposal{ID: d.Proposal, EventID: d.EventID, Reason: d.Reason,
			Session: d.Session, Character: d.Character, Roller: d.Roller, By: d.By, Created: ev.Time, Event: ev.ID})
	case *events.VoidConsented:
		if p := c.OpenVoidProposal(d.Proposal); p != nil {
			p.ConsentSigned, p.ConsentSignature = d.Signed, d.Signature
		}
	default:
		return false
	}
	return true
}

// applyVoidedTable counts a voided call or proposal, so that no id is
// given twice.
func (c *Campaign) applyVoidedTable(data any) {
	switch data.(type) {
	case *events.CallMade:
		c.CallsMade++
	case *events.VoidProposed:
		c.VoidsProposed++
	}
}

// unanswer frees the characters whose answer was the cancelled v2
// request.
func (c *Campaign) unanswer(request string) {
	if request == "" {
		return
	}
	for _, call := range c.Calls {
		for i := len(call.Answers) - 1; i >= 0; i-- {
			if a := call.Answers[i]; a.Request == request {
				delete(call.Answered, a.Character)
				call.Answers = slices.Delete(call.Answers, i, i+1)
			}
		}
	}
}

// endProposals ends the void proposals of a voided event.
func (c *Campaign) endProposals(eventID string) {
	c.VoidProposals = slices.DeleteFunc(c.VoidProposals, func(p *VoidProposal) bool { return p.EventID == eventID })
}
