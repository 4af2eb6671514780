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
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestV2ProveOverHTTP: the GM (ana, who hosts) drops bea's reveal and
// cancels her request; bea proves it through the API (roll-prove):
// journal.roll.proved.v1. A stranger, the dashboard, the GM sending bea's
// reveal as its own and a second proof are refused; nothing refused is
// recorded.
func TestV2ProveOverHTTP(t *testing.T) {
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
				} `json:"data"`
			} `json:"event"`
		} `json:"recorded"`
	}
	r.json(t, &started)
	commitment := started.Recorded[0].Event.Data.Commitment
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	id, rv := uuid.NewString(), [32]byte{9}
	c, err := dice.ParseHex32(dice.RevealCommitment(rv))
	require.NoError(t, err)
	action := js(command.RollAction{Command: "roll", SeedCommitment: commitment, Character: "ruisenor", Skill: "Pelea"})
	post(beaToken, "roll-request", js(command.RollRequestSigned{Character: "ruisenor",
		SignedMessage: seal(beaKey, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(action)})}), http.StatusOK)
	reveal := js(command.RollRevealSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Reveal{Header: hdr, Request: id, R: rv})})
	post(anaToken, "roll-cancel", js(map[string]string{"request": id, "reason": "bea left"}), http.StatusOK)

	before := h.count(t)
	for _, tc := range []struct {
		name, token, body string
		want              int
	}{
		{"a stranger proves it", zedToken, reveal, 403},
		{"the dashboard proves it", wallToken, reveal, 403},
		{"anonymous proves it", "", reveal, 401},
		{"the GM sends bea's reveal as its own", anaToken, reveal, 400},
		{"r changed", beaToken, js(command.RollRevealSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Reveal{Header: hdr, Request: id, R: [32]byte{8}})}), 400},
	} {
		post(tc.token, "roll-prove", tc.body, tc.want)
		require.Equal(t, before, h.count(t), "%s: a refused request recorded something", tc.name)
	}
	r = post(beaToken, "roll-prove", reveal, http.StatusOK)
	var proved struct {
		Recorded []struct {
			Event struct {
				Type string            `json:"type"`
				Data events.RollProved `json:"data"`
			} `json:"event"`
		} `json:"recorded"`
	}
	r.json(t, &proved)
	require.Len(t, proved.Recorded, 1)
	require.Equal(t, events.TypeRollProved, proved.Recorded[0].Event.Type)
	require.Equal(t, "ana", proved.Recorded[0].Event.Data.CancelledBy)
	require.Equal(t, id, proved.Recorded[0].Event.Data.Request)
	after := h.count(t)
	post(beaToken, "roll-prove", reveal, http.StatusBadRequest)
	require.Equal(t, after, h.count(t))
}
