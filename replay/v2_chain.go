package replay

// Verification of journal-dice-v2 GM rolls from precommitted witness
// chains (docs/design.md §3.3, "GM rolls: precommitted witnesses, combined";
// the derivation is rules/dice's v2_witness.go; web/static/verify.js
// checks the same):
//   - a session is of witness chains when a contribution that counts
//     (countsAsPlayers) has a witness_anchor; its devices are those, in
//     contribution order, the first per user; its j-th GM request records
//     witness_index j (0 in any other session);
//   - each recorded witness (roll.witnessed) is signed by its user's key,
//     names a pending GM request of the session with its index, comes from
//     a device of the session, once, and its value hashes j times to that
//     device's anchor;
//   - the roll (witness "chain") lists the recorded witnesses, every one
//     of them, in contribution order, and r = dice.CombineWitnesses of
//     them; a list without every device's value is flagged
//     partial-witness naming who is missing, and must come after the
//     GM's wait; one whose every value comes from a device whose key
//     someone else registered is flagged witness-key-by-other;
//   - a beacon request of a session of witness chains names a round at
//     least minBeaconAhead after its time (an older session's, as before,
//     any round not yet published); a receipt (roll.receipted) counts when a player's device
//     signed it and it was recorded before the round's time; a beacon
//     roll without one is flagged beacon-unseen.
// Sessions without anchors keep the first-witness rule (v2_witness.go).

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// chainWitness is the witness of a GM roll made from witness chains
// (command.WitnessChain).
const chainWitness = "chain"

// minBeaconAhead is command.MinBeaconAhead.
const minBeaconAhead = 60 * time.Second

// v2Anchor is a device of a session of witness chains.
type v2Anchor struct {
	user   string
	anchor [32]byte
}

// signedAnchor is the witness anchor a contribution records: "" for none.
func signedAnchor(c *signed.Contribute) string {
	if c.WitnessAnchor.IsZero() {
		return ""
	}
	return c.WitnessAnchor.String()
}

// addAnchor adds the witness chain of a contribution that counts by user
// (the first per user).
func (x *v2Session) addAnchor(user string, c *signed.Contribute) {
	if c.WitnessAnchor.IsZero() || slices.ContainsFunc(x.anchors, func(a v2Anchor) bool { return a.user == user }) {
		return
	}
	x.anchors = append(x.anchors, v2Anchor{user: user, anchor: [32]byte(c.WitnessAnchor)})
}

// checkWitnessIndex checks a GM request's witness index: the number of
// GM requests so far in a session of witness chains, 0 in another.
func (v *Verifier) checkWitnessIndex(s *session, _ *campaign, fail func(string, ...any) bool, d *events.RollRequested) bool {
	want := 0
	if len(s.v2.anchors) > 0 {
		s.v2.gmRequests++
		want = s.v2.gmRequests
	}
	if d.WitnessIndex != want {
		return fail("a GM's request with witness index %d, want %d (the session's GM requests so far, in a session of witness chains; 0 in another)", d.WitnessIndex, want)
	}
	return true
}

// witnessedEvent checks a recorded chain witness and keeps it for its
// request's roll.
func (v *Verifier) witnessedEvent(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollWitnessed) {
	fail := func(kind MismatchKind, format string, args ...any) {
		m.Kind, m.What = kind, fmt.Sprintf(format, args...)
		v.record(s, m)
	}
	r := s.v2.requests[d.Request]
	k := slices.IndexFunc(s.v2.anchors, func(a v2Anchor) bool { return a.user == d.User })
	switch {
	case r == nil:
		fail(MismatchRequest, "witnesses request %s, which is not recorded before", d.Request)
		return
	case r.d.WitnessIndex == 0:
		fail(MismatchRequest, "a chain witness of request %s, which takes none (not a GM's request of a session of witness chains)", d.Request)
		return
	case r.state != projections.RequestPending:
		fail(MismatchRequest, "witnesses request %s, which is already %s", d.Request, r.state)
		return
	case d.Index != r.d.WitnessIndex:
		fail(MismatchReveal, "a witness with index %d for request %s, whose witness index is %d", d.Index, d.Request, r.d.WitnessIndex)
		return
	case k < 0:
		fail(MismatchSignature, "witnessed by %s, whose device contributed no witness chain to the session", d.User)
		return
	case slices.ContainsFunc(r.witnessed, func(g events.GMWitness) bool { return g.User == d.User }):
		fail(MismatchRequest, "%s witnesses request %s a second time", d.User, d.Request)
		return
	}
	msg := v.open(s, m, c.fold, ev, d.User, d.Signed, d.Signature)
	if msg == nil {
		return
	}
	w, ok := msg.(*signed.Witness)
	if !ok || w.Request != d.Request || w.Index != d.Index || w.Value.String() != d.Value {
		fail(MismatchSignature, "the event's request, index and value are not the signed witness's")
		return
	}
	if !dice.WitnessMatches([32]byte(w.Value), s.v2.anchors[k].anchor, d.Index) {
		fail(MismatchReveal, "%s's witness value for request %s does not hash %d times to its witness anchor %x: not its chain", d.User, d.Request, d.Index, s.v2.anchors[k].anchor)
		return
	}
	r.witnessed = append(r.witnessed, events.GMWitness{User: d.User, Value: d.Value})
}

// receiptedEvent checks a recorded beacon receipt and marks its request
// receipted when it counts.
func (v *Verifier) receiptedEvent(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollReceipted) {
	r := s.v2.requests[d.Request]
	if r == nil || r.d.BeaconRound == 0 {
		m.Kind, m.What = MismatchRequest, fmt.Sprintf("receipts request %s, which is not a beacon request recorded before", d.Request)
		v.record(s, m)
		return
	}
	msg := v.open(s, m, c.fold, ev, d.User, d.Signed, d.Signature)
	if msg == nil {
		return
	}
	if rc, ok := msg.(*signed.Receipt); !ok || rc.Request != d.Request {
		m.Kind, m.What = MismatchSignature, "the event's request is not the signed receipt's"
		v.record(s, m)
		return
	}
	if countsAsPlayers(c.fold, s.starter, d.User) && ev.Time.Before(beacon.Quicknet().TimeOf(r.d.BeaconRound)) {
		r.receipted = true
	}
}

// chainR checks a GM roll made from witness chains and returns its r.
func (v *Verifier) chainR(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollMade, r *v2Request, rv [32]byte) ([32]byte, bool) {
	fail := func(kind MismatchKind, format string, args ...any) ([32]byte, bool) {
		m.Kind, m.What = kind, fmt.Sprintf(format, args...)
		v.record(s, m)
		return [32]byte{}, false
	}
	switch {
	case d.Signed != "" || d.Signature != "" || d.BeaconSignature != "" || d.BeaconRound != 0:
		return fail(MismatchReveal, "a roll of witness chains that records a device's message or a beacon round")
	case d.WitnessIndex != r.d.WitnessIndex:
		return fail(MismatchReveal, "a roll of witness index %d for request %s, whose index is %d", d.WitnessIndex, d.Request, r.d.WitnessIndex)
	case len(d.Witnesses) == 0:
		return fail(MismatchReveal, "a roll of witness chains without witnesses")
	}
	// The list: the recorded witnesses, every one, in contribution order.
	var want []events.GMWitness
	var missing []string
	for _, a := range s.v2.anchors {
		if k := slices.IndexFunc(r.witnessed, func(g events.GMWitness) bool { return g.User == a.user }); k >= 0 {
			want = append(want, r.witnessed[k])
		} else {
			missing = append(missing, a.user)
		}
	}
	if !slices.Equal(d.Witnesses, want) {
		return fail(MismatchReveal, "the roll's witnesses %v are not the ones recorded for request %s, in contribution order (%v)", d.Witnesses, d.Request, want)
	}
	values := make([][32]byte, len(want))
	for i, g := range want {
		values[i], _ = dice.ParseHex32(g.Value) // checked against the anchor
	}
	if got := dice.CombineWitnesses(values); got != rv {
		return fail(MismatchReveal, "r %s is not the combination of the witnesses' values (%x)", clip(d.Reveal, 80), got)
	}
	// Every value from a device whose key someone else registered (the
	// GM's sock puppets): whoever holds those keys chose r.
	if by := registeredByOther(c, want[0].User); by != "" && !slices.ContainsFunc(want, func(g events.GMWitness) bool {
		return registeredByOther(c, g.User) == ""
	}) {
		s.v2.gm.flags = append(s.v2.gm.flags, newFlag(FlagWitnessKeyByOther, ev.ID, "rp2.f.witness_key_by_other", d.Request, ev.ID, WitnessList(want), by))
	}
	if len(missing) > 0 {
		if p := c.fold.Participants[ev.Actor]; !isGMUser(c, ev.Actor) && (ev.Actor != "gm" || p != nil) {
			return fail(MismatchRequest, "resolved without %s's witness by %q, who is not a GM", strings.Join(missing, ", "), ev.Actor)
		}
		from := r.at
		if n := r.d.BeaconRound; n > 0 {
			if t := beacon.Quicknet().TimeOf(n); t.After(from) {
				from = t
			}
		}
		if due := from.Add(time.Duration(r.d.Wait) * time.Second); ev.Time.Before(due) {
			return fail(MismatchRequest, "resolved without %s's witness at %s, before the wait the GM chose ended (%s)",
				strings.Join(missing, ", "), ev.Time.Format(time.RFC3339), due.Format(time.RFC3339))
		}
		s.v2.gm.flags = append(s.v2.gm.flags, newFlag(FlagPartialWitness, ev.ID, "rp2.f.partial_witness", d.Request, ev.ID, strings.Join(missing, ", "), len(want), len(s.v2.anchors)))
	}
	if r.d.BeaconRound > 0 {
		s.v2.gm.flags = append(s.v2.gm.flags, newFlag(FlagBeaconNotUsed, ev.ID, "rp2.f.beacon_not_used", d.Request, r.event, r.d.BeaconRound, WitnessList(d.Witnesses), ev.ID))
	}
	return rv, true
}

// WitnessList names the users of a roll's chain witnesses, joined by ", ".
func WitnessList(ws []events.GMWitness) string {
	names := make([]string, len(ws))
	for i, g := range ws {
		names[i] = g.User
	}
	return strings.Join(names, ", ")
}

// registeredByOther is who registered every active device of user when
// that is someone other than user (a GM's sock puppet), else "".
func registeredByOther(c *campaign, user string) string {
	by := ""
	for _, d := range c.fold.Participants[user].ActiveDevices() {
		if d.By == "" || d.By == user {
			return ""
		}
		by = d.By
	}
	return by
}
