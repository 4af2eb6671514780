package client

// A roll of journal-dice-v2 from the device (docs/design.md §3.2): the
// signed request, recorded with its nonce or nonces, then the signed
// reveal of r, in one command. The secret r and the request's id derive
// from the device key's (deterministic) signature of the command's
// request id, so that the same command run again asks for the same
// request and reveals the same r, and the journal records it once.

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// Session is what a command of this device in an open v2 session works
// on: the campaign, the device's key, the campaign's state and its open
// session.
type Session struct {
	Campaign string
	Key      *device.Key
	Camp     *projections.Campaign
	Session  *projections.Session
}

// GMRoll is how a GM's v2 roll asks for its randomness: how long it waits
// for a player's witness, and how far ahead the drand quicknet round it is
// pinned to is published (0: none).
type GMRoll struct {
	Wait, Beacon time.Duration
}

// RequestReveal runs a v2 request and its reveal in one command for
// character; action builds the signed request's action. The GM's request
// (the GM may know K) takes a witness instead of a reveal (gm).
func (c *Client) RequestReveal(ctx context.Context, t Session, character string, gm GMRoll, action func() (any, error)) error {
	campaign, k, s := t.Campaign, t.Key, t.Session
	cliID, actor, requestID, err := c.newRequest(campaign, s.ID)
	if err != nil {
		return err
	}
	// r, derived from the device's signature of the request's id
	// (device.Key.RevealSecret): secret to the device, the same for a
	// retry, and re-derivable from the recorded request ('journal roll
	// prove').
	r := k.RevealSecret(campaign, s.ID, actor, requestID)
	act, err := action()
	if err != nil {
		return err
	}
	actionJSON, err := json.Marshal(act)
	if err != nil {
		return err
	}
	if command.IsGM(t.Camp, actor) {
		return c.gmRoll(ctx, t, cliID, requestID, character, actionJSON, gm)
	}
	commitment, err := dice.ParseHex32(dice.RevealCommitment(r))
	if err != nil {
		return err
	}
	hdr := signed.Header{Campaign: campaign, Session: s.ID}
	req, err := c.sealed(ctx, campaign, t.Camp.LastSeq, k, &signed.Request{Header: hdr, Request: requestID, Commitment: commitment, Action: actionJSON})
	if err != nil {
		return err
	}
	asked, err := c.Send(ctx, cliID+".request", campaign, "roll-request", command.RollRequestSigned{Character: character, SignedMessage: req})
	if err != nil {
		return err
	}
	rev, err := c.sealed(ctx, campaign, t.Camp.LastSeq, k, &signed.Reveal{Header: hdr, Request: requestID, R: r})
	if err != nil {
		return err
	}
	made, err := c.Send(ctx, cliID+".reveal", campaign, "roll-reveal", command.RollRevealSigned{Character: character, SignedMessage: rev})
	if err != nil {
		return msgerr.Errorf("request %s is recorded but its reveal was not: %w (send it again with 'journal roll prove %s': if the GM cancelled the request meanwhile, the journal records the roll it would have been)", requestID, err, requestID)
	}
	c.warnUnrecorded(made, rev.Signed, "reveal", requestID)
	return c.Report(ctx, campaign, asked, made)
}

// newRequest is the command's request id, the device's user and the
// id of the v2 request they make in session, derived from the two (the
// same for a retry of the command).
func (c *Client) newRequest(campaign, session string) (cliID, actor, requestID string, err error) {
	if cliID, err = c.RequestID(); err != nil {
		return "", "", "", err
	}
	if actor, err = c.User(); err != nil {
		return "", "", "", err
	}
	return cliID, actor, device.RequestID(campaign, session, actor, cliID), nil
}

// gmRoll records the GM's request (no commitment) of a v2 roll or attack
// and says who may witness it and for how long.
func (c *Client) gmRoll(ctx context.Context, t Session, cliID, requestID, character string, action []byte, gm GMRoll) error {
	wait, ahead := gm.Wait, gm.Beacon
	if wait < time.Second || wait%time.Second != 0 {
		return usagef("--wait %s: want whole seconds, at least 1s", wait)
	}
	var round uint64
	if ahead < 0 {
		return usagef("--beacon %s: want a time ahead", ahead)
	}
	if ahead > 0 {
		round = beacon.Quicknet().NextRound(c.now().Add(ahead))
	}
	m, err := c.sealed(ctx, t.Campaign, t.Camp.LastSeq, t.Key, &signed.Request{Header: signed.Header{Campaign: t.Campaign, Session: t.Session.ID},
		Request: requestID, BeaconRound: round, Wait: uint64(wait / time.Second), Action: action})
	if err != nil {
		return err
	}
	res, err := c.Send(ctx, cliID+".request", t.Campaign, "roll-request", command.RollRequestSigned{Character: character, Wait: int(wait / time.Second), SignedMessage: m})
	if err != nil {
		return err
	}
	if err := c.Report(ctx, t.Campaign, res); err != nil {
		return err
	}
	me := c.actor()
	who := WitnessesOf(t.Camp, me)
	if len(who) == 0 {
		who = []string{c.Lang.T("w2.no_witness")}
	}
	l := c.Lang
	fmt.Fprintln(c.Text, l.T("w2.waits", requestID, me, strings.Join(who, ", "), wait, "'journal log --follow'",
		"'journal roll witness "+requestID+"'", "'journal roll resolve "+requestID+" --unwitnessed'"))
	if round > 0 {
		fmt.Fprintln(c.Text, l.T("w2.pinned", requestID, round, beacon.Quicknet().TimeOf(round).Local().Format(time.RFC3339),
			"'journal roll resolve "+requestID+" --beacon'"))
	}
	return nil
}

// Hope sends the roller's signed tor-hope request for character (The One
// Ring, a v2 session): it draws nothing and is recorded at once; action
// builds its action.
func (c *Client) Hope(ctx context.Context, t Session, character string, action func() (any, error)) error {
	campaign, k, s := t.Campaign, t.Key, t.Session
	act, err := action()
	if err != nil {
		return err
	}
	cliID, _, requestID, err := c.newRequest(campaign, s.ID)
	if err != nil {
		return err
	}
	actionJSON, err := json.Marshal(act)
	if err != nil {
		return err
	}
	m, err := c.sealed(ctx, campaign, t.Camp.LastSeq, k, &signed.Request{Header: signed.Header{Campaign: campaign, Session: s.ID}, Request: requestID, Action: actionJSON})
	if err != nil {
		return err
	}
	res, err := c.Send(ctx, cliID+".request", campaign, "roll-request", command.RollRequestSigned{Character: character, SignedMessage: m})
	if err != nil {
		return err
	}
	return c.Report(ctx, campaign, res)
}

// Contribute sends the device's signed contribution (32 random bytes,
// with its witness chain for the GM's rolls) to the open v2 session.
func (c *Client) Contribute(ctx context.Context, t Session, character string) error {
	s, k := t.Session, t.Key
	var v signed.Hex32
	if _, err := rand.Read(v[:]); err != nil {
		return err
	}
	var commitment signed.Hex32 // the session's seed, as this device sees it
	if err := commitment.UnmarshalText([]byte(s.Commitment)); err != nil {
		return msgerr.Errorf("session %s's commitment: %w", s.ID, err)
	}
	// Recorded as the catalogue's session-contribute, also when session
	// start --dice v2 contributes (its reproduction re-runs that command).
	return c.SendSigned(ctx, t.Camp, k, character, "session-contribute", k.Contribution(t.Campaign, s.ID, v, commitment),
		func(character string, m command.SignedMessage) any {
			return command.ContributeSigned{Character: character, SignedMessage: m}
		})
}

// SendSigned seals m with the device key k and sends it, as the one
// catalogue command name under the command's request id (so a retry is
// the same request), for character (by default the one the device's user
// plays in camp), then reports what was recorded.
func (c *Client) SendSigned(ctx context.Context, camp *projections.Campaign, k *device.Key, character, name string, m signed.Message,
	send func(character string, m command.SignedMessage) any) error {
	sm, err := c.sealed(ctx, camp.ID, camp.LastSeq, k, m)
	if err != nil {
		return err
	}
	if character == "" {
		character = ActingCharacter(camp, c.actor())
	}
	id, err := c.RequestID()
	if err != nil {
		return err
	}
	res, err := c.Send(ctx, id, camp.ID, name, send(character, sm))
	if err != nil {
		return err
	}
	return c.Report(ctx, camp.ID, res)
}
