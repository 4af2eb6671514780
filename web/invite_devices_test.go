package web_test

import (
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestTwoInvitesTwoDevices: two invites for the same player, each
// redeemed by its own device (a phone and a laptop, each with its own
// key): both stay active, and each signs its own rolls (requests and
// reveals), in any order, the first device's after the second's
// registration too. A roll call is answered once by the player, whichever
// device answers: the other device's answer is a conflict. The first
// device's answer for a character the invite does not give is refused.
func TestTwoInvitesTwoDevices(t *testing.T) {
	th := newTableHarness(t)
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	phoneKey, laptopKey := goKey(21), goKey(22)
	redeem := func(k ed25519.PrivateKey) string {
		tok := th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}})
		r := th.do(http.MethodPost, "/api/invites/"+tok, redeemWith(t, k, "mordor", "cai", "player"))
		require.Equal(t, http.StatusOK, r.status, "%s", r.body)
		var got struct{ Token string }
		r.json(t, &got)
		return got.Token
	}
	phone := redeem(phoneKey)
	laptop := redeem(laptopKey)
	require.NotEqual(t, phone, laptop)

	var camp struct {
		Participants map[string]struct {
			Devices []struct {
				PublicKey string `json:"public_key"`
				Revoked   bool   `json:"revoked"`
			} `json:"devices"`
		} `json:"participants"`
	}
	th.gm(t, "GET", "/api/campaigns/mordor", "", &camp)
	require.Len(t, camp.Participants["cai"].Devices, 2)
	for _, d := range camp.Participants["cai"].Devices {
		require.False(t, d.Revoked, "both devices are active")
	}

	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v2"}`, nil)
	var state struct {
		Sessions []struct{ ID, Commitment string } `json:"sessions"`
	}
	th.gm(t, "GET", "/api/campaigns/mordor", "", &state)
	sess := state.Sessions[len(state.Sessions)-1]
	hdr := signed.Header{Campaign: "mordor", Session: sess.ID}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	var call struct{ ID string }
	th.gm(t, "POST", "/api/campaigns/mordor/calls", `{"characters":["lodin"],"skill":"Sigilo","vs":"media"}`, &call)
	roll := func(token string, k ed25519.PrivateKey, seed byte, callID string, want int) {
		t.Helper()
		rv := [32]byte{seed}
		c, err := dice.ParseHex32(dice.RevealCommitment(rv))
		require.NoError(t, err)
		id := uuid.NewString()
		action := js(command.RollAction{Command: "roll", SeedCommitment: sess.Commitment, Character: "lodin", Skill: "Sigilo", Vs: "media", Call: callID})
		r := th.do(http.MethodPost, "/api/campaigns/mordor/commands/roll-request",
			js(command.RollRequestSigned{Character: "lodin", SignedMessage: seal(k, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(action)})}), bearer(token)...)
		require.Equal(t, want, r.status, "request: %s", r.body)
		if want != http.StatusOK {
			return
		}
		r = th.do(http.MethodPost, "/api/campaigns/mordor/commands/roll-reveal",
			js(command.RollRevealSigned{Character: "lodin", SignedMessage: seal(k, &signed.Reveal{Header: hdr, Request: id, R: rv})}), bearer(token)...)
		require.Equal(t, http.StatusOK, r.status, "reveal: %s", r.body)
	}
	roll(phone, phoneKey, 1, "", http.StatusOK)
	roll(laptop, laptopKey, 2, "", http.StatusOK)
	roll(phone, phoneKey, 3, call.ID, http.StatusOK)
	roll(laptop, laptopKey, 4, call.ID, http.StatusConflict) // answered already, by the phone
	roll(laptop, laptopKey, 5, "", http.StatusOK)
	roll(phone, phoneKey, 6, "", http.StatusOK)
	// A key that no invite registered is refused, whichever token sends it.
	roll(phone, goKey(23), 7, "", http.StatusBadRequest)

	// The laptop revokes the phone's key (a lost phone): the book still
	// signs the phone in, and the GM's list says its key is revoked, so
	// that "active" no longer hides why its rolls are refused.
	rv := seal(laptopKey, &signed.DeviceRevoke{Header: signed.Header{Campaign: "mordor"}, User: "cai", PublicKey: pubHex(phoneKey), Reason: "lost"})
	r := th.do(http.MethodPost, "/api/campaigns/mordor/commands/key-revoke", js(command.RevokeDevice{Character: "lodin", SignedMessage: rv}), bearer(laptop)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var rows []struct {
		User        string `json:"user"`
		Kind        string `json:"kind"`
		Fingerprint string `json:"fingerprint"`
		Revoked     bool   `json:"revoked"`
		KeyRevoked  bool   `json:"key_revoked"`
	}
	th.gm(t, "GET", "/api/campaigns/mordor/devices", "", &rows)
	keyRevoked := map[string]bool{}
	for _, d := range rows {
		if d.Kind == "device" {
			require.False(t, d.Revoked, "the book signs both in")
			keyRevoked[d.Fingerprint] = d.KeyRevoked
		}
	}
	require.Equal(t, map[string]bool{signed.PublicKeyOf(phoneKey).Fingerprint(): true, signed.PublicKeyOf(laptopKey).Fingerprint(): false}, keyRevoked)
	roll(phone, phoneKey, 8, "", http.StatusBadRequest)
	roll(laptop, laptopKey, 9, "", http.StatusOK)
}
