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

// TestV2PathsOverHTTP attacks the journal-dice-v2 contest, combat start
// and healing requests (all through roll-request and roll-reveal) as each
// role: the GM (ana), a player (bea, who plays ruisenor), the dashboard, a
// stranger and an anonymous client. A player is authorized only for its
// own character's side of a contest, a combat it takes part in and its own
// healing; every refusal records nothing. Then bea plays a contest as side
// B and starts a combat.
func TestV2PathsOverHTTP(t *testing.T) {
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
	sc := started.Recorded[0].Event.Data.Commitment
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	request := func(k ed25519.PrivateKey, acting, id string, rv [32]byte, action any) string {
		c, err := dice.ParseHex32(dice.RevealCommitment(rv))
		require.NoError(t, err)
		return js(command.RollRequestSigned{Character: acting,
			SignedMessage: seal(k, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(js(action))})})
	}
	reveal := func(k ed25519.PrivateKey, acting, id string, rv [32]byte) string {
		return js(command.RollRevealSigned{Character: acting, SignedMessage: seal(k, &signed.Reveal{Header: hdr, Request: id, R: rv})})
	}
	side := func(ch string) command.ContestSideAction {
		return command.ContestSideAction{Character: ch, Attribute: "P"}
	}
	contest := func(a, b string) command.ContestAction {
		return command.ContestAction{Command: "contest", SeedCommitment: sc, A: side(a), B: side(b)}
	}
	lodinToken := contest("lodin", "ruisenor")
	lodinToken.A.Token = true
	combat := func(p ...string) command.InitiativeAction {
		return command.InitiativeAction{Command: "combat-start", SeedCommitment: sc, Participants: p, Token: []string{}}
	}
	heal := func(ch string) command.HealAction {
		return command.HealAction{Command: "heal-after-combat", SeedCommitment: sc, Character: ch}
	}
	rv := [32]byte{7}
	first := uuid.NewString()
	beaContest := request(beaKey, "ruisenor", first, rv, contest("lodin", "ruisenor"))
	post(beaToken, "session-contribute", js(command.ContributeSigned{Character: "ruisenor",
		SignedMessage: seal(beaKey, &signed.Contribute{Header: hdr, Value: signed.Hex32{0xbe}, Commitment: hex32Of(t, sc)})}), http.StatusOK)

	before := h.count(t)
	for _, tc := range []struct {
		name, token, command, body string
		want                       int
	}{
		{"a player's contest acting for another's side", beaToken, "roll-request", request(beaKey, "lodin", uuid.NewString(), rv, contest("lodin", "ruisenor")), 403},
		{"a player's contest of two others", beaToken, "roll-request", request(beaKey, "ruisenor", uuid.NewString(), rv, contest("lodin", "orco")), 400},
		{"a player spends the other side's token", beaToken, "roll-request", request(beaKey, "ruisenor", uuid.NewString(), rv, lodinToken), 400},
		{"the dashboard asks for a contest", wallToken, "roll-request", beaContest, 403},
		{"a stranger asks for a contest", zedToken, "roll-request", beaContest, 403},
		{"anonymous asks for a contest", "", "roll-request", beaContest, 401},
		{"the GM sends bea's contest as its own", anaToken, "roll-request", beaContest, 400},
		{"the GM asks for its own contest (needs a witness)", anaToken, "roll-request", request(anaKey, "orco", uuid.NewString(), rv, contest("orco", "ruisenor")), 400},
		{"a player starts a combat acting for another", beaToken, "roll-request", request(beaKey, "lodin", uuid.NewString(), rv, combat("lodin", "orco")), 403},
		{"a player starts a combat it is not in", beaToken, "roll-request", request(beaKey, "ruisenor", uuid.NewString(), rv, combat("lodin", "orco")), 400},
		{"anonymous starts a combat", "", "roll-request", request(beaKey, "ruisenor", uuid.NewString(), rv, combat("ruisenor", "orco")), 401},
		{"a player heals another", beaToken, "roll-request", request(beaKey, "lodin", uuid.NewString(), rv, heal("lodin")), 403},
		{"a player heals another acting for itself", beaToken, "roll-request", request(beaKey, "ruisenor", uuid.NewString(), rv, heal("lodin")), 400},
		{"the dashboard heals", wallToken, "roll-request", request(beaKey, "ruisenor", uuid.NewString(), rv, heal("ruisenor")), 403},
	} {
		post(tc.token, tc.command, tc.body, tc.want)
		require.Equal(t, before, h.count(t), "%s: a refused request recorded something", tc.name)
	}

	// bea's contest as side B: requested and revealed acting for ruisenor;
	// a reveal acting for lodin is refused by the permissions.
	post(beaToken, "roll-request", beaContest, http.StatusOK)
	asked := h.count(t)
	post(beaToken, "roll-reveal", reveal(beaKey, "lodin", first, rv), http.StatusForbidden)
	post(wallToken, "roll-reveal", reveal(beaKey, "ruisenor", first, rv), http.StatusForbidden)
	post("", "roll-reveal", reveal(beaKey, "ruisenor", first, rv), http.StatusUnauthorized)
	post(anaToken, "roll-reveal", reveal(beaKey, "ruisenor", first, rv), http.StatusBadRequest) // not the GM's to reveal
	require.Equal(t, asked, h.count(t))
	r = post(beaToken, "roll-reveal", reveal(beaKey, "ruisenor", first, rv), http.StatusOK)
	var made struct {
		Recorded []struct {
			Event struct {
				Type string `json:"type"`
			} `json:"event"`
		} `json:"recorded"`
	}
	r.json(t, &made)
	require.Len(t, made.Recorded, 3, "both sides' rolls and the verdict")
	require.Equal(t, "journal.contest.resolved.v1", made.Recorded[2].Event.Type)

	second := uuid.NewString()
	post(beaToken, "roll-request", request(beaKey, "ruisenor", second, [32]byte{8}, combat("ruisenor", "orco")), http.StatusOK)
	r = post(beaToken, "roll-reveal", reveal(beaKey, "ruisenor", second, [32]byte{8}), http.StatusOK)
	r.json(t, &made)
	require.Len(t, made.Recorded, 3, "two initiative rolls and the combat's start")
	require.Equal(t, "journal.combat.started.v1", made.Recorded[2].Event.Type)
}
