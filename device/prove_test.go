package device_test

import (
	"crypto/rand"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestRevealSecretAndProof: r is SHA-256 of the key's signature text of
// the request's identity (the same every time); Reveal seals the reveal
// that opens the request's commitment and Proof writes it as a proof file
// signed.ParseProof reads back; another key's request, a request with a
// random r and a GM's request are refused.
func TestRevealSecretAndProof(t *testing.T) {
	st := device.NewStore(t.TempDir())
	k, err := st.New("ana", device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	other, err := st.New("phone", device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	const req = "4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b"
	r := k.RevealSecret("mordor", "s2", "ana", req)
	require.Equal(t, sha256.Sum256([]byte(k.Sign("journal-dice-v2|r|mordor|s2|ana|"+req))), r)
	require.Equal(t, r, k.RevealSecret("mordor", "s2", "ana", req), "deterministic")
	require.NotEqual(t, r, k.RevealSecret("mordor", "s2", "ana", "5f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b"))

	q := events.RollRequested{User: "ana", Request: req, Commitment: dice.RevealCommitment(r)}
	msg, sig, err := k.Reveal("mordor", "s2", q)
	require.NoError(t, err)
	m, err := signed.Open(k.Public(), msg, sig, "mordor", "s2")
	require.NoError(t, err)
	require.Equal(t, signed.Hex32(r), m.(*signed.Reveal).R)

	b, err := k.Proof("mordor", "s2", q)
	require.NoError(t, err)
	p, rev, err := signed.ParseProof(b)
	require.NoError(t, err)
	require.Equal(t, signed.Proof{Version: 1, Campaign: "mordor", Session: "s2", Request: req, User: "ana", Signed: msg, Signature: sig}, p)
	require.Equal(t, req, rev.Request)

	_, _, err = other.Reveal("mordor", "s2", q)
	require.ErrorContains(t, err, "was not made with this device's key")
	random := q
	random.Commitment = dice.RevealCommitment([32]byte{1})
	_, _, err = k.Reveal("mordor", "s2", random)
	require.ErrorContains(t, err, "was not made with this device's key")
	gm := q
	gm.Commitment = ""
	_, _, err = k.Reveal("mordor", "s2", gm)
	require.ErrorContains(t, err, "has no commitment")

	for name, bad := range map[string]string{
		"not an object":   `[]`,
		"missing member":  `{"version":1}`,
		"unknown member":  `{"version":1,"campaign":"mordor","session":"s2","request":"` + req + `","user":"ana","signed":"x","signature":"y","extra":1}`,
		"version 2":       `{"version":2,"campaign":"mordor","session":"s2","request":"` + req + `","user":"ana","signed":` + jsonString(msg) + `,"signature":"y"}`,
		"another request": `{"version":1,"campaign":"mordor","session":"s2","request":"5f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b","user":"ana","signed":` + jsonString(msg) + `,"signature":"y"}`,
		"duplicate":       `{"version":1,"version":1,"campaign":"mordor","session":"s2","request":"` + req + `","user":"ana","signed":` + jsonString(msg) + `,"signature":"y"}`,
	} {
		_, _, err := signed.ParseProof([]byte(bad))
		require.ErrorIs(t, err, signed.ErrMalformed, name)
	}
}

func jsonString(s string) string {
	out := []byte{'"'}
	for _, c := range []byte(s) {
		if c == '"' || c == '\\' {
			out = append(out, '\\')
		}
		out = append(out, c)
	}
	return string(append(out, '"'))
}
