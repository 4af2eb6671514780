package signed_test

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

func TestCheckRevealAndWitness(t *testing.T) {
	r0 := [32]byte(h32(0x20))
	commit, err := dice.ParseHex32(dice.RevealCommitment(r0))
	require.NoError(t, err)
	action := jsontext.Value(`{"command":"roll"}`)
	req := &signed.Request{Header: hdr(), Request: reqID, Commitment: commit, Action: action}
	gm := &signed.Request{Header: hdr(), Request: reqID, Action: action}
	rev := func(f func(*signed.Reveal)) *signed.Reveal {
		r := &signed.Reveal{Header: hdr(), Request: reqID, R: signed.Hex32(r0)}
		if f != nil {
			f(r)
		}
		return r
	}
	wit := func(f func(*signed.Witness)) *signed.Witness {
		w := &signed.Witness{Header: hdr(), Request: reqID, Value: h32(0x77)}
		if f != nil {
			f(w)
		}
		return w
	}

	require.NoError(t, signed.CheckReveal(req, rev(nil)))
	require.NoError(t, signed.CheckWitness(gm, wit(nil)))

	bad := map[string]error{
		"other r":          signed.CheckReveal(req, rev(func(r *signed.Reveal) { r.R = h32(0x21) })),
		"other request":    signed.CheckReveal(req, rev(func(r *signed.Reveal) { r.Request = eventID })),
		"other session":    signed.CheckReveal(req, rev(func(r *signed.Reveal) { r.Session = "sess-2" })),
		"other campaign":   signed.CheckReveal(req, rev(func(r *signed.Reveal) { r.Campaign = "camp-2" })),
		"reveal a GM roll": signed.CheckReveal(gm, rev(nil)),
		"no request":       signed.CheckReveal(nil, rev(nil)),
		"witness a player": signed.CheckWitness(req, wit(nil)),
		"witness other id": signed.CheckWitness(gm, wit(func(w *signed.Witness) { w.Request = eventID })),
		"witness other s":  signed.CheckWitness(gm, wit(func(w *signed.Witness) { w.Session = "sess-2" })),
	}
	for name, err := range bad {
		require.ErrorIs(t, err, signed.ErrMismatch, name)
	}
}
