package device

// A device's side of proving a suppressed roll (docs/design.md §3.3, "A
// suppressed roll can be proved"). A device's secret r for its roll
// request is derived from its own (deterministic, Ed25519) signature over
// the request's identity, so the device can always re-derive it from the
// recorded request alone and send its reveal again (journal roll prove),
// or write it to a proof file where the host will not record it.
//
//	r = SHA-256(base64url(Ed25519-sign(key, "journal-dice-v2|r|" + campaign + "|" +
//	                                     session + "|" + user + "|" + request)))
//
// (the signature's text, as Key.Sign returns it). The browser derives it
// the same way (web/static/table.js, revealSecret).
//
// Invariants:
//   - Only the key that derived r can re-derive it: another device of the
//     same user, or a request made with a random r, does not open the
//     request's commitment, and Reveal says so instead of sealing.
//   - Reveal seals exactly what the journal's RevealRoll and ProveRoll
//     take, and Proof is that message in a proof file (signed.Proof).

import (
	"crypto/sha256"
	"encoding/json"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// RevealSecret derives the device's secret r for request (its id) of user
// in session of campaign.
func (k *Key) RevealSecret(campaign, session, user, request string) [32]byte {
	return sha256.Sum256([]byte(k.Sign(RevealDomain + campaign + "|" + session + "|" + user + "|" + request)))
}

// Reveal re-derives r for the recorded request q (of session in campaign)
// and seals its roll.reveal; it fails if q is not this device's: another
// user's, a GM's request (no commitment: witnessed), or one whose
// commitment this key's r does not open.
func (k *Key) Reveal(campaign, session string, q events.RollRequested) (signedString, signature string, err error) {
	if q.Commitment == "" {
		return "", "", msgerr.Errorf("request %s has no commitment: a GM's request is witnessed, not revealed", q.Request)
	}
	r := k.RevealSecret(campaign, session, q.User, q.Request)
	if !dice.RevealMatches(r, q.Commitment) {
		return "", "", msgerr.Errorf("request %s was not made with this device's key %s: its secret cannot be re-derived here", q.Request, k.Info().Fingerprint)
	}
	return k.Seal(&signed.Reveal{Header: signed.Header{Campaign: campaign, Session: session}, Request: q.Request, R: signed.Hex32(r)})
}

// Proof is Reveal written as a proof file (signed.Proof, indented JSON
// with a final newline).
func (k *Key) Proof(campaign, session string, q events.RollRequested) ([]byte, error) {
	s, sig, err := k.Reveal(campaign, session, q)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(signed.Proof{Version: signed.ProofVersion, Campaign: campaign, Session: session,
		Request: q.Request, User: q.User, Signed: s, Signature: sig}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
