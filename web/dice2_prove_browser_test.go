package web_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/signed"
)

// TestRevealSecretInBrowser: the browser derives a request's r from its
// device key's signature exactly as the CLI's device does
// (device.Key.RevealSecret): the same key (imported here, as a test may;
// a table's key is never extractable) gives the same r, so either device
// re-derives its r from the recorded request; and provable lists what a
// page proves on reconnect.
func TestRevealSecretInBrowser(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, memBackend())
	openV2(t, b, h)
	var seed [32]byte
	seed[0] = 7
	priv := ed25519.NewKeyFromSeed(seed[:])
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	require.NoError(t, err)
	const request = "4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b"
	want := sha256.Sum256([]byte(signed.Sign(priv, "journal-dice-v2|r|camp-1|sess-1|ana|"+request)))
	got := jsValue(t, b, `const der = Uint8Array.from(atob("`+base64.StdEncoding.EncodeToString(der)+`"), (c) => c.charCodeAt(0));
		const k = await crypto.subtle.importKey("pkcs8", der, {name: "Ed25519"}, false, ["sign"]);
		const sign = async (text) => JournalSigned.base64url(new Uint8Array(await crypto.subtle.sign({name: "Ed25519"}, k, new TextEncoder().encode(text))));
		return JournalDiceV2.revealSecret(sign, "camp-1", "sess-1", "ana", "`+request+`");`)
	require.Equal(t, `"`+hex.EncodeToString(want[:])+`"`, got)

	provable := jsValue(t, b, `return JournalDiceV2.provable({sessions: [
		{id: "s1", algorithm: "journal-dice-v2", ended: false, requests: {
			a: {state: "cancelled", requested: {user: "ana", character: "lodin", commitment: "c1"}},
			b: {state: "cancelled", proved: "e1", requested: {user: "ana", commitment: "c2"}},
			c: {state: "pending", requested: {user: "ana", commitment: "c3"}},
			d: {state: "cancelled", requested: {user: "bea", commitment: "c4"}},
			e: {state: "cancelled", requested: {user: "ana", commitment: ""}},
			f: {state: "made", requested: {user: "ana", commitment: "c6"}}}},
		{id: "s0", algorithm: "journal-dice-v2", ended: true, requests: {g: {state: "pending", requested: {user: "ana", character: "lodin", commitment: "c7"}}}}]}, "ana").map((p) => p.session + "/" + p.request);`)
	require.Equal(t, `["s1/a","s0/g"]`, provable)
}
