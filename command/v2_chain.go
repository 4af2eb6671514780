package command

// GM rolls from precommitted witness chains (docs/design.md §3.3, "GM rolls:
// precommitted witnesses, combined"; the derivation is rules/dice's
// v2_witness.go).
//
// Invariants:
//   - A session is of witness chains when a player's (non-GM)
//     contribution has a witness_anchor; its contributing devices are those
//     contributions, in contribution order, one per user (a user's second
//     anchor is refused). Its j-th GM request (j = 1, 2, … in stream order)
//     records witness_index j.
//   - Each contributing device witnesses a GM request once, with index j
//     and the value w_j that hashes j times to its anchor; anything else
//     (a wrong index or chain, a second witness, a user without an anchor)
//     records nothing and gets one error. A value is recorded as it comes
//     (events.RollWitnessed); with the last one in, the roll is made in the
//     same append, r = dice.CombineWitnesses of every value in contribution
//     order.
//   - After its wait the GM may resolve a request with the values present
//     (ResolveUnwitnessed): the roll lists who witnessed, the audit flags
//     partial-witness naming who is missing. With none present it is
//     unwitnessed as before.
//   - A beacon request names a round at least MinBeaconAhead after its
//     time; a player's device that sees it before the round receipts it
//     (Receipt, events.RollReceipted), once per user, only before the
//     round's time.

import (
	"context"
	"slices"
	"time"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// WitnessChain is the witness field of a GM roll made from witness chains.
const WitnessChain = "chain"

// MinBeaconAhead is how long after a GM's request its beacon round must
// be published at the earliest: time for players' devices to receipt it.
const MinBeaconAhead = 60 * time.Second

// BeaconFarEnough reports whether quicknet round n is published at least
// MinBeaconAhead after a request at time at.
func BeaconFarEnough(n uint64, at time.Time) bool {
	return !beacon.Quicknet().TimeOf(n).Before(at.Add(MinBeaconAhead))
}

// ChainWitnesses returns the contributing devices of a session of witness
// chains: the anchors of contributions by users who are not GMs in c, in
// contribution order, the first per user; none in an older session.
func ChainWitnesses(c *projections.Campaign, s *projections.Session) []projections.WitnessAnchor {
	var out []projections.WitnessAnchor
	for _, a := range s.WitnessAnchors {
		if IsGM(c, a.User) || slices.ContainsFunc(out, func(b projections.WitnessAnchor) bool { return b.User == a.User }) {
			continue
		}
		out = append(out, a)
	}
	return out
}

// checkAnchor checks a contribution's witness anchor and returns it as
// recorded ("" for none).
func (d *draft) checkAnchor(user string, s *projections.Session, c *signed.Contribute) (string, error) {
	if c.WitnessAnchor.IsZero() {
		return "", nil
	}
	for _, a := range s.WitnessAnchors {
		if a.User == user {
			return "", invalid("%s already contributed a witness chain to session %s: one per device", user, s.ID)
		}
	}
	return c.WitnessAnchor.String(), nil
}

// nextWitnessIndex returns the witness index of a GM request about to be
// recorded in s: 0 unless s is a session of witness chains.
func (d *draft) nextWitnessIndex(s *projections.Session) (int, error) {
	if len(ChainWitnesses(d.campaign, s)) == 0 {
		return 0, nil
	}
	j := s.GMRequests + 1
	if j > dice.MaxWitnessIndex {
		return 0, invalid("session %s has had %d GM rolls, the most a witness chain answers: end it and start another", s.ID, dice.MaxWitnessIndex)
	}
	return j, nil
}

// chainWitness records the actor's witness w for the GM's request p of a
// session of witness chains, and makes the roll once every contributing
// device's value is in.
func (j *Handler) chainWitness(ctx context.Context, d *draft, s *projections.Session, p *projections.PendingRoll, w *signed.Witness, msg SignedMessage) error {
	q := p.Requested
	devices := ChainWitnesses(d.campaign, s)
	i := slices.IndexFunc(devices, func(a projections.WitnessAnchor) bool { return a.User == j.actor })
	switch {
	case q.WitnessIndex == 0:
		return invalid("request %s is of a session without witness chains: send a witness without index", q.Request)
	case w.Index != q.WitnessIndex:
		return invalid("witness for request %s has index %d: the request's is %d (the session's GM request number %d)", q.Request, w.Index, q.WitnessIndex, q.WitnessIndex)
	case i < 0:
		return invalid("%s contributed no witness chain to session %s: only the devices that did witness its GM rolls", j.actor, s.ID)
	case slices.ContainsFunc(p.Witnessed, func(g events.GMWitness) bool { return g.User == j.actor }):
		return invalid("%s already witnessed request %s: one witness per device", j.actor, q.Request)
	}
	anchor, err := dice.ParseHex32(devices[i].Anchor)
	if err != nil {
		return msgerr.Errorf("recorded anchor of %s: %w", j.actor, err)
	}
	if !dice.WitnessMatches([32]byte(w.Value), anchor, q.WitnessIndex) {
		return invalid("witness value for request %s does not hash %d times to %s's witness anchor %s: not this device's chain", q.Request, q.WitnessIndex, j.actor, devices[i].Anchor)
	}
	d.add(events.KindCharacter, freeAggregate(q.Character), events.TypeRollWitnessed, events.RollWitnessed{
		User: j.actor, Request: q.Request, Index: w.Index, Value: w.Value.String(), Signed: msg.Signed, Signature: msg.Signature})
	got := append(slices.Clone(p.Witnessed), events.GMWitness{User: j.actor, Value: w.Value.String()})
	if len(got) < len(devices) {
		return nil
	}
	return j.drawChain(ctx, d, s, p, got)
}

// drawChain makes the roll of the GM's request p from the witness values
// got (any order), combined in contribution order.
func (j *Handler) drawChain(ctx context.Context, d *draft, s *projections.Session, p *projections.PendingRoll, got []events.GMWitness) error {
	var list []events.GMWitness
	var values [][32]byte
	for _, a := range ChainWitnesses(d.campaign, s) {
		k := slices.IndexFunc(got, func(g events.GMWitness) bool { return g.User == a.User })
		if k < 0 {
			continue
		}
		v, err := dice.ParseHex32(got[k].Value)
		if err != nil {
			return msgerr.Errorf("recorded witness of %s: %w", a.User, err)
		}
		list, values = append(list, got[k]), append(values, v)
	}
	key, err := j.sessionKeyV2(ctx, d.campaign, s)
	if err != nil {
		return err
	}
	return d.drawV2(s, key, p.Requested, v2Source{R: dice.CombineWitnesses(values), Witness: WitnessChain,
		WitnessIndex: p.Requested.WitnessIndex, Witnesses: list})
}

// RollReceiptSigned is a player's device's signed beacon.receipt of a GM's
// beacon request; Character as in RollWitnessSigned.
type RollReceiptSigned struct {
	Character string `json:"character" cli:"-"`
	SignedMessage
}

// Receipt records the actor's signed beacon.receipt of a GM's pending
// request pinned to a beacon round, before that round's time: a player
// who is not a GM, once per request.
func (j *Handler) Receipt(ctx context.Context, campaign string, in RollReceiptSigned) (Result, error) {
	msg := in.SignedMessage
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := d.openV2()
		if err != nil {
			return err
		}
		if in.Character != "" {
			if err := characterExists(d.campaign, in.Character); err != nil {
				return err
			}
		}
		rc, err := signedAs[*signed.Receipt](d, j.actor, msg, s.ID, signed.TypeReceipt)
		if err != nil {
			return err
		}
		if j.isGM(d.campaign) {
			return invalid("%s is the GM: a beacon request is receipted by a player's device", j.actor)
		}
		_, p, _, err := d.gmRequest(rc.Request)
		if err != nil {
			return err
		}
		n := p.Requested.BeaconRound
		switch {
		case n == 0:
			return invalid("request %s names no beacon round: nothing to receipt", rc.Request)
		case !d.now.Before(beacon.Quicknet().TimeOf(n)):
			return invalid("beacon round %d of request %s was published at %s: a receipt counts only before it", n, rc.Request, beacon.Quicknet().TimeOf(n).Format(time.RFC3339))
		case slices.Contains(p.Receipted, j.actor):
			return invalid("%s already receipted request %s", j.actor, rc.Request)
		}
		d.add(events.KindCharacter, freeAggregate(p.Requested.Character), events.TypeRollReceipted, events.RollReceipted{
			User: j.actor, Request: rc.Request, Signed: msg.Signed, Signature: msg.Signature})
		return nil
	})
}
