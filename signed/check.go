package signed

import (
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
)

// ErrMismatch: a reveal or witness that does not answer the request it names.
var ErrMismatch = msgerr.New("signed message does not answer its request")

// CheckReveal checks that rev reveals the r that req committed to: same
// campaign, session and request id, and SHA-256(r) equals the commitment.
// A request without commitment (a witnessed one) cannot be revealed.
// Signatures and who sent each are the caller's to check (the reveal must
// come from the requester's key).
func CheckReveal(req *Request, rev *Reveal) error {
	if err := sameRequest(req, rev.Header, rev.Request); err != nil {
		return err
	}
	if req.Witnessed() {
		return msgerr.Errorf("%w: request %s has no commitment: it takes a witness, not a reveal", ErrMismatch, req.Request)
	}
	if !dice.RevealMatches([32]byte(rev.R), req.Commitment.String()) {
		return msgerr.Errorf("%w: SHA-256(r) is not the commitment of request %s", ErrMismatch, req.Request)
	}
	return nil
}

// CheckWitness checks that w witnesses req: same campaign, session and
// request id, and req has no commitment (its r comes from a witness). A
// beacon request takes the beacon's round, not a witness, unless the
// journal falls back to one; that choice is the caller's.
func CheckWitness(req *Request, w *Witness) error {
	if err := sameRequest(req, w.Header, w.Request); err != nil {
		return err
	}
	if !req.Witnessed() {
		return msgerr.Errorf("%w: request %s has a commitment: its roller reveals it", ErrMismatch, req.Request)
	}
	return nil
}

func sameRequest(req *Request, h Header, id string) error {
	if req == nil {
		return msgerr.Errorf("%w: no request", ErrMismatch)
	}
	if h.Campaign != req.Campaign || h.Session != req.Session {
		return msgerr.Errorf("%w: %s/%s, the request is in %s/%s", ErrMismatch, h.Campaign, h.Session, req.Campaign, req.Session)
	}
	if id != req.Request {
		return msgerr.Errorf("%w: names request %s, not %s", ErrMismatch, id, req.Request)
	}
	return nil
}
