package replay

// Verification of journal-dice-v2 GM rolls (docs/design.md §3.2, "GM rolls"
// and "Play days apart"): a GM's request has no commitment, and its r is
//   - a witness's value: the roll records the player's signed roll.witness,
//     which must hold under the player's registered key, name the request,
//     and come from a registered player who is neither a GM nor the
//     requester; the first roll recorded for the request is final;
//   - a beacon round's randomness: the roll records the round (the one the
//     request named, not yet published at the request's time) and its BLS
//     signature, which must verify under quicknet's pinned key, and r is
//     SHA-256 of it;
//   - the server's ("none"): nothing proves where r came from; the audit
//     flags it (it does not fail), and checks that the wait the GM chose
//     had passed.
// A player's request without commitment, and a GM's with one (the GM may
// know K and would reveal an r of its choice), are mismatches.

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// UnwitnessedRoll is a GM roll whose r came from the journal's server: no
// player's device witnessed it within its wait. The audit lists it.
type UnwitnessedRoll struct {
	Request string `json:"request"`
	Nonce   uint64 `json:"nonce"`
	EventID string `json:"event_id"`
}

// v2GM is what the verifier keeps of a session's GM rolls.
type v2GM struct {
	at          map[string]time.Time // request id -> its event's time
	source      map[string]string    // request id -> its first roll's source (witness, reveal, signed)
	unwitnessed []UnwitnessedRoll
	flags       []Flag
}

// signedCommitment is the commitment a request records: "" for one
// without (a GM's).
func signedCommitment(req *signed.Request) string {
	if req.Witnessed() {
		return ""
	}
	return req.Commitment.String()
}

// isGMUser reports whether user is registered with the role gm in fold's
// state at this point of the stream.
func isGMUser(c *campaign, user string) bool {
	p := c.fold.Participants[user]
	return p != nil && p.Role == "gm"
}

// checkGMRequest checks who may omit the commitment (a GM only, who must)
// and a GM request's wait and beacon round. It records a mismatch and
// returns false when they do not hold.
func (v *Verifier) checkGMRequest(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollRequested) bool {
	gm := isGMUser(c, d.User)
	fail := func(format string, args ...any) bool {
		m.Kind, m.What = MismatchRequest, fmt.Sprintf(format, args...)
		v.record(s, m)
		return false
	}
	switch {
	case gm && d.Commitment != "":
		return fail("a GM's request (%s) with a commitment: the GM may know the session key, so it would reveal an r of its choice", d.User)
	case !gm && d.Commitment == "":
		return fail("a request of %s without commitment: only a GM's request is witnessed", d.User)
	case !gm && (d.Wait != 0 || d.BeaconRound != 0):
		return fail("a player's request with a wait or a beacon round")
	case !gm:
		return true
	case d.Wait <= 0:
		return fail("a GM's request without a wait for a witness (wait %d s)", d.Wait)
	}
	if n := d.BeaconRound; n > 0 {
		if chain := beacon.Quicknet(); !chain.IsFuture(n, ev.Time) {
			return fail("names beacon round %d, published at %s, before the request (%s): its randomness was known",
				n, chain.TimeOf(n).Format(time.RFC3339), ev.Time.Format(time.RFC3339))
		} else if len(s.v2.anchors) > 0 && chain.TimeOf(n).Before(ev.Time.Add(minBeaconAhead)) {
			// In a session of witness chains (an older export's rounds
			// may be nearer: it verifies as before).
			return fail("names beacon round %d, published at %s, less than %s after the request (%s): no player's device had time to receipt it",
				n, chain.TimeOf(n).Format(time.RFC3339), minBeaconAhead, ev.Time.Format(time.RFC3339))
		}
	}
	if !v.checkWitnessIndex(s, c, fail, d) { // v2_chain.go
		return false
	}
	if s.v2.gm.at == nil {
		s.v2.gm.at, s.v2.gm.source = map[string]time.Time{}, map[string]string{}
	}
	s.v2.gm.at[d.Request] = ev.Time
	return true
}

// gmRollR checks where a GM request's roll took r from and returns it. It
// records a mismatch and returns false when the source does not hold.
func (v *Verifier) gmRollR(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollMade, r *v2Request, damage bool) ([32]byte, bool) {
	fail := func(kind MismatchKind, format string, args ...any) ([32]byte, bool) {
		m.Kind, m.What = kind, fmt.Sprintf(format, args...)
		v.record(s, m)
		return [32]byte{}, false
	}
	rv, err := hex.DecodeString(d.Reveal)
	if err != nil || len(rv) != 32 {
		return fail(MismatchReveal, "r %q is not 64 hex digits", clip(d.Reveal, 80))
	}
	src := d.Witness + "|" + d.Reveal + "|" + d.Signed + "|" + d.Signature + "|" + d.BeaconSignature
	if damage {
		// The damage roll of a witnessed attack: the same r, from the same
		// source (the device's message and its signature), as its attack
		// roll.
		if s.v2.gm.source[d.Request] != src {
			return fail(MismatchReveal, "the damage roll's r (witness %q) is not its attack roll's", d.Witness)
		}
		return [32]byte(rv), true
	}
	s.v2.gm.source[d.Request] = src
	switch chained := len(s.v2.anchors) > 0; {
	case d.Witness == chainWitness && !chained:
		return fail(MismatchReveal, "a GM roll made from witness chains in a session without any")
	case chained && d.Witness == "none" && len(r.witnessed) > 0:
		return fail(MismatchReveal, "resolved unwitnessed though %d device(s) had witnessed request %s: their values were left out", len(r.witnessed), d.Request)
	case chained && d.Witness != chainWitness && d.Witness != "none" && d.Witness != "beacon":
		return fail(MismatchReveal, "a GM roll of a session of witness chains with witness %q: its r combines every contributing device's value", d.Witness)
	}
	switch d.Witness {
	case chainWitness:
		return v.chainR(s, c, m, ev, d, r, [32]byte(rv)) // v2_chain.go
	case "":
		return fail(MismatchReveal, "a reveal of a GM's request (%s): it takes a player's witness, the beacon, or an unwitnessed resolution", r.d.User)
	case "beacon":
		return v.beaconR(s, m, d, r, [32]byte(rv))
	case "none":
		if d.Signed != "" || d.Signature != "" || d.BeaconSignature != "" {
			return fail(MismatchReveal, "an unwitnessed roll that records a device's message or a beacon signature")
		}
		if p := c.fold.Participants[ev.Actor]; !isGMUser(c, ev.Actor) && (ev.Actor != "gm" || p != nil) {
			return fail(MismatchRequest, "resolved unwitnessed by %q, who is not a GM", ev.Actor)
		}
		from := s.v2.gm.at[d.Request]
		if n := r.d.BeaconRound; n > 0 {
			if t := beacon.Quicknet().TimeOf(n); t.After(from) {
				from = t
			}
		}
		if due := from.Add(time.Duration(r.d.Wait) * time.Second); ev.Time.Before(due) {
			return fail(MismatchRequest, "resolved unwitnessed at %s, before the wait the GM chose ended (%s)",
				ev.Time.Format(time.RFC3339), due.Format(time.RFC3339))
		}
		s.v2.gm.unwitnessed = append(s.v2.gm.unwitnessed, UnwitnessedRoll{Request: d.Request, Nonce: d.Nonce, EventID: ev.ID})
		return [32]byte(rv), true
	}
	// A player's witness.
	switch {
	case d.Witness != d.User:
		return fail(MismatchSignature, "witness %q, but the device's message is %q's", d.Witness, d.User)
	case d.User == r.d.User:
		return fail(MismatchSignature, "witnessed by %s, the request's own requester", d.User)
	case isGMUser(c, d.User):
		return fail(MismatchSignature, "witnessed by %s, a GM: a GM's roll is witnessed by a player's device", d.User)
	case d.BeaconSignature != "" || d.BeaconRound != 0:
		return fail(MismatchSignature, "a witnessed roll that records a beacon round")
	}
	msg, dev := v.openDevice(s, m, c.fold, ev, d.User, d.Signed, d.Signature)
	if msg == nil {
		return [32]byte{}, false
	}
	w, ok := msg.(*signed.Witness)
	if !ok {
		return fail(MismatchSignature, "the signed message is a %s, not a roll.witness", msg.Kind())
	}
	if w.Request != d.Request || w.Value.String() != d.Reveal {
		return fail(MismatchSignature, "the event's request and r are not the signed witness's")
	}
	req, err := signed.Parse(r.signed)
	if err != nil {
		return fail(MismatchSignature, "the recorded request: %v", err)
	}
	q, _ := req.(*signed.Request)
	if err := signed.CheckWitness(q, w); err != nil {
		return fail(MismatchReveal, "%v", err)
	}
	if by := dev.By; by != "" && by != d.User {
		s.v2.gm.flags = append(s.v2.gm.flags, newFlag(FlagWitnessKeyByOther, ev.ID, "rp2.f.witness_key_by_other", d.Request, ev.ID, d.User, by))
	}
	if r.d.BeaconRound > 0 {
		s.v2.gm.flags = append(s.v2.gm.flags, newFlag(FlagBeaconNotUsed, ev.ID, "rp2.f.beacon_not_used", d.Request, r.event, r.d.BeaconRound, d.User, ev.ID))
	}
	return [32]byte(w.Value), true
}

// beaconR checks a beacon roll: the round the request named, its
// signature under quicknet's key, and r = SHA-256(signature).
func (v *Verifier) beaconR(s *session, m Mismatch, d *events.RollMade, r *v2Request, rv [32]byte) ([32]byte, bool) {
	fail := func(format string, args ...any) ([32]byte, bool) {
		m.Kind, m.What = MismatchReveal, fmt.Sprintf(format, args...)
		v.record(s, m)
		return [32]byte{}, false
	}
	switch {
	case r.d.BeaconRound == 0:
		return fail("a beacon roll for request %s, which names no beacon round", d.Request)
	case d.BeaconRound != r.d.BeaconRound:
		return fail("beacon round %d, the request named round %d", d.BeaconRound, r.d.BeaconRound)
	case d.Signed != "" || d.Signature != "":
		return fail("a beacon roll that records a device's message")
	}
	want, err := beacon.Quicknet().VerifyHex(d.BeaconRound, d.BeaconSignature)
	if err != nil {
		return fail("beacon round %d: %v", d.BeaconRound, err)
	}
	if want != rv {
		return fail("r %s is not SHA-256 of beacon round %d's signature (%x)", clip(d.Reveal, 80), d.BeaconRound, want)
	}
	if !r.receipted {
		s.v2.gm.flags = append(s.v2.gm.flags, newFlag(FlagBeaconUnseen, r.event, "rp2.f.beacon_unseen", d.Request, r.event, d.BeaconRound))
	}
	return rv, true
}

// gmReport adds a session's unwitnessed GM rolls and GM-roll flags to its
// report.
func (s *session) gmReport(sr *SessionReport) {
	g := &s.v2.gm
	sr.Unwitnessed = append(sr.Unwitnessed, g.unwitnessed...)
	for _, u := range g.unwitnessed {
		sr.Flags = append(sr.Flags, newFlag(FlagUnwitnessed, u.EventID, "rp2.f.unwitnessed", u.Request, u.Nonce, u.EventID))
	}
	sr.Flags = append(sr.Flags, g.flags...)
}
