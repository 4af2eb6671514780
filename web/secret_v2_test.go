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
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestFreeRollsV2OverHTTP: in a journal-dice-v2 session the free roll's
// action comes from POST /actions/free-roll (the dice as the journal
// writes them; a player's secret one and one for no character refused);
// a player's free roll is its signed request and reveal; the GM's secret
// free roll, witnessed by the player, is recorded hidden, its outcome on
// the GM's route only, then revealed by the GM.
func TestFreeRollsV2OverHTTP(t *testing.T) {
	h := newAccessHarness(t)
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey := key(1), key(2)
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	call := func(token, method, path, body string, want int) response {
		t.Helper()
		r := h.do(method, "/api/campaigns/mordor"+path, body, bearer(token)...)
		require.Equal(t, want, r.status, "%s %s %s: %s", method, path, body, r.body)
		return r
	}
	post := func(token, name, body string, want int) response {
		t.Helper()
		return call(token, http.MethodPost, "/commands/"+name, body, want)
	}
	post(anaToken, "session-end", `{}`, http.StatusOK)
	post(anaToken, "key-register", js(command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "mordor", "ana", "gm", "")}), http.StatusOK)
	post(anaToken, "key-register", js(command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()}), http.StatusOK)
	post(anaToken, "session-start", `{"id":"s2","dice":"v2"}`, http.StatusOK)
	var camp projections.Campaign
	call(anaToken, http.MethodGet, "", "", 200).json(t, &camp)
	sd := camp.OpenSession()
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}

	call(beaToken, http.MethodPost, "/actions/free-roll", `{"character":"ruisenor","dice":"1d6","secret":true}`, 400)
	call(beaToken, http.MethodPost, "/actions/free-roll", `{"dice":"1d6"}`, 403)
	call(beaToken, http.MethodPost, "/actions/free-roll", `{"character":"ruisenor","dice":"1d1"}`, 400)
	var act command.FreeRollAction
	call(beaToken, http.MethodPost, "/actions/free-roll", `{"character":"ruisenor","dice":"2D6 + 1","note":"a coin"}`, 200).json(t, &act)
	require.Equal(t, command.FreeRollAction{Command: "free-roll", SeedCommitment: sd.Commitment, Character: "ruisenor", Dice: "2d6+1", Note: "a coin"}, act)

	// bea's free roll: her signed request and reveal.
	rv := [32]byte{7}
	c, err := dice.ParseHex32(dice.RevealCommitment(rv))
	require.NoError(t, err)
	id := uuid.NewString()
	post(beaToken, "roll-request", js(command.RollRequestSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(js(act))})}), http.StatusOK)
	var made struct {
		Recorded []struct {
			Event events.Event `json:"event"`
		} `json:"recorded"`
	}
	post(beaToken, "roll-reveal", js(command.RollRevealSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Reveal{Header: hdr, Request: id, R: rv})}), http.StatusOK).json(t, &made)
	var roll events.RollMade
	require.NoError(t, made.Recorded[0].Event.DecodeData(&roll))
	require.Equal(t, "free", roll.Kind)
	require.Len(t, roll.Faces, 2)
	require.Equal(t, roll.Faces[0]+roll.Faces[1]+1, roll.Total)

	// The GM's secret free roll for no one, witnessed by bea.
	var gmAct command.FreeRollAction
	call(anaToken, http.MethodPost, "/actions/free-roll", `{"dice":"1d20","secret":true}`, 200).json(t, &gmAct)
	require.True(t, gmAct.Secret)
	gid := uuid.NewString()
	post(anaToken, "roll-request", js(command.RollRequestSigned{Wait: 3600, SignedMessage: seal(anaKey, &signed.Request{Header: hdr, Request: gid, Action: []byte(js(gmAct))})}), http.StatusOK)
	post(beaToken, "roll-witness", js(command.RollWitnessSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Witness{Header: hdr, Request: gid, Value: signed.Hex32{0x5e}})}), http.StatusOK).json(t, &made)
	require.Len(t, made.Recorded, 1)
	hidden := made.Recorded[0].Event
	require.Equal(t, events.TypeRollHidden, hidden.Type)
	noOutcome(t, "the witness's answer", string(hidden.Data), hidden.ID)
	call(beaToken, http.MethodGet, "/secret-rolls", "", 403)
	var list []command.SecretRoll
	call(anaToken, http.MethodGet, "/secret-rolls", "", 200).json(t, &list)
	require.Len(t, list, 1)
	require.Len(t, list[0].Roll.Faces, 1)
	post(anaToken, "reveal", `{"request":"`+hidden.ID+`"}`, http.StatusOK).json(t, &made)
	var revealed events.RollMade
	require.NoError(t, made.Recorded[0].Event.DecodeData(&revealed))
	require.Equal(t, hidden.ID, revealed.Hidden)
	require.Equal(t, list[0].Roll.Faces, revealed.Faces)
	require.Equal(t, "bea", revealed.Witness)
}
