package web_test

import (
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
	"github.com/campaign-journal/journal/web"
)

// TestV2TORCommandsOverHTTP: The One Ring's v2 roll and Hope over the API
// with access control, attacked as each role: the GM (ana), a player (bea,
// thorin's) against the other player's character (cid's bilbo), the
// dashboard, a stranger and an anonymous client. Every refusal records
// nothing; only bilbo's player rolls for bilbo and spends its Hope.
func TestV2TORCommandsOverHTTP(t *testing.T) {
	const (
		cidToken = "cid-token-0123456789"
		arda     = "/api/campaigns/arda/commands/"
	)
	cfg, err := access.New(
		access.User{Name: "ana", Role: access.RoleGM, Campaign: "arda", Tokens: []string{anaToken}},
		access.User{Name: "bea", Role: access.RolePlayer, Campaign: "arda", Characters: []string{"thorin"}, Tokens: []string{beaToken}},
		access.User{Name: "cid", Role: access.RolePlayer, Campaign: "arda", Characters: []string{"bilbo"}, Tokens: []string{cidToken}},
		access.User{Name: "wall", Role: access.RoleDashboard, Campaign: "arda", Tokens: []string{wallToken}},
		access.User{Name: "zed", Role: access.RoleGM, Campaign: "gondor", Tokens: []string{zedToken}},
	)
	require.NoError(t, err)
	h := newHarnessWith(t, memBackend(), func(o *web.Options) { o.Access = cfg })
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	post := func(token, name, body string) response {
		t.Helper()
		var hdr []string
		if token != "" {
			hdr = bearer(token)
		}
		return h.do(http.MethodPost, arda+name, body, hdr...)
	}
	ok := func(token, name, body string) response {
		t.Helper()
		r := post(token, name, body)
		require.Less(t, r.status, 300, "%s %s: %s", name, body, r.body)
		return r
	}
	r := h.do(http.MethodPost, "/api/campaigns", `{"id":"arda","system":"tor"}`, bearer(anaToken)...)
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	ok(anaToken, "character-create", js(command.CreateCharacter{ID: "bilbo", Name: "Bilbo", Player: "cid", Culture: "Hobbits de la Comarca",
		MaxHope: 6, Attributes: "Cuerpo=3/5,Corazón=6/8,Mente=5/7", Skills: "Atención=3*,Sigilo=3"}))
	ok(anaToken, "character-create", js(command.CreateCharacter{ID: "thorin", Name: "Thorin", Player: "bea", Culture: "Enanos",
		MaxHope: 8, Attributes: "body=7/9,heart=5/7,wits=2/4", Skills: "Guerrear=3*"}))
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey, cidKey := key(1), key(2), key(3)
	ok(anaToken, "key-register", js(command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "arda", "ana", "gm", "")}))
	ok(anaToken, "key-register", js(command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()}))
	ok(anaToken, "key-register", js(command.RegisterKey{User: "cid", PublicKey: signed.PublicKeyOf(cidKey).String()}))
	r = ok(anaToken, "session-start", `{"id":"s1","dice":"v2"}`)
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
	hdr := signed.Header{Campaign: "arda", Session: "s1"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	// request is a signed roll.request of k sent for char: a tor-roll with a
	// commitment to rv, or (rv nil) a tor-hope on rollRequest.
	request := func(k ed25519.PrivateKey, char, actionChar, id string, rv *[32]byte, rollRequest string) string {
		req := &signed.Request{Header: hdr, Request: id}
		if rv != nil {
			c, err := dice.ParseHex32(dice.RevealCommitment(*rv))
			require.NoError(t, err)
			req.Commitment = c
			req.Action = []byte(js(command.TORRollAction{Command: command.CommandTORRoll, SeedCommitment: commitment,
				Character: actionChar, Skill: "Atención", TN: 30}))
		} else {
			req.Action = []byte(js(command.TORHopeAction{Command: command.CommandTORHope, SeedCommitment: commitment,
				Character: actionChar, RollRequest: rollRequest}))
		}
		return js(command.RollRequestSigned{Character: char, SignedMessage: seal(k, req)})
	}
	reveal := func(k ed25519.PrivateKey, char, id string, rv [32]byte) string {
		return js(command.RollRevealSigned{Character: char, SignedMessage: seal(k, &signed.Reveal{Header: hdr, Request: id, R: rv})})
	}

	// bilbo rolls Atención at TN 30 (only the rune succeeds) until it fails.
	var rolled string
	for i := byte(0); rolled == "" && i < 20; i++ {
		id, rv := uuid.NewString(), [32]byte{9, i}
		ok(cidToken, "roll-request", request(cidKey, "bilbo", "bilbo", id, &rv, ""))
		r := ok(cidToken, "roll-reveal", reveal(cidKey, "bilbo", id, rv))
		var made struct {
			Recorded []struct {
				Event struct {
					Data struct {
						Outcome string `json:"outcome"`
						Draws   []int  `json:"draws"`
					} `json:"data"`
				} `json:"event"`
			} `json:"recorded"`
		}
		r.json(t, &made)
		require.Equal(t, []int{12, 6, 6, 6}, made.Recorded[0].Event.Data.Draws)
		if made.Recorded[0].Event.Data.Outcome == "failure" {
			rolled = id
		}
	}
	require.NotEmpty(t, rolled, "a failure at TN 30 in 20 rolls")

	pending := uuid.NewString()
	rv := [32]byte{7}
	before := h.count(t)
	for _, tc := range []struct {
		name, token, command, body string
		want                       int
	}{
		{"a player rolls for another's character", beaToken, "roll-request", request(beaKey, "bilbo", "bilbo", pending, &rv, ""), 403},
		{"a player's body names her character, the signed action another's", beaToken, "roll-request", request(beaKey, "thorin", "bilbo", pending, &rv, ""), 400},
		{"a player sends the other player's signed request as hers", beaToken, "roll-request", request(cidKey, "thorin", "thorin", pending, &rv, ""), 400},
		{"a player spends another's Hope", beaToken, "roll-request", request(beaKey, "bilbo", "bilbo", uuid.NewString(), nil, rolled), 403},
		{"a player's body names her character, the Hope another's", beaToken, "roll-request", request(beaKey, "thorin", "bilbo", uuid.NewString(), nil, rolled), 400},
		{"a player reveals another's request", beaToken, "roll-reveal", reveal(beaKey, "bilbo", rolled, rv), 403},
		{"the GM spends a player's Hope", anaToken, "roll-request", request(anaKey, "bilbo", "bilbo", uuid.NewString(), nil, rolled), 400},
		{"the GM sends the player's Hope as its own", anaToken, "roll-request", request(cidKey, "bilbo", "bilbo", uuid.NewString(), nil, rolled), 400},
		{"the dashboard spends Hope", wallToken, "roll-request", request(cidKey, "bilbo", "bilbo", uuid.NewString(), nil, rolled), 403},
		{"a stranger spends Hope", zedToken, "roll-request", request(cidKey, "bilbo", "bilbo", uuid.NewString(), nil, rolled), 403},
		{"anonymous spends Hope", "", "roll-request", request(cidKey, "bilbo", "bilbo", uuid.NewString(), nil, rolled), 401},
		{"anonymous rolls", "", "roll-request", request(cidKey, "bilbo", "bilbo", pending, &rv, ""), 401},
		{"unsigned Hope in a v2 session", cidToken, "hope-spend", js(map[string]string{"character": "bilbo"}), 400},
	} {
		r := post(tc.token, tc.command, tc.body)
		require.Equal(t, tc.want, r.status, "%s: %s", tc.name, r.body)
		require.Equal(t, before, h.count(t), "%s: a refused request recorded something", tc.name)
	}
	hope := uuid.NewString()
	ok(cidToken, "roll-request", request(cidKey, "bilbo", "bilbo", hope, nil, rolled))
	require.Equal(t, before+1, h.count(t), "Hope is one event, drawing nothing")
	r = post(cidToken, "roll-request", request(cidKey, "bilbo", "bilbo", hope, nil, rolled))
	require.Equal(t, 400, r.status, "a retried Hope request: %s", r.body)
	require.Equal(t, before+1, h.count(t))
}
