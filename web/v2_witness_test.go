package web_test

import (
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/signed"
)

// TestV2GMRollsOverHTTP attacks the GM-roll commands (roll-witness,
// roll-resolve) as each role: the GM (ana) asks for its NPC's roll without
// commitment; it cannot witness it nor resolve it before its wait; the
// player (bea) cannot resolve, nor witness as another's character; the
// dashboard, a stranger and an anonymous client can do neither. Every
// refusal records nothing; bea's witness draws the roll, once.
func TestV2GMRollsOverHTTP(t *testing.T) {
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
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	id := uuid.NewString()
	action := js(command.RollAction{Command: "roll", SeedCommitment: started.Recorded[0].Event.Data.Commitment, Character: "orco", Skill: "Pelea"})
	post(anaToken, "roll-request", js(command.RollRequestSigned{Character: "orco", Wait: 3600,
		SignedMessage: seal(anaKey, &signed.Request{Header: hdr, Request: id, Action: []byte(action)})}), http.StatusOK)
	witness := func(k ed25519.PrivateKey, char, req string) string {
		return js(command.RollWitnessSigned{Character: char, SignedMessage: seal(k, &signed.Witness{Header: hdr, Request: req, Value: signed.Hex32{0x5e}})})
	}
	resolve := js(map[string]any{"request": id, "unwitnessed": true})
	before := h.count(t)
	for _, tc := range []struct {
		name, token, command, body string
		want                       int
	}{
		{"the GM witnesses its own roll", anaToken, "roll-witness", witness(anaKey, "orco", id), 400},
		{"the GM resolves before the wait", anaToken, "roll-resolve", resolve, 400},
		{"the GM resolves neither way", anaToken, "roll-resolve", js(map[string]any{"request": id}), 400},
		{"the GM resolves both ways", anaToken, "roll-resolve", js(map[string]any{"request": id, "unwitnessed": true, "beacon": true}), 400},
		{"the GM's beacon for a request without a round", anaToken, "roll-resolve", js(map[string]any{"request": id, "beacon": true}), 400},
		{"a player resolves", beaToken, "roll-resolve", resolve, 403},
		{"a player witnesses as another's character", beaToken, "roll-witness", witness(beaKey, "lodin", id), 403},
		{"a player witnesses with no character", beaToken, "roll-witness", witness(beaKey, "", id), 403},
		{"a player witnesses with the GM's key", beaToken, "roll-witness", witness(anaKey, "ruisenor", id), 400},
		{"a player witnesses an unknown request", beaToken, "roll-witness", witness(beaKey, "ruisenor", uuid.NewString()), 404},
		{"the dashboard witnesses", wallToken, "roll-witness", witness(beaKey, "ruisenor", id), 403},
		{"the dashboard resolves", wallToken, "roll-resolve", resolve, 403},
		{"a stranger witnesses", zedToken, "roll-witness", witness(beaKey, "ruisenor", id), 403},
		{"a stranger resolves", zedToken, "roll-resolve", resolve, 403},
		{"anonymous witnesses", "", "roll-witness", witness(beaKey, "ruisenor", id), 401},
		{"anonymous resolves", "", "roll-resolve", resolve, 401},
	} {
		post(tc.token, tc.command, tc.body, tc.want)
		require.Equal(t, before, h.count(t), "%s: a refused request recorded something", tc.name)
	}
	r = post(beaToken, "roll-witness", witness(beaKey, "ruisenor", id), http.StatusOK)
	var made struct {
		Recorded []struct {
			Event struct {
				Actor string `json:"actor"`
				Data  struct {
					Witness   string `json:"witness"`
					Character string `json:"character"`
				} `json:"data"`
			} `json:"event"`
		} `json:"recorded"`
	}
	r.json(t, &made)
	require.Equal(t, "bea", made.Recorded[0].Event.Actor)
	require.Equal(t, "bea", made.Recorded[0].Event.Data.Witness)
	require.Equal(t, "orco", made.Recorded[0].Event.Data.Character)
	after := h.count(t)
	post(beaToken, "roll-witness", js(command.RollWitnessSigned{Character: "ruisenor",
		SignedMessage: seal(beaKey, &signed.Witness{Header: hdr, Request: id, Value: signed.Hex32{0x5f}})}), 400)
	post(anaToken, "roll-resolve", resolve, 400)
	require.Equal(t, after, h.count(t), "the first witness wins")

	// A beacon request a minute and a half ahead: bea's device receipts
	// it (roll-receipt, as a player for her own character); the GM, the
	// dashboard, a stranger and an anonymous client cannot.
	beaconed := uuid.NewString()
	round := beacon.Quicknet().NextRound(time.Now().Add(90 * time.Second))
	post(anaToken, "roll-request", js(command.RollRequestSigned{Character: "orco", Wait: 60,
		SignedMessage: seal(anaKey, &signed.Request{Header: hdr, Request: beaconed, BeaconRound: round, Action: []byte(action)})}), http.StatusOK)
	receipt := func(k ed25519.PrivateKey, char string) string {
		return js(command.RollReceiptSigned{Character: char, SignedMessage: seal(k, &signed.Receipt{Header: hdr, Request: beaconed})})
	}
	before = h.count(t)
	for _, tc := range []struct {
		name, token, body string
		want              int
	}{
		{"the GM receipts its own request", anaToken, receipt(anaKey, "orco"), 400},
		{"a player receipts as another's character", beaToken, receipt(beaKey, "lodin"), 403},
		{"a player receipts with the GM's key", beaToken, receipt(anaKey, "ruisenor"), 400},
		{"the dashboard receipts", wallToken, receipt(beaKey, "ruisenor"), 403},
		{"a stranger receipts", zedToken, receipt(beaKey, "ruisenor"), 403},
		{"anonymous receipts", "", receipt(beaKey, "ruisenor"), 401},
	} {
		post(tc.token, "roll-receipt", tc.body, tc.want)
		require.Equal(t, before, h.count(t), "%s: a refused receipt recorded something", tc.name)
	}
	post(beaToken, "roll-receipt", receipt(beaKey, "ruisenor"), http.StatusOK)
	post(beaToken, "roll-receipt", receipt(beaKey, "ruisenor"), 400) // once
	require.Equal(t, before+1, h.count(t))
}
