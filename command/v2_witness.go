package command

// GM rolls of journal-dice-v2 (docs/design.md §3.2, "GM rolls" and "Play days
// apart"): the GM may know the session key K, so its request carries no
// commitment and its r comes from someone else.
//
// Invariants:
//   - A GM's request has no commitment; a player's has one. A GM's request
//     records the wait the GM chose (Wait seconds, DefaultWitnessWait when
//     none, at most MaxWitnessWait) and, if it names one, a beacon round
//     that is not yet published at the request's time.
//   - The first valid roll.witness resolves a GM's request: signed by a
//     registered player (not a GM, not the requester) under its key, for a
//     pending request without commitment; r is its value. A later witness,
//     one for an unknown, resolved or cancelled request, or one from the GM
//     records nothing and gets one error.
//   - A beacon request resolves with r = SHA-256(the round's signature)
//     only once the signature verifies for exactly that round under the
//     pinned quicknet key (package beacon); the round and signature are
//     recorded in the roll.
//   - The GM resolves a request unwitnessed (r from the journal's
//     randomness, Witness "none") only after its wait has passed, counted
//     from the request event's time (for a beacon request, from the round's
//     publication time); before, it is refused with the time left.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// Waits of a GM's request for a player's witness.
const (
	DefaultWitnessWait = 5 * time.Minute
	MaxWitnessWait     = 30 * 24 * time.Hour
	// maxBeaconAhead bounds how far ahead a request may pin a round.
	maxBeaconAhead = 366 * 24 * time.Hour
)

// Sources of r recorded in a roll's witness field besides a user.
const (
	WitnessBeacon = "beacon"
	WitnessNone   = "none"
)

// BeaconRounds fetches verified rounds of the quicknet chain
// (beacon.Client does).
type BeaconRounds interface {
	Round(ctx context.Context, n uint64) (beacon.Round, error)
}

// RollWitnessSigned is a player's device's signed roll.witness for a GM's
// request. Character is a character the witnessing player plays (for the
// permissions: it must be the player's own; any character of the campaign
// here), or empty for commands that do not go through them.
type RollWitnessSigned struct {
	Character string `json:"character" help:"a character you play, for the permissions (default: yours, or an NPC)"`
	SignedMessage
}

// checkWitnessed checks who may omit the commitment (only the GM) and the
// GM's wait and beacon round, and returns the wait to record.
func (d *draft) checkWitnessed(gm bool, msg RollRequestSigned, r *signed.Request) (time.Duration, error) {
	switch {
	case gm && !r.Witnessed():
		return 0, invalid("request %s: a GM's request takes no commitment: the GM may know the session key, so its r comes from a player's witness or the beacon", r.Request)
	case !gm && r.Witnessed():
		return 0, invalid("request %s has no commitment: only the GM's rolls are witnessed; a player's device commits to its r", r.Request)
	case !gm && msg.Wait != 0:
		return 0, invalid("request %s: a wait for a witness is for a GM's request", r.Request)
	case !gm:
		return 0, nil
	case r.Wait > uint64(MaxWitnessWait/time.Second):
		return 0, invalid("wait %d s: want 0 (the default, %s) up to %s", r.Wait, DefaultWitnessWait, MaxWitnessWait)
	case r.Wait > 0 && msg.Wait != 0 && uint64(msg.Wait) != r.Wait:
		return 0, invalid("request %s: the wait of %d s is not the one its device signed (%d s)", r.Request, msg.Wait, r.Wait)
	case r.Wait > 0:
		msg.Wait = int(r.Wait) // the signed wait is the one recorded
	}
	wait := time.Duration(msg.Wait) * time.Second
	switch {
	case msg.Wait < 0 || wait > MaxWitnessWait:
		return 0, invalid("wait %d s: want 0 (the default, %s) up to %s", msg.Wait, DefaultWitnessWait, MaxWitnessWait)
	case wait == 0:
		wait = DefaultWitnessWait
	}
	if n := r.BeaconRound; n > 0 {
		chain := beacon.Quicknet()
		if !chain.IsFuture(n, d.now) {
			return 0, invalid("beacon round %d was published at %s: name a future round (the next is %d)",
				n, chain.TimeOf(n).Format(time.RFC3339), chain.NextRound(d.now))
		}
		if !BeaconFarEnough(n, d.now) {
			return 0, invalid("beacon round %d is published at %s, less than %s after the request: name a round at least %s ahead (round %d or later), so that players' devices can receipt the request before it",
				n, chain.TimeOf(n).Format(time.RFC3339), MinBeaconAhead, MinBeaconAhead, chain.NextRound(d.now.Add(MinBeaconAhead)))
		}
		if chain.TimeOf(n).After(d.now.Add(maxBeaconAhead)) {
			return 0, invalid("beacon round %d is published at %s: at most %s ahead", n, chain.TimeOf(n).Format(time.RFC3339), maxBeaconAhead)
		}
	}
	return wait, nil
}

// markWitnessed writes into the drafted roll.requested of the GM's request
// r that it has no commitment, its beacon round, its wait and its witness
// index (0 outside a session of witness chains).
func (d *draft) markWitnessed(r *signed.Request, wait time.Duration, index int) error {
	for i := range d.evs {
		e := &d.evs[i]
		if e.Type != events.TypeRollRequested {
			continue
		}
		var q events.RollRequested
		if err := e.DecodeData(&q); err != nil {
			return err
		}
		if q.Request != r.Request {
			continue
		}
		q.Commitment, q.BeaconRound, q.Wait, q.WitnessIndex = "", r.BeaconRound, int(wait/time.Second), index
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // as events.New writes data
		if err := enc.Encode(q); err != nil {
			return err
		}
		e.Data = bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	}
	return nil
}

// gmRequest returns the open v2 session and the pending GM request id
// there (without commitment), with its signed request.
func (d *draft) gmRequest(id string) (*projections.Session, *projections.PendingRoll, *signed.Request, error) {
	s, err := d.openV2()
	if err != nil {
		return nil, nil, nil, err
	}
	p := s.Requests[id]
	if p == nil {
		return nil, nil, nil, notFound("no roll request %s in session %s", id, s.ID)
	}
	if p.State != projections.RequestPending {
		return nil, nil, nil, invalid("request %s is already %s: the first witness wins", id, p.State)
	}
	m, err := signed.Parse(p.Requested.Signed)
	if err != nil {
		return nil, nil, nil, msgerr.Errorf("recorded request %s: %w", id, err)
	}
	req, ok := m.(*signed.Request)
	if !ok {
		return nil, nil, nil, msgerr.Errorf("recorded request %s is a %s", id, m.Kind())
	}
	if !req.Witnessed() {
		return nil, nil, nil, invalid("request %s has a commitment: its roller (%s) reveals it; no witness or resolution", id, p.Requested.User)
	}
	return s, p, req, nil
}

// Witness records the roll of a GM's pending request from the actor's
// signed roll.witness: its value is r. Only a registered player who is not
// the requester witnesses, and only the first witness is taken.
func (j *Handler) Witness(ctx context.Context, campaign string, in RollWitnessSigned) (Result, error) {
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
		w, err := signedAs[*signed.Witness](d, j.actor, msg, s.ID, signed.TypeWitness)
		if err != nil {
			return err
		}
		if j.isGM(d.campaign) {
			return invalid("%s is the GM: a GM's roll is witnessed by a player's device, never by a GM", j.actor)
		}
		_, p, req, err := d.gmRequest(w.Request)
		if err != nil {
			return err
		}
		if p.Requested.User == j.actor {
			return invalid("request %s is %s's own: its requester does not witness it", w.Request, j.actor)
		}
		if err := signed.CheckWitness(req, w); err != nil {
			return invalid("%v", err)
		}
		if p.Requested.WitnessIndex > 0 || w.Index > 0 {
			return j.chainWitness(ctx, d, s, p, w, msg) // v2_chain.go
		}
		key, err := j.sessionKeyV2(ctx, d.campaign, s)
		if err != nil {
			return err
		}
		return d.drawV2(s, key, p.Requested, v2Source{R: [32]byte(w.Value), Witness: j.actor,
			User: j.actor, Signed: msg.Signed, Signature: msg.Signature})
	})
}

// WaitLeft is how long a pending GM request still waits for a witness at
// now before the GM may resolve it unwitnessed (0 or less: not any more).
// A beacon request's wait counts from its round's publication.
func WaitLeft(p *projections.PendingRoll, now time.Time) time.Duration {
	from := p.At
	if n := p.Requested.BeaconRound; n > 0 {
		if t := beacon.Quicknet().TimeOf(n); t.After(from) {
			from = t
		}
	}
	return from.Add(time.Duration(p.Requested.Wait) * time.Second).Sub(now)
}

// RollResolveRequest resolves a GM's request unwitnessed (after its wait:
// ResolveUnwitnessed) or by its beacon round (ResolveBeacon; Signature is
// the round's, in hex; empty: the CLI fetches it).
type RollResolveRequest struct {
	Request     string `json:"request" cli:"REQUEST"`
	Unwitnessed bool   `json:"unwitnessed,omitempty" cli:"--unwitnessed" help:"after the wait: r combines the witnesses in (flagged partial-witness), or, with none, comes from the journal's server"`
	Beacon      bool   `json:"beacon,omitempty" cli:"--beacon" help:"r from the drand quicknet round the request is pinned to"`
	Signature   string `json:"signature,omitempty" cli:"--signature HEX" help:"the round's signature (hex), if this machine cannot reach the beacon"`
}

// ResolveUnwitnessed records the roll of a GM's pending request that no
// player witnessed within its wait: r comes from the journal's randomness
// and the roll is recorded as unwitnessed (the audit lists it). Before the
// wait has passed it is refused with the time left.
func (j *Handler) ResolveUnwitnessed(ctx context.Context, campaign, request string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if _, err := d.openV2(); err != nil {
			return err
		}
		if !j.isGM(d.campaign) {
			return invalid("only the GM resolves a roll request")
		}
		s, p, _, err := d.gmRequest(request)
		if err != nil {
			return err
		}
		if left := WaitLeft(p, d.now); left > 0 {
			return invalid("request %s waits for a player's witness %s more (until %s): it may be resolved unwitnessed only after the wait",
				request, left.Round(time.Second), d.now.Add(left).Format(time.RFC3339))
		}
		if len(p.Witnessed) > 0 {
			return j.drawChain(ctx, d, s, p, p.Witnessed) // v2_chain.go: partial-witness
		}
		var r [32]byte
		if _, err := io.ReadFull(j.rand, r[:]); err != nil {
			return msgerr.Errorf("randomness for request %s: %w", request, err)
		}
		key, err := j.sessionKeyV2(ctx, d.campaign, s)
		if err != nil {
			return err
		}
		return d.drawV2(s, key, p.Requested, v2Source{R: r, Witness: WitnessNone})
	})
}

// ResolveBeacon records the roll of a GM's pending request pinned to a
// beacon round, with r = SHA-256(the round's signature). signature is the
// round's BLS signature in hex, checked against quicknet's key; empty, the
// journal fetches the round with its Beacon (Options.Beacon).
func (j *Handler) ResolveBeacon(ctx context.Context, campaign, request, signature string) (Result, error) {
	if signature == "" {
		var err error
		if signature, err = j.fetchRound(ctx, campaign, request); err != nil {
			return Result{}, err
		}
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		if _, err := d.openV2(); err != nil {
			return err
		}
		if !j.isGM(d.campaign) {
			return invalid("only the GM resolves a roll request")
		}
		s, p, _, err := d.gmRequest(request)
		if err != nil {
			return err
		}
		n := p.Requested.BeaconRound
		if n == 0 {
			return invalid("request %s names no beacon round: a player witnesses it, or it is resolved unwitnessed", request)
		}
		chain := beacon.Quicknet()
		r, err := chain.VerifyHex(n, signature)
		if err != nil {
			return invalid("beacon round %d (due %s): %v", n, chain.TimeOf(n).Format(time.RFC3339), err)
		}
		key, err := j.sessionKeyV2(ctx, d.campaign, s)
		if err != nil {
			return err
		}
		return d.drawV2(s, key, p.Requested, v2Source{R: r, Witness: WitnessBeacon, Round: n, BeaconSignature: signature})
	})
}

// fetchRound fetches the signature of the round a pending request names.
func (j *Handler) fetchRound(ctx context.Context, campaign, request string) (string, error) {
	c, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return "", err
	}
	s := c.OpenSession()
	var n uint64
	if s != nil && s.Requests[request] != nil {
		n = s.Requests[request].Requested.BeaconRound
	}
	if n == 0 {
		return "", invalid("request %s: no pending beacon request of that id in the open session", request)
	}
	if j.beacon == nil {
		return "", invalid("this journal has no route to the beacon: give round %d's signature, let a player's device witness request %s, or resolve it unwitnessed after its wait", n, request)
	}
	rd, err := j.beacon.Round(ctx, n)
	switch {
	case errors.Is(err, beacon.ErrNotPublished):
		return "", invalid("beacon round %d is not published yet (due %s)", n, beacon.Quicknet().TimeOf(n).Format(time.RFC3339))
	case err != nil:
		return "", invalid("beacon round %d: %v: let a player's device witness request %s, or resolve it unwitnessed after its wait", n, err, request)
	}
	return rd.SignatureHex(), nil
}

// IsGM reports whether actor acts as the campaign's GM in state c (a user
// registered with the role gm, or "gm" unless a player of that name is
// registered): whose v2 requests take a witness.
func IsGM(c *projections.Campaign, actor string) bool {
	return (&Handler{actor: actor}).isGM(c)
}
