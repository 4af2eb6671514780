package client

// The device co-signs the end of a journal-dice-v2 session (docs/design.md
// §3.2): it hashes the session-ended event's stored bytes as the journal
// holds them (what an export writes and the chain hashes), not the
// journal's own word for them.

import (
	"context"
	"errors"
	"os"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// EndedHash reads, from st, the stored bytes (stored) of session's
// session-ended event in campaign and returns its id and
// hex(SHA-256(bytes)).
func EndedHash(ctx context.Context, st Reader, stored func(events.Recorded) ([]byte, error), campaign, session string) (string, signed.Hex32, error) {
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return "", signed.Hex32{}, err
	}
	var id string
	var hash signed.Hex32
	errDone := msgerr.New("done")
	err = st.Read(ctx, events.Query{Subject: filter, Types: []string{events.TypeSessionEnded}}, func(r events.Recorded) error {
		if r.Event.Session != session {
			return nil
		}
		b, err := stored(r)
		if err != nil {
			return err
		}
		id = r.Event.ID
		err = hash.UnmarshalText([]byte(events.ChainHash(b)))
		if err == nil {
			err = errDone
		}
		return err
	})
	if err != nil && !errors.Is(err, errDone) {
		return "", signed.Hex32{}, err
	}
	if id == "" {
		return "", signed.Hex32{}, msgerr.Errorf("%w: session %s of campaign %s has no session-ended event", events.ErrNotFound, session, campaign)
	}
	return id, hash, nil
}

// Cosign sends the device's signed co-signature (key k) of session's end
// in camp (the last ended session when ""); ended gives the hash of a
// session's session-ended event (EndedHash).
func (c *Client) Cosign(ctx context.Context, camp *projections.Campaign, k *device.Key, session, character string,
	ended func(ctx context.Context, campaign, session string) (signed.Hex32, error)) error {
	s, err := LastEnded(camp, session)
	if err != nil {
		return err
	}
	if !s.V2() || !s.Ended {
		return usagef("session %s is not an ended journal-dice-v2 session: there is nothing to co-sign", s.ID)
	}
	hash, err := ended(ctx, camp.ID, s.ID)
	if err != nil {
		return err
	}
	return c.SendSigned(ctx, camp, k, character, "session-cosign",
		&signed.Cosign{Header: signed.Header{Campaign: camp.ID, Session: s.ID}, Ended: hash},
		func(character string, m command.SignedMessage) any {
			return command.CosignSigned{Character: character, SignedMessage: m}
		})
}

// EventSession is the session of the campaign's roll event id, as st
// holds it.
func EventSession(ctx context.Context, st Reader, campaign, id string) (string, error) {
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return "", err
	}
	session, found := "", false
	err = st.Read(ctx, events.Query{Subject: filter, Types: []string{events.TypeRollMade}}, func(r events.Recorded) error {
		if r.Event.ID == id {
			session, found = r.Event.Session, true
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if !found || session == "" {
		return "", msgerr.Errorf("%w: no roll %s in a session of campaign %s", events.ErrNotFound, id, campaign)
	}
	return session, nil
}

// Consent seals the roller's void.consent (key k) that the GM void its v2
// roll event of campaign (its session as st holds it: EventSession) for
// reason; last is the latest event of campaign the device read.
func (c *Client) Consent(ctx context.Context, st Reader, campaign string, last func() uint64, k *device.Key, event, reason string) (command.SignedMessage, error) {
	session, err := EventSession(ctx, st, campaign, event)
	if err != nil {
		return command.SignedMessage{}, err
	}
	m, err := c.sealed(ctx, campaign, last(), k, &signed.VoidConsent{Header: signed.Header{Campaign: campaign, Session: session}, Event: event, Reason: reason})
	if err != nil {
		return m, usagef("key consent: %v", err)
	}
	return m, nil
}

// Provable returns the session and the request of camp that the device
// of actor may prove (its own), or why not.
func Provable(camp *projections.Campaign, request, actor string) (*projections.Session, *projections.PendingRoll, error) {
	s, q := FindRequest(camp, request)
	if q == nil {
		return nil, nil, msgerr.Errorf("%w: no roll request %s in campaign %s", events.ErrNotFound, request, camp.ID)
	}
	if q.Requested.User != actor {
		return nil, nil, usagef("request %s is %s's, not %s's: only the device that made it can prove it", request, q.Requested.User, actor)
	}
	return s, q, nil
}

// ShouldContribute reports whether the device contributes to the v2
// session that just started in campaign: whether the campaign (load)
// holds the device's default key for its user. Else it tells the user how
// to; only the device's key store and load fail it.
func (c *Client) ShouldContribute(campaign string, load func() (*projections.Campaign, error)) (bool, error) {
	st, err := c.Keys()
	if err != nil {
		return false, err
	}
	info, err := st.Show(device.DefaultName)
	if err != nil {
		c.warnf("journal: no device key (%v): the session key has no contribution from you; make one with 'journal key new', register it, then 'journal session contribute'", err)
		return false, nil
	}
	camp, err := load()
	if err != nil {
		return false, err
	}
	if me := c.actor(); !HoldsKey(camp, me, info.PublicKey) {
		c.warnf("journal: campaign %s does not hold your device key %s for %s: register it with 'journal key register', then 'journal session contribute'", campaign, info.Fingerprint, me)
		return false, nil
	}
	return true, nil
}

// ShouldCosign reports whether the device co-signs the end of camp's
// last ended session (a v2 one) with its default key: whether camp holds
// that key for its user; it says so, or tells the user how to. It returns
// the session (nil: none to co-sign); only the device's key store fails it.
func (c *Client) ShouldCosign(camp *projections.Campaign) (*projections.Session, error) {
	s, err := LastEnded(camp, "")
	if err != nil || !s.V2() {
		return nil, nil
	}
	st, err := c.Keys()
	if err != nil {
		return nil, err
	}
	info, err := st.Show(device.DefaultName)
	if err != nil {
		c.warnf("journal: no device key (%v): the end of session %s is not co-signed by you; each participant co-signs it with 'journal session cosign %s'", err, s.ID, s.ID)
		return nil, nil
	}
	if me := c.actor(); !HoldsKey(camp, me, info.PublicKey) {
		c.warnf("journal: campaign %s does not hold your device key %s for %s: the end of session %s is not co-signed by you (register it with 'journal key register', then 'journal session cosign %s')",
			camp.ID, info.Fingerprint, me, s.ID, s.ID)
		return nil, nil
	}
	c.warnf("journal: co-signing the end of session %s with your device key %s; the other participants co-sign it with 'journal session cosign %s'", s.ID, info.Fingerprint, s.ID)
	return s, nil
}

// WriteProof writes the proof of the device's request q of session (for
// 'journal replay --proof') to the file out, and says so.
func (c *Client) WriteProof(k *device.Key, campaign, session string, q events.RollRequested, out string) error {
	b, err := k.Proof(campaign, session, q)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return err
	}
	c.say("cli.prove_written", q.Request, out, out)
	return nil
}

// Prove is the proof of actor's request of camp, made with the device key
// k (docs/design.md §3.3.5): with out, written to that file (WriteProof)
// and nothing to send (nil); else the catalogue's roll-prove body, the
// request's reveal signed again.
func (c *Client) Prove(camp *projections.Campaign, k *device.Key, request, actor, out string) (*command.RollRevealSigned, error) {
	s, q, err := Provable(camp, request, actor)
	if err != nil {
		return nil, err
	}
	if out != "" {
		return nil, c.WriteProof(k, camp.ID, s.ID, q.Requested, out)
	}
	msg, sig, err := k.Reveal(camp.ID, s.ID, q.Requested)
	if err != nil {
		return nil, err
	}
	return &command.RollRevealSigned{Character: q.Requested.Character, SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}}, nil
}
