package replay

// Verification of journal-dice-v2's co-signed session ends, void consents
// and repeated rolls (docs/design.md §3.2):
//   - a session.cosign event must hold under its user's registered key, in
//     the co-signed session's scope, and name the hash of that session's
//     session-ended event: SHA-256 of its stored bytes as the input gives
//     them (Input: its verbatim line in an export, its message in the
//     stream), never of a re-encoding; after the end, once per user;
//   - a void that carries a void.consent must be of a v2 roll seen before
//     it, the consent signed by that roll's roller under the key then
//     registered, in the roll's session, naming the voided event and the
//     void's reason;
//   - a request for the same action (the signed action, canonical, and the
//     combat round if any) by the same user in one session, after the first
//     such request was revealed, is flagged.

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// MismatchCosign: a session co-signature that does not hold (hash, session,
// signature, repeated). MismatchConsent: a void's consent that does not
// hold (signature, roller, event, reason).
const (
	MismatchCosign  MismatchKind = "cosign"
	MismatchConsent MismatchKind = "consent"
)

// Cosignature is a verified co-signature of a session's end.
type Cosignature struct {
	User    string `json:"user"`
	Role    string `json:"role"`
	EventID string `json:"event_id"`
}

// v2SessionExtra is what a v2 session keeps for its co-signatures, its
// flags and its last event.
type v2SessionExtra struct {
	endHash string
	cosigs  []Cosignature
	actions map[string][]string // action key → its request ids, in order
	flags   []Flag
	last    time.Time
	lastID  string
}

// verifierV2 is what the Verifier keeps across sessions for v2: the v2
// rolls (for their voids' consents) and the verified consents.
type verifierV2 struct {
	rolls    map[idKey]v2Roll
	consents map[idKey]string // voided roll → the roller who consented
	// keys is each user's last requestKey (v2_prove.go), keyed by user.
	keys map[string]cachedKey
}

type v2Roll struct {
	s      *session
	roller string
}

// storedHash is the hash of an input event's stored bytes, "" when it
// has none (an event never stored): no co-signature or link names it.
func storedHash(rec events.Recorded) string {
	if rec.Raw == nil {
		return ""
	}
	return events.ChainHash(rec.Raw)
}

// touchV2 keeps, for a v2 session, its last event and its session-ended
// event's hash.
func (v *Verifier) touchV2(c *campaign, rec events.Recorded) {
	ev := rec.Event
	if !c.v2 { // no v2 session in the campaign yet
		return
	}
	s := v.sessionOf(ev)
	if s == nil || s.v2 == nil {
		return
	}
	x := &s.v2.x
	if ev.Time.After(x.last) {
		x.last, x.lastID = ev.Time, ev.ID
	}
	if ev.Type == events.TypeSessionEnded && !s.ended {
		x.endHash = storedHash(rec)
	}
}

// cosignEvent checks a session.cosign event of s.
func (v *Verifier) cosignEvent(s *session, c *campaign, m Mismatch, ev events.Event, d *events.SessionCosigned) {
	msg := v.open(s, m, c.fold, ev, d.User, d.Signed, d.Signature)
	if msg == nil {
		return
	}
	bad := func(format string, args ...any) {
		m.Kind, m.What = MismatchCosign, fmt.Sprintf(format, args...)
		v.record(s, m)
	}
	cs, ok := msg.(*signed.Cosign)
	if !ok {
		bad("the signed message is a %s, not a session.cosign", msg.Kind())
		return
	}
	x := &s.v2.x
	switch {
	case cs.Ended.String() != d.Ended:
		bad("the event's hash %s is not the signed one %s", clip(d.Ended, 80), cs.Ended)
		return
	case !s.ended:
		bad("co-signs session %s, which has not ended before it", s.id)
		return
	case d.EndedEvent != s.endID:
		bad("names session-ended event %s, session %s's is %s", clip(d.EndedEvent, 80), s.id, s.endID)
		return
	case x.endHash == "":
		bad("session %s's session-ended event %s has no stored bytes in the input to check the co-signature against", s.id, s.endID)
		return
	case d.Ended != x.endHash:
		bad("co-signs hash %s, session %s's session-ended event %s hashes to %s: the end was changed after it was co-signed, or this is another end's co-signature",
			d.Ended, s.id, s.endID, x.endHash)
		return
	}
	for _, prev := range x.cosigs {
		if prev.User == d.User {
			bad("%s co-signs session %s a second time (first: event %s)", d.User, s.id, prev.EventID)
			return
		}
	}
	role := ""
	if p := c.fold.Participants[d.User]; p != nil {
		role = p.Role
	}
	x.cosigs = append(x.cosigs, Cosignature{User: d.User, Role: role, EventID: ev.ID})
}

// rolledV2 keeps a v2 roll's roller (the requester) for its void's consent,
// and lists the roll as voided when a void of it is known.
func (v *Verifier) rolledV2(s *session, ev events.Event, d *events.RollMade, r *v2Request) {
	if v.x.rolls == nil {
		v.x.rolls = map[idKey]v2Roll{}
	}
	k := keyOf(ev.ID)
	v.x.rolls[k] = v2Roll{s: s, roller: r.d.User}
	if vi := v.voids[k]; vi != nil && !vi.resolved {
		vi.resolved = true
		s.voided = append(s.voided, VoidedRoll{EventID: ev.ID, Nonce: d.Nonce, VoidedBy: vi.by, Reason: vi.reason})
	}
}

// voidConsent checks the consent a void carries, if any.
func (v *Verifier) voidConsent(c *campaign, m Mismatch, ev events.Event, d *events.EventVoided) {
	if d.ConsentUser == "" && d.ConsentSigned == "" && d.ConsentSignature == "" {
		return
	}
	roll, ok := v.x.rolls[keyOf(d.EventID)]
	bad := func(s *session, format string, args ...any) {
		m.Kind, m.What = MismatchConsent, fmt.Sprintf(format, args...)
		v.record(s, m)
	}
	if !ok {
		bad(v.sessionOf(ev), "the void carries a consent for event %s, which is no journal-dice-v2 roll before it", clip(d.EventID, 80))
		return
	}
	if d.ConsentUser != roll.roller {
		bad(roll.s, "the consent is %q's, roll %s is %q's", d.ConsentUser, d.EventID, roll.roller)
		return
	}
	p := c.fold.Participants[d.ConsentUser]
	if len(p.ActiveDevices()) == 0 {
		bad(roll.s, "the consent is signed by %q, who has no registered key at this point", d.ConsentUser)
		return
	}
	msg, _, err := v.openUnder(p.ActiveDevices(), d.ConsentSigned, d.ConsentSignature, ev.Campaign, roll.s.id)
	if err != nil {
		bad(roll.s, "%s's consent does not hold under the key registered at seq %d (%s): %v", d.ConsentUser, p.Seq, p.Fingerprint, err)
		return
	}
	vc, ok := msg.(*signed.VoidConsent)
	switch {
	case !ok:
		bad(roll.s, "the signed consent is a %s, not a void.consent", msg.Kind())
	case vc.Event != d.EventID:
		bad(roll.s, "the consent names event %s, the void voids %s", vc.Event, d.EventID)
	case vc.Reason != d.Reason:
		bad(roll.s, "the consent's reason %q is not the void's %q", clip(vc.Reason, 200), clip(d.Reason, 200))
	default:
		if v.x.consents == nil {
			v.x.consents = map[idKey]string{}
		}
		v.x.consents[keyOf(d.EventID)] = d.ConsentUser
	}
}

// repeatedRequest flags a request for the same action as an earlier one of
// the same user in the session, once that one was revealed.
func (v *Verifier) repeatedRequest(s *session, c *campaign, ev events.Event, d *events.RollRequested, request string, action []byte) {
	x := &s.v2.x
	key, ok := actionKey(c.fold, d.User, action)
	if !ok {
		return
	}
	if x.actions == nil {
		x.actions = map[string][]string{}
	}
	earlier := x.actions[key]
	for i, id := range earlier {
		if r := s.v2.requests[id]; r != nil && r.state == projections.RequestMade {
			x.flags = append(x.flags, newFlag(FlagRepeated, ev.ID, "rp2.f.repeated", request, ev.ID, d.User, id, r.event))
			// A made request stays made: no later request of this action
			// looks past it, so the list ends there (it does not grow with
			// every repetition of a long campaign).
			x.actions[key] = earlier[:i+1]
			return
		}
	}
	x.actions[key] = append(earlier, request)
}

// actionKey is what makes two requests the same action: the user, the
// signed action (canonical JSON), and the combat and round in progress.
func actionKey(fold *projections.Campaign, user string, signedAction []byte) (string, bool) {
	var action map[string]any
	if json.Unmarshal(signedAction, &action) != nil {
		return "", false
	}
	b, err := json.Marshal(action) // sorted members
	if err != nil {
		return "", false
	}
	round := ""
	if cb := fold.Combat; cb != nil {
		round = fmt.Sprintf("%d/%d", cb.StartSeq, cb.Round)
	}
	return user + "|" + round + "|" + string(b), true
}
