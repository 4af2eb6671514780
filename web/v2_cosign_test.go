package web_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// TestV2CosignOverHTTP attacks session-cosign as each role: the GM (ana),
// a player (bea, who plays ruisenor), the dashboard, a stranger and an
// anonymous client. Every refusal records nothing; bea's device co-signs
// once.
func TestV2CosignOverHTTP(t *testing.T) {
	h := newAccessHarness(t)
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey := key(1), key(2)
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	post := func(token, name, body string, want int) {
		t.Helper()
		var hdr []string
		if token != "" {
			hdr = bearer(token)
		}
		r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/"+name, body, hdr...)
		require.Equal(t, want, r.status, "%s %s: %s", name, body, r.body)
	}
	post(anaToken, "session-end", `{}`, http.StatusOK)
	post(anaToken, "key-register", js(command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "mordor", "ana", "gm", "")}), http.StatusOK)
	post(anaToken, "key-register", js(command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()}), http.StatusOK)
	post(anaToken, "session-start", `{"id":"s2","dice":"v2"}`, http.StatusOK)
	post(anaToken, "session-end", `{}`, http.StatusOK)

	// The hash of s2's session-ended event as stored.
	var hash signed.Hex32
	require.NoError(t, h.store.Read(context.Background(), events.Query{}, func(r events.Recorded) error {
		if r.Event.Type == events.TypeSessionEnded && r.Event.Session == "s2" {
			hx, err := events.EventHash(r.Event)
			require.NoError(t, err)
			require.NoError(t, hash.UnmarshalText([]byte(hx)))
		}
		return nil
	}))
	seal := func(k ed25519.PrivateKey, char string, ended signed.Hex32) string {
		s, err := signed.Encode(&signed.Cosign{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Ended: ended})
		require.NoError(t, err)
		return js(command.CosignSigned{Character: char, SignedMessage: command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}})
	}
	beas := seal(beaKey, "ruisenor", hash)
	before := h.count(t)
	for _, tc := range []struct {
		name, token, body string
		want              int
	}{
		{"anonymous co-signs", "", beas, 401},
		{"a stranger co-signs", zedToken, beas, 403},
		{"the dashboard co-signs", wallToken, beas, 403},
		{"a player co-signs as another's character", beaToken, seal(beaKey, "lodin", hash), 403},
		{"the GM sends bea's co-signature as its own", anaToken, beas, 400},
		{"a player co-signs another hash", beaToken, seal(beaKey, "ruisenor", signed.Hex32{1}), 400},
		{"a player co-signs with the GM's key", beaToken, seal(anaKey, "ruisenor", hash), 400},
	} {
		post(tc.token, "session-cosign", tc.body, tc.want)
		require.Equal(t, before, h.count(t), "%s: a refused request recorded something", tc.name)
	}
	post(beaToken, "session-cosign", beas, http.StatusOK)
	before = h.count(t)
	post(beaToken, "session-cosign", beas, http.StatusBadRequest)
	require.Equal(t, before, h.count(t), "a second co-signature recorded something")
	post(anaToken, "session-cosign", seal(anaKey, "orco", hash), http.StatusOK)
}
