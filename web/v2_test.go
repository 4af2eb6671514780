package web_test

import (
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestV2CommandsOverHTTP plays a journal-dice-v2 session through the API
// with access control, attacking each v2 command as each role: the GM (ana),
// a player (bea, who plays ruisenor), the dashboard, a stranger and an
// anonymous client. Every refusal records nothing.
func TestV2CommandsOverHTTP(t *testing.T) {
	h := newAccessHarness(t)
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey := key(1), key(2)
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	post := func(token, name, body string, want int) response {
		t.Helper()
		var hdr []string
		if token != "" {
			hdr = bearer(token)
		}
		r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/"+name, body, hdr...)
		require.Equal(t, want, r.status, "%s %s: %s", name, body, r.body)
		return r
	}
	post(anaToken, "session-end", `{}`, http.StatusOK)
	post(anaToken, "key-register", js(command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "mordor", "ana", "gm", "")}), http.StatusOK)
	post(anaToken, "key-register", js(command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()}), http.StatusOK)
	r := post(anaToken, "session-start", `{"id":"s2","dice":"v2"}`, http.StatusOK)
	var started struct {
		Recorded []struct {
			Event struct {
				Data struct {
					Commitment string `json:"commitment"`
					Algorithm  string `json:"algorithm"`
				} `json:"data"`
			} `json:"event"`
		} `json:"recorded"`
	}
	r.json(t, &started)
	require.Equal(t, dice.AlgorithmV2, started.Recorded[0].Event.Data.Algorithm)
	commitment := started.Recorded[0].Event.Data.Commitment
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	request := func(k ed25519.PrivateKey, char, id string, rv [32]byte) string {
		c, err := dice.ParseHex32(dice.RevealCommitment(rv))
		require.NoError(t, err)
		action := js(command.RollAction{Command: "roll", SeedCommitment: commitment, Character: char, Skill: "Pelea"})
		return js(command.RollRequestSigned{Character: char, SignedMessage: seal(k, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(action)})})
	}
	contribution := js(command.ContributeSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Contribute{Header: hdr, Value: signed.Hex32{0xbe}, Commitment: hex32Of(t, commitment)})})
	first, second := uuid.NewString(), uuid.NewString()
	rv := [32]byte{7}
	reveal := js(command.RollRevealSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Reveal{Header: hdr, Request: first, R: rv})})

	before := h.count(t)
	for _, tc := range []struct {
		name, token, command, body string
		want                       int
	}{
		{"a player registers a key", beaToken, "key-register", js(command.RegisterKey{PublicKey: signed.PublicKeyOf(beaKey).String()}), 403},
		{"a dashboard registers a key", wallToken, "key-register", js(command.RegisterKey{PublicKey: signed.PublicKeyOf(beaKey).String()}), 403},
		{"a stranger registers a key", zedToken, "key-register", js(command.RegisterKey{PublicKey: signed.PublicKeyOf(beaKey).String()}), 403},
		{"anonymous registers a key", "", "key-register", js(command.RegisterKey{PublicKey: signed.PublicKeyOf(beaKey).String()}), 401},
		{"a player contributes as another's character", beaToken, "session-contribute",
			js(command.ContributeSigned{Character: "lodin", SignedMessage: seal(beaKey, &signed.Contribute{Header: hdr, Value: signed.Hex32{1}, Commitment: hex32Of(t, commitment)})}), 403},
		{"the GM sends bea's contribution as its own", anaToken, "session-contribute", contribution, 400},
		{"a player asks for another's character", beaToken, "roll-request", request(beaKey, "lodin", uuid.NewString(), rv), 403},
		{"the dashboard asks for a roll", wallToken, "roll-request", request(beaKey, "ruisenor", uuid.NewString(), rv), 403},
		{"the GM asks as bea", anaToken, "roll-request", request(beaKey, "ruisenor", uuid.NewString(), rv), 400},
		{"the GM asks for its own roll", anaToken, "roll-request", request(anaKey, "orco", uuid.NewString(), rv), 400},
		{"a stranger reveals", zedToken, "roll-reveal", reveal, 403},
		{"a reveal of an unknown request", beaToken, "roll-reveal", reveal, 404},
		{"a player cancels", beaToken, "roll-cancel", js(map[string]string{"request": first, "reason": "x"}), 403},
	} {
		post(tc.token, tc.command, tc.body, tc.want)
		require.Equal(t, before, h.count(t), "%s: a refused request recorded something", tc.name)
	}

	post(beaToken, "session-contribute", contribution, http.StatusOK)
	post(beaToken, "roll-request", request(beaKey, "ruisenor", first, rv), http.StatusOK)
	r = post(beaToken, "roll-reveal", reveal, http.StatusOK)
	var made struct {
		Recorded []struct {
			Event struct {
				Actor string `json:"actor"`
				Data  struct {
					Reveal string `json:"reveal"`
					Draws  []int  `json:"draws"`
				} `json:"data"`
			} `json:"event"`
		} `json:"recorded"`
	}
	r.json(t, &made)
	require.Equal(t, "bea", made.Recorded[0].Event.Actor)
	require.Equal(t, []int{10, 10, 10}, made.Recorded[0].Event.Data.Draws[:3]) // and more when a die explodes
	post(beaToken, "roll-request", request(beaKey, "ruisenor", second, [32]byte{8}), http.StatusOK)
	post(anaToken, "roll-cancel", js(map[string]string{"request": second, "reason": "bea left"}), http.StatusOK)
	post(anaToken, "session-end", `{}`, http.StatusOK)
}

// hex32Of reads a seed commitment (64 lower-case hex) for a signed message.
func hex32Of(t testing.TB, s string) signed.Hex32 {
	t.Helper()
	var h signed.Hex32
	require.NoError(t, h.UnmarshalText([]byte(s)))
	return h
}
