package web_test

import (
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
	"github.com/campaign-journal/journal/web"
)

// TestVoidProposalsSurviveARestart: a void proposal and its roller's
// consent are events: a double tap with one Idempotency-Key records one
// of each, only the GM proposes and only the roller consents, and after
// serve restarts the proposal and its consent are there for the void,
// which ends it.
func TestVoidProposalsSurviveARestart(t *testing.T) {
	b := sharedBackend()
	th := newTableHarnessOn(t, b)
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	caiKey := goKey(31)
	tok := th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}})
	r := th.do(http.MethodPost, "/api/invites/"+tok, redeemWith(t, caiKey, "mordor", "cai", "player"))
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var dev struct{ Token string }
	r.json(t, &dev)
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
	rv := [32]byte{9}
	c, err := dice.ParseHex32(dice.RevealCommitment(rv))
	require.NoError(t, err)
	id := uuid.NewString()
	action := js(command.RollAction{Command: "roll", SeedCommitment: sess.Commitment, Character: "lodin", Skill: "Sigilo"})
	r = th.do("POST", "/api/campaigns/mordor/commands/roll-request", js(command.RollRequestSigned{Character: "lodin",
		SignedMessage: seal(caiKey, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(action)})}), bearer(dev.Token)...)
	require.Equal(t, 200, r.status, "%s", r.body)
	var made struct {
		Recorded []struct {
			Event events.Event `json:"event"`
		} `json:"recorded"`
	}
	r = th.do("POST", "/api/campaigns/mordor/commands/roll-reveal", js(command.RollRevealSigned{Character: "lodin",
		SignedMessage: seal(caiKey, &signed.Reveal{Header: hdr, Request: id, R: rv})}), bearer(dev.Token)...)
	require.Equal(t, 200, r.status, "%s", r.body)
	r.json(t, &made)
	roll := made.Recorded[0].Event.ID

	propose := js(map[string]string{"event_id": roll, "reason": "the wrong skill"})
	before := th.count(t)
	for _, who := range []struct {
		token string
		want  int
	}{{"", 401}, {dev.Token, 403}, {beaToken, 403}, {wallToken, 403}, {zedToken, 403}} {
		var h []string
		if who.token != "" {
			h = bearer(who.token)
		}
		require.Equal(t, who.want, th.do("POST", "/api/campaigns/mordor/void-proposals", propose, h...).status)
	}
	require.Equal(t, before, th.count(t))
	var p1, p2 struct{ ID, Roller, Character string }
	tap := append(bearer(anaToken), "Idempotency-Key", "tap-propose")
	th.do("POST", "/api/campaigns/mordor/void-proposals", propose, tap...).json(t, &p1)
	th.do("POST", "/api/campaigns/mordor/void-proposals", propose, tap...).json(t, &p2)
	// The same request id on the commands route: the same command, recorded once.
	require.Equal(t, 200, th.do("POST", "/api/campaigns/mordor/commands/void-propose", propose, tap...).status)
	require.Equal(t, before+1, th.count(t), "a double tap proposes once")
	require.Equal(t, "void-1", p1.ID)
	require.Equal(t, p1, p2)
	require.Equal(t, "cai", p1.Roller)
	require.Equal(t, 409, th.do("POST", "/api/campaigns/mordor/void-proposals", propose, bearer(anaToken)...).status, "proposed already")

	consent := js(seal(caiKey, &signed.VoidConsent{Header: hdr, Event: roll, Reason: "the wrong skill"}))
	path := "/api/campaigns/mordor/void-proposals/void-1/consent"
	before = th.count(t)
	require.Equal(t, 403, th.do("POST", path, consent, bearer(beaToken)...).status, "another player")
	require.Equal(t, 401, th.do("POST", path, consent).status, "anonymous")
	require.Equal(t, 403, th.do("POST", path, consent, bearer(anaToken)...).status, "the GM who hosts signs no consent for cai")
	wrong := js(seal(caiKey, &signed.VoidConsent{Header: hdr, Event: roll, Reason: "another reason"}))
	require.Equal(t, 400, th.do("POST", path, wrong, bearer(dev.Token)...).status, "another reason")
	forged := js(seal(goKey(32), &signed.VoidConsent{Header: hdr, Event: roll, Reason: "the wrong skill"}))
	require.Equal(t, 400, th.do("POST", path, forged, bearer(dev.Token)...).status, "a key that is not cai's")
	require.Equal(t, before, th.count(t))
	ctap := append(bearer(dev.Token), "Idempotency-Key", "tap-consent")
	require.Equal(t, 200, th.do("POST", path, consent, ctap...).status)
	require.Equal(t, 200, th.do("POST", path, consent, ctap...).status)
	var sealed command.SignedMessage
	require.NoError(t, json.Unmarshal([]byte(consent), &sealed))
	asCommand := js(command.VoidConsent{Character: "lodin", Proposal: "void-1", SignedMessage: sealed})
	require.Equal(t, 200, th.do("POST", "/api/campaigns/mordor/commands/void-consent", asCommand, ctap...).status)
	require.Equal(t, before+1, th.count(t), "a double tap consents once")
	require.Equal(t, 403, th.do("POST", "/api/campaigns/mordor/commands/void-consent", asCommand, bearer(beaToken)...).status)

	// serve restarts.
	h2 := newHarnessWith(t, b, func(o *web.Options) { o.Access = accessConfig(t); o.Devices = th.book })
	var props []struct {
		ID               string `json:"id"`
		ConsentSigned    string `json:"consent_signed"`
		ConsentSignature string `json:"consent_signature"`
		Roller           string `json:"roller"`
	}
	r = h2.do("GET", "/api/campaigns/mordor/void-proposals", "", bearer(anaToken)...)
	require.Equal(t, 200, r.status, "%s", r.body)
	r.json(t, &props)
	require.Len(t, props, 1)
	require.Equal(t, "void-1", props[0].ID)
	require.NotEmpty(t, props[0].ConsentSigned, "the consent survived the restart")
	void := js(map[string]string{"event_id": roll, "reason": "the wrong skill", "consent_signed": props[0].ConsentSigned, "consent_signature": props[0].ConsentSignature})
	r = h2.do("POST", "/api/campaigns/mordor/commands/void", void, bearer(anaToken)...)
	require.Equal(t, 200, r.status, "%s", r.body)
	r = h2.do("GET", "/api/campaigns/mordor/void-proposals", "", bearer(anaToken)...)
	r.json(t, &props)
	require.Empty(t, props, "the void ends the proposal")
}
