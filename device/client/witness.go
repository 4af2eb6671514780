package client

// The device and journal-dice-v2 GM rolls (docs/design.md §3.3.4): the GM's
// roll records a request without commitment and waits for a player's
// witness (or a quicknet round); a player's device witnesses it (Witness,
// or Follow while its user follows the log) and receipts a beacon request
// seen before its round. A device that sent a reveal or a witness checks
// that the journal recorded it, and warns its user if not.

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// warnUnrecorded warns the user when the roll its device's message (a
// reveal or a witness, signedMsg) was sent for is not among the events the
// journal says it recorded.
func (c *Client) warnUnrecorded(res command.Result, signedMsg, what, request string) bool {
	for _, r := range res.Events {
		if r.Event.Type != events.TypeRollMade {
			continue
		}
		var d events.RollMade
		if r.Event.DecodeData(&d) == nil && d.Request == request && d.Signed == signedMsg {
			return false
		}
	}
	if what == "witness" {
		c.warnf("journal: WARNING: your witness for request %s is not in what the journal recorded: the roll was not drawn from it (see 'journal log'; tell the table)", request)
	} else {
		c.warnf("journal: WARNING: your reveal for request %s is not in what the journal recorded: the roll was not drawn from it (see 'journal log'; tell the table)", request)
	}
	return true
}

// Witness sends the device's signed roll.witness for a GM's request
// (`roll witness`) and reports what was recorded.
func (c *Client) Witness(ctx context.Context, t Session, character, request string) error {
	id, err := c.RequestID()
	if err != nil {
		return err
	}
	res, err := c.sendWitness(ctx, t, c.actor(), id, character, request)
	if err != nil {
		return err
	}
	return c.Report(ctx, t.Campaign, res)
}

// sendWitness seals and sends one witness for request under the request
// id id as me, says so on stderr, and warns if it is not recorded.
func (c *Client) sendWitness(ctx context.Context, t Session, me, id, character, request string) (command.Result, error) {
	var w *signed.Witness
	index := 0
	if p := t.Session.Requests[request]; p != nil {
		index = p.Requested.WitnessIndex
	}
	if index > 0 {
		// A session of witness chains: this device's value for the
		// request's index, from the chain its contribution committed to.
		var err error
		if w, err = t.Key.Chain(t.Campaign, t.Session.ID, t.Session.Commitment).Witness(request, index); err != nil {
			return command.Result{}, err
		}
	} else {
		// An older session (no chain): the value is secret to the device
		// until sent, the same for a retry of the same request id (so a
		// retry is the same witness).
		v := t.Key.LegacyWitnessValue(t.Campaign, t.Session.ID, me, request, id)
		w = &signed.Witness{Header: signed.Header{Campaign: t.Campaign, Session: t.Session.ID}, Request: request, Value: v}
	}
	m, err := c.sealed(ctx, t.Campaign, t.Camp.LastSeq, t.Key, w)
	if err != nil {
		return command.Result{}, err
	}
	if character == "" {
		character = ActingCharacter(t.Camp, me)
	}
	res, err := c.Send(ctx, id, t.Campaign, "roll-witness", command.RollWitnessSigned{Character: character, SignedMessage: m})
	if err != nil {
		return res, err
	}
	requester := c.Lang.T("w2.the_gm")
	if p := t.Session.Requests[request]; p != nil {
		requester = p.Requested.User
	}
	if index > 0 {
		c.reportChainWitness(res, t, m.Signed, request, requester, index)
		return res, nil
	}
	if !c.warnUnrecorded(res, m.Signed, "witness", request) {
		c.warnf("journal: witnessed request %s of %s", request, requester)
	}
	return res, nil
}

// reportChainWitness says on stderr that the device's chain witness msg
// for request was recorded, and whether the roll was made (or how many
// witnesses it waits for), or warns that it was not recorded.
func (c *Client) reportChainWitness(res command.Result, t Session, msg, request, requester string, index int) {
	recorded, made := false, false
	for _, r := range res.Events {
		switch r.Event.Type {
		case events.TypeRollWitnessed:
			var d events.RollWitnessed
			recorded = recorded || r.Event.DecodeData(&d) == nil && d.Signed == msg
		case events.TypeRollMade:
			var d events.RollMade
			made = made || r.Event.DecodeData(&d) == nil && d.Request == request
		}
	}
	if !recorded {
		c.warnf("journal: WARNING: your witness for request %s is not in what the journal recorded: the roll was not drawn from it (see 'journal log'; tell the table)", request)
		return
	}
	c.say("w2.witnessed_chain", request, requester, index)
	if !made {
		have := 1
		if p := t.Session.Requests[request]; p != nil {
			have += len(p.Witnessed)
		}
		c.say("w2.waiting_witnesses", request, have, len(command.ChainWitnesses(t.Camp, t.Session)))
	}
}

// Receipt sends the device's signed beacon.receipt of the GM's beacon
// request, before its round (`roll receipt`, and Follow's witness).
func (c *Client) Receipt(ctx context.Context, t Session, request string) (command.Result, error) {
	m, err := c.sealed(ctx, t.Campaign, t.Camp.LastSeq, t.Key, device.BeaconReceipt(t.Campaign, t.Session.ID, request))
	if err != nil {
		return command.Result{}, err
	}
	id, err := c.RequestID()
	if err != nil {
		return command.Result{}, err
	}
	res, err := c.Send(ctx, id, t.Campaign, "roll-receipt", command.RollReceiptSigned{Character: ActingCharacter(t.Camp, c.actor()), SignedMessage: m})
	if err != nil {
		return res, err
	}
	if p := t.Session.Requests[request]; p != nil {
		c.say("w2.receipted", request, p.Requested.User, p.Requested.BeaconRound)
	}
	return res, nil
}

// BeaconSignature fetches, from relay, the round that request of the open
// session s (nil: none) is pinned to and returns its signature (verified
// against quicknet's key).
func BeaconSignature(ctx context.Context, s *projections.Session, request, relay string) (string, error) {
	var n uint64
	if s != nil && s.Requests[request] != nil {
		n = s.Requests[request].Requested.BeaconRound
	}
	if n == 0 {
		return "", usagef("roll resolve --beacon: request %s is not a pending beacon request of the open session", request)
	}
	cl, err := beacon.NewClient(&http.Client{Timeout: 15 * time.Second}, relay, beacon.Quicknet())
	if err != nil {
		return "", usagef("--relay: %v", err)
	}
	rd, err := cl.Round(ctx, n)
	if err != nil {
		return "", msgerr.Errorf("beacon round %d from %s: %w (without a route to the beacon: give --signature, let a player's device witness request %s, or resolve it --unwitnessed after its wait)", n, relay, err, request)
	}
	return rd.SignatureHex(), nil
}

// Follow is a player's device witnessing while its user follows the log:
// it witnesses every GM request recorded while it follows (and those
// pending when it starts), and says so on stderr, once the campaign holds
// the device's key for the user as a player and a v2 session is open. A
// nil *Follow does nothing.
type Follow struct {
	c     *Client
	ctx   context.Context
	open  func(context.Context) (*projections.Campaign, *projections.Session, error)
	me    string
	t     Session
	said  bool
	start uint64 // the campaign's last sequence when the follow began
	done  map[string]bool
}

// NewFollow readies the device key k to witness in campaign (see Follow)
// from the campaign's sequence start on; open reads the campaign and its
// open session afresh.
func (c *Client) NewFollow(ctx context.Context, campaign string, k *device.Key, start uint64,
	open func(context.Context) (*projections.Campaign, *projections.Session, error)) *Follow {
	f := &Follow{c: c, ctx: ctx, open: open, me: c.actor(), t: Session{Campaign: campaign, Key: k}, start: start, done: map[string]bool{}}
	f.reopen()
	return f
}

// reopen reads the campaign and its open v2 session afresh, and reports
// whether the device may witness in it.
func (f *Follow) reopen() bool {
	t := f.t
	var err error
	t.Camp, t.Session, err = f.open(f.ctx)
	if err != nil || !t.Session.V2() {
		return false
	}
	p := t.Camp.Participants[f.me]
	if p == nil || p.Role != command.RolePlayer || !HoldsKey(t.Camp, f.me, t.Key.Public().String()) {
		return false
	}
	f.t = t
	if !f.said {
		f.said = true
		f.c.warnf("journal: following as %s: this device witnesses the GM's rolls (--no-witness to stop it)", f.me)
	}
	return true
}

// Pending witnesses the GM requests pending when the follow starts.
func (f *Follow) Pending() {
	if f == nil || !f.said {
		return
	}
	var ids []string
	for id, p := range f.t.Session.Requests {
		if p.State == projections.RequestPending && p.Requested.Commitment == "" && p.Requested.User != f.me {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		f.witness(id)
	}
}

// Event witnesses the GM request r records, if it is one recorded after
// the follow began.
func (f *Follow) Event(r events.Recorded) {
	if f == nil || r.Seq <= f.start || r.Event.Type != events.TypeRollRequested {
		return
	}
	var d events.RollRequested
	if r.Event.DecodeData(&d) != nil || d.Commitment != "" || d.User == f.me {
		return
	}
	f.witness(d.Request)
}

func (f *Follow) witness(request string) {
	if f.done[request] {
		return
	}
	f.done[request] = true
	// A fresh view of the session, with this request in it.
	if !f.reopen() {
		return
	}
	p := f.t.Session.Requests[request]
	if p == nil || p.State != projections.RequestPending {
		return
	}
	if n := p.Requested.BeaconRound; n > 0 && f.c.now().Before(beacon.Quicknet().TimeOf(n)) && !slices.Contains(p.Receipted, f.me) {
		// A beacon request seen before its round: receipt it, so that the
		// audit knows a player's device saw it while its randomness was
		// unknown (docs/design.md §3.3).
		if _, err := f.c.Receipt(f.ctx, f.t, request); err != nil {
			f.c.warnf("journal: could not receipt request %s: %v", request, err)
		}
	}
	if p.Requested.WitnessIndex > 0 && !slices.ContainsFunc(command.ChainWitnesses(f.t.Camp, f.t.Session), func(w projections.WitnessAnchor) bool { return w.User == f.me }) {
		return // this device has no chain in the session: its witness would be refused
	}
	if slices.ContainsFunc(p.Witnessed, func(w events.GMWitness) bool { return w.User == f.me }) {
		return // witnessed already
	}
	id, err := f.c.RequestID()
	if err == nil {
		_, err = f.c.sendWitness(f.ctx, f.t, f.me, id, "", request)
	}
	if err != nil {
		f.c.warnf("journal: could not witness request %s: %v", request, err)
	}
}
