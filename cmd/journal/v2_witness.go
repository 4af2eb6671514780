package main

// The CLI and journal-dice-v2 GM rolls: the GM's roll or attack records a
// request without commitment and waits for a player's witness (or a
// quicknet round); a player's device witnesses it (`roll witness`, or
// `log --follow` automatically); the GM resolves it unwitnessed after the
// wait or by its beacon round (`roll resolve`). A device that sent a reveal
// or a witness checks that the journal recorded it, and warns its user if
// not.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// defaultRelay is the drand HTTP relay `roll resolve --beacon` asks.
const defaultRelay = "https://api.drand.sh"

// addGMRollFlags adds the GM's flags of a v2 roll or attack.
func addGMRollFlags(f *pflag.FlagSet) {
	f.Duration("wait", command.DefaultWitnessWait, "journal-dice-v2, a GM's roll: how long it waits for a player's witness before you may resolve it --unwitnessed")
	f.Duration("beacon", 0, "journal-dice-v2, a GM's roll: pin it to the drand quicknet round published this long from now, at least 1m (e.g. 90s, 48h)")
}

// gmRollV2 records the GM's request (no commitment) of a v2 roll or
// attack and says who may witness it and for how long.
func (a *app) gmRollV2(c *cobra.Command, t v2Device, cliID, requestID, character string, action []byte) error {
	ctx := c.Context()
	wait, err := c.Flags().GetDuration("wait")
	if err != nil {
		wait = command.DefaultWitnessWait
	}
	ahead, _ := c.Flags().GetDuration("beacon")
	if wait < time.Second || wait%time.Second != 0 {
		return usagef("--wait %s: want whole seconds, at least 1s", wait)
	}
	var round uint64
	if ahead < 0 {
		return usagef("--beacon %s: want a time ahead", ahead)
	}
	if ahead > 0 {
		round = beacon.Quicknet().NextRound(time.Now().Add(ahead))
	}
	msg, sig, err := a.seal(ctx, t.campaign, t.camp.LastSeq, t.key, &signed.Request{Header: signed.Header{Campaign: t.campaign, Session: t.session.ID},
		Request: requestID, BeaconRound: round, Wait: uint64(wait / time.Second), Action: action})
	if err != nil {
		return err
	}
	res, err := a.stepNamed(ctx, c, t.j, cliID+".request", t.campaign, "roll-request", command.RollRequestSigned{Character: character, Wait: int(wait / time.Second),
		SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
	if err != nil {
		return err
	}
	if err := a.reportAll(ctx, t.j, t.campaign, res); err != nil {
		return err
	}
	w := a.stdout
	if a.jsonOut {
		w = a.stderr
	}
	who := witnessesOf(t.camp, a.cliActor())
	if len(who) == 0 {
		who = []string{a.language().T("w2.no_witness")}
	}
	fmt.Fprintln(w, a.language().T("w2.waits", requestID, a.cliActor(), strings.Join(who, ", "), wait, "'journal log --follow'",
		"'journal roll witness "+requestID+"'", "'journal roll resolve "+requestID+" --unwitnessed'"))
	if round > 0 {
		fmt.Fprintln(w, a.language().T("w2.pinned", requestID, round, beacon.Quicknet().TimeOf(round).Local().Format(time.RFC3339),
			"'journal roll resolve "+requestID+" --beacon'"))
	}
	return nil
}

// witnessesOf lists the users who may witness a request of requester:
// registered players other than it.
func witnessesOf(c *projections.Campaign, requester string) []string {
	var out []string
	for u, p := range c.Participants {
		if p.Role == command.RolePlayer && u != requester {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return out
}

// warnUnrecorded warns the user when the roll its device's message (a
// reveal or a witness, signedMsg) was sent for is not among the events the
// journal says it recorded.
func (a *app) warnUnrecorded(res command.Result, signedMsg, what, request string) bool {
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
		a.warnf("journal: WARNING: your witness for request %s is not in what the journal recorded: the roll was not drawn from it (see 'journal log'; tell the table)", request)
	} else {
		a.warnf("journal: WARNING: your reveal for request %s is not in what the journal recorded: the roll was not drawn from it (see 'journal log'; tell the table)", request)
	}
	return true
}

// witnessV2 sends the user's device's signed roll.witness for a GM's
// request: 32 random bytes of this device, r of the GM's roll.
func (a *app) witnessV2(c *cobra.Command, keyName, character, request string) error {
	ctx := c.Context()
	if err := a.resolveShortRequest(c, &request); err != nil {
		return err
	}
	t, err := a.openV2(ctx, keyName)
	if err != nil {
		return err
	}
	id, err := a.cliRequestID()
	if err != nil {
		return err
	}
	res, err := a.sendWitness(ctx, c, t, a.cliActor(), id, character, request)
	if err != nil {
		return err
	}
	return a.reportAll(ctx, t.j, t.campaign, res)
}

// sendWitness seals and sends one witness for request under the CLI
// request id id as me, says so on stderr, and warns if it is not recorded.
func (a *app) sendWitness(ctx context.Context, c *cobra.Command, t v2Device, me, id, character, request string) (command.Result, error) {
	var w *signed.Witness
	index := 0
	if p := t.session.Requests[request]; p != nil {
		index = p.Requested.WitnessIndex
	}
	if index > 0 {
		// A session of witness chains: this device's value for the
		// request's index, from the chain its contribution committed to.
		var err error
		if w, err = t.key.Chain(t.campaign, t.session.ID, t.session.Commitment).Witness(request, index); err != nil {
			return command.Result{}, err
		}
	} else {
		// An older session (no chain): the value is secret to the device
		// until sent, the same for a retry of the same CLI request id (so
		// a retry is the same witness).
		v := t.key.LegacyWitnessValue(t.campaign, t.session.ID, me, request, id)
		w = &signed.Witness{Header: signed.Header{Campaign: t.campaign, Session: t.session.ID}, Request: request, Value: v}
	}
	msg, sig, err := a.seal(ctx, t.campaign, t.camp.LastSeq, t.key, w)
	if err != nil {
		return command.Result{}, err
	}
	if character == "" {
		character = actingCharacter(t.camp, me)
	}
	res, err := a.stepNamed(ctx, c, t.j, id, t.campaign, "roll-witness", command.RollWitnessSigned{Character: character,
		SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
	if err != nil {
		return res, err
	}
	requester := a.language().T("w2.the_gm")
	if p := t.session.Requests[request]; p != nil {
		requester = p.Requested.User
	}
	if index > 0 {
		a.reportChainWitness(res, t, msg, request, requester, index)
		return res, nil
	}
	if !a.warnUnrecorded(res, msg, "witness", request) {
		a.warnf("journal: witnessed request %s of %s", request, requester)
	}
	return res, nil
}

// reportChainWitness says on stderr that the device's chain witness msg
// for request was recorded, and whether the roll was made (or how many
// witnesses it waits for), or warns that it was not recorded.
func (a *app) reportChainWitness(res command.Result, t v2Device, msg, request, requester string, index int) {
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
		a.warnf("journal: WARNING: your witness for request %s is not in what the journal recorded: the roll was not drawn from it (see 'journal log'; tell the table)", request)
		return
	}
	l := a.language()
	fmt.Fprintln(a.stderr, l.T("w2.witnessed_chain", request, requester, index))
	if !made {
		have := 1
		if p := t.session.Requests[request]; p != nil {
			have += len(p.Witnessed)
		}
		fmt.Fprintln(a.stderr, l.T("w2.waiting_witnesses", request, have, len(command.ChainWitnesses(t.camp, t.session))))
	}
}

// receiptV2 sends the device's signed beacon.receipt of the GM's beacon
// request, before its round (`roll receipt`, and the follow's witness).
func (a *app) receiptV2(ctx context.Context, c *cobra.Command, t v2Device, request string) (command.Result, error) {
	msg, sig, err := a.seal(ctx, t.campaign, t.camp.LastSeq, t.key, device.BeaconReceipt(t.campaign, t.session.ID, request))
	if err != nil {
		return command.Result{}, err
	}
	id, err := a.cliRequestID()
	if err != nil {
		return command.Result{}, err
	}
	res, err := a.stepNamed(ctx, c, t.j, id, t.campaign, "roll-receipt", command.RollReceiptSigned{Character: actingCharacter(t.camp, a.cliActor()),
		SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
	if err != nil {
		return res, err
	}
	if p := t.session.Requests[request]; p != nil {
		fmt.Fprintln(a.stderr, a.language().T("w2.receipted", request, p.Requested.User, p.Requested.BeaconRound))
	}
	return res, nil
}

// resolveV2 resolves a GM's request unwitnessed or by its beacon round.
func (a *app) resolveV2(c *cobra.Command, request string, unwitnessed, byBeacon bool, signature, relay string) error {
	if unwitnessed == (byBeacon || signature != "") {
		return usagef("roll resolve: give --unwitnessed or --beacon")
	}
	if err := a.resolveShortRequest(c, &request); err != nil {
		return err
	}
	if unwitnessed {
		return a.runSpec(c, "roll-resolve", body{"request": request, "unwitnessed": true})
	}
	if signature == "" {
		var err error
		if signature, err = a.fetchBeacon(c.Context(), request, relay); err != nil {
			return err
		}
	}
	return a.runSpec(c, "roll-resolve", body{"request": request, "beacon": true, "signature": signature})
}

// fetchBeacon fetches, from relay, the round that request is pinned to
// and returns its signature (verified against quicknet's key).
func (a *app) fetchBeacon(ctx context.Context, request, relay string) (string, error) {
	campaign, err := a.campaignID()
	if err != nil {
		return "", err
	}
	j, err := a.journal(ctx)
	if err != nil {
		return "", err
	}
	_, s, err := a.openSession(ctx, j, campaign)
	if err != nil {
		return "", err
	}
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

// rollGMCommands are roll's subcommands for GM rolls: witness and resolve.
func (a *app) rollGMCommands() []*cobra.Command {
	var keyName, character string
	witness := &cobra.Command{
		Use:     "witness REQUEST [--name KEY] [--character C]",
		Example: "  JOURNAL_ACTOR=ana journal -c mordor roll witness 4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b",
		Short:   "Player: witness a GM's v2 roll with your device's witness chain value (its r combines every contributing device's)",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.witnessV2(c, keyName, character, args[0])
		},
	}
	witness.Flags().StringVar(&keyName, "name", device.DefaultName, "the device key's name")
	witness.Flags().StringVar(&character, "character", "", "a character you play, for the permissions (default: yours, or an NPC)")
	var unwitnessed, byBeacon bool
	var signature, relay string
	resolve := &cobra.Command{
		Use: "resolve REQUEST (--unwitnessed | --beacon [--signature HEX] [--relay URL])",
		Example: "  journal -c mordor roll resolve 4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b --unwitnessed\n" +
			"  journal -c mordor roll resolve 4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b --beacon",
		Short: "GM: resolve your v2 roll after its wait with the witnesses in (partial-witness), or none (unwitnessed), or by its drand round",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.resolveV2(c, args[0], unwitnessed, byBeacon, signature, relay)
		},
	}
	f := resolve.Flags()
	f.BoolVar(&unwitnessed, "unwitnessed", false, "after the wait: r combines the witnesses in (flagged partial-witness), or, with none, comes from the journal's server")
	f.BoolVar(&byBeacon, "beacon", false, "r from the drand quicknet round the request is pinned to")
	f.StringVar(&signature, "signature", "", "the round's signature (hex), if this machine cannot reach the beacon")
	f.StringVar(&relay, "relay", defaultRelay, "the drand HTTP relay to fetch the round from")
	var receiptKey string
	receipt := &cobra.Command{
		Use:     "receipt REQUEST [--name KEY]",
		Example: "  JOURNAL_ACTOR=ana journal -c mordor roll receipt 4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b",
		Short:   "Player: sign that your device saw a GM's beacon roll request before its round ('log --follow' does it by itself)",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			request := args[0]
			if err := a.resolveShortRequest(c, &request); err != nil {
				return err
			}
			t, err := a.openV2(c.Context(), receiptKey)
			if err != nil {
				return err
			}
			res, err := a.receiptV2(c.Context(), c, t, request)
			if err != nil {
				return err
			}
			return a.reportAll(c.Context(), t.j, t.campaign, res)
		},
	}
	receipt.Flags().StringVar(&receiptKey, "name", device.DefaultName, "the device key's name")
	return []*cobra.Command{witness, resolve, receipt}
}

// followWitness is `log --follow`'s witness for the user's device: it
// witnesses every GM request recorded while it follows (and those pending
// when it starts), and says so on stderr, once the campaign holds the
// device's key for the user as a player and a v2 session is open.
type followWitness struct {
	a       *app
	c       *cobra.Command
	keyName string
	me      string
	t       v2Device
	said    bool
	start   uint64 // the campaign's last sequence when the follow began
	done    map[string]bool
}

// newFollowWitness readies the user's device to witness (see
// followWitness); nil without a device key.
func (a *app) newFollowWitness(c *cobra.Command, keyName string) *followWitness {
	ctx := c.Context()
	f := &followWitness{a: a, c: c, keyName: keyName, me: a.cliActor(), done: map[string]bool{}}
	var err error
	if f.t.campaign, err = a.campaignID(); err != nil {
		return nil
	}
	if f.t.key, err = loadKey(keyName); err != nil {
		return nil
	}
	if f.t.j, err = a.journal(ctx); err != nil {
		return nil
	}
	if camp, err := f.t.j.Load(ctx, f.t.campaign, 0); err == nil {
		f.start = camp.LastSeq
	}
	f.open()
	return f
}

// open reads the campaign and its open v2 session afresh, and reports
// whether the device may witness in it.
func (f *followWitness) open() bool {
	t := f.t
	var err error
	t.camp, t.session, err = f.a.openSession(f.c.Context(), t.j, t.campaign)
	if err != nil || !t.session.V2() {
		return false
	}
	p := t.camp.Participants[f.me]
	if p == nil || p.Role != command.RolePlayer || !holdsKey(t.camp, f.me, t.key.Public().String()) {
		return false
	}
	f.t = t
	if !f.said {
		f.said = true
		f.a.warnf("journal: following as %s: this device witnesses the GM's rolls (--no-witness to stop it)", f.me)
	}
	return true
}

// pending witnesses the GM requests pending when the follow starts.
func (f *followWitness) pending() {
	if f == nil || !f.said {
		return
	}
	var ids []string
	for id, p := range f.t.session.Requests {
		if p.State == projections.RequestPending && p.Requested.Commitment == "" && p.Requested.User != f.me {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		f.witness(id)
	}
}

// event witnesses the GM request r records, if it is one recorded after
// the follow began.
func (f *followWitness) event(r events.Recorded) {
	if f == nil || r.Seq <= f.start || r.Event.Type != events.TypeRollRequested {
		return
	}
	var d events.RollRequested
	if r.Event.DecodeData(&d) != nil || d.Commitment != "" || d.User == f.me {
		return
	}
	f.witness(d.Request)
}

func (f *followWitness) witness(request string) {
	if f.done[request] {
		return
	}
	f.done[request] = true
	// A fresh view of the session, with this request in it.
	if !f.open() {
		return
	}
	p := f.t.session.Requests[request]
	if p == nil || p.State != projections.RequestPending {
		return
	}
	if n := p.Requested.BeaconRound; n > 0 && time.Now().Before(beacon.Quicknet().TimeOf(n)) && !slices.Contains(p.Receipted, f.me) {
		// A beacon request seen before its round: receipt it, so that the
		// audit knows a player's device saw it while its randomness was
		// unknown (docs/design.md §3.3).
		if _, err := f.a.receiptV2(f.c.Context(), f.c, f.t, request); err != nil {
			f.a.warnf("journal: could not receipt request %s: %v", request, err)
		}
	}
	if p.Requested.WitnessIndex > 0 && !slices.ContainsFunc(command.ChainWitnesses(f.t.camp, f.t.session), func(w projections.WitnessAnchor) bool { return w.User == f.me }) {
		return // this device has no chain in the session: its witness would be refused
	}
	if slices.ContainsFunc(p.Witnessed, func(w events.GMWitness) bool { return w.User == f.me }) {
		return // witnessed already
	}
	id, err := f.a.cliRequestID()
	if err == nil {
		_, err = f.a.sendWitness(f.c.Context(), f.c, f.t, f.me, id, "", request)
	}
	if err != nil {
		f.a.warnf("journal: could not witness request %s: %v", request, err)
	}
}
