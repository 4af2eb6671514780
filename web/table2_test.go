package web_test

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
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

// TestTable2RoutesAttacked attacks the routes of web/table2.go as each
// role: the GM (ana), a player (bea, who plays ruisenor), the dashboard, a
// stranger (zed, GM of another campaign) and an anonymous client. The
// action routes answer only for a character the requester may act for; a
// void proposal is the GM's; a consent is the roll's roller's alone, under
// its registered key, for the proposal's event and reason exactly; the
// session-ended route gives the bytes the chain hashes. Every refusal
// records nothing and leaves the proposal without a consent; the void
// then carries bea's consent.
func TestTable2RoutesAttacked(t *testing.T) {
	h := newAccessHarness(t)
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey := key(1), key(2)
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	call := func(token, method, path, body string, want int) response {
		t.Helper()
		var hdr []string
		if token != "" {
			hdr = bearer(token)
		}
		r := h.do(method, "/api/campaigns/mordor"+path, body, hdr...)
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
	var started struct {
		Recorded []struct {
			Event events.Event `json:"event"`
		} `json:"recorded"`
	}
	post(anaToken, "session-start", `{"id":"s2","dice":"v2"}`, http.StatusOK).json(t, &started)
	var camp projections.Campaign
	call(anaToken, http.MethodGet, "", "", 200).json(t, &camp)
	sd := camp.OpenSession()
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}

	// The action routes: for a character the requester may act for.
	heal := `{"character":"ruisenor"}`
	for _, tc := range []struct {
		name, token, path, body string
		want                    int
	}{
		{"anonymous asks for an action", "", "/actions/contest", heal, 401},
		{"a stranger asks for an action", zedToken, "/actions/contest", heal, 403},
		{"the dashboard asks for an action", wallToken, "/actions/tor-roll", heal, 403},
		{"a player asks as another's character", beaToken, "/actions/contest", `{"character":"lodin","a":"lodin","skill_a":"Pelea","b":"orco","skill_b":"Pelea"}`, 403},
		{"a player asks for an unknown action", beaToken, "/actions/fireball", heal, 404},
		{"a player sends an unknown field", beaToken, "/actions/contest", `{"character":"ruisenor","entropy":"x"}`, 400},
		{"a contest's attribute by its old name", beaToken, "/actions/contest", `{"character":"ruisenor","a":"ruisenor","skill_a":"Pelea","attr_a":"F","b":"orco","skill_b":"Pelea"}`, 400},
		{"a v2 contest with entropy", beaToken, "/actions/contest", `{"character":"ruisenor","a":"ruisenor","skill_a":"Pelea","entropy_a":"x","b":"orco","skill_b":"Pelea"}`, 400},
		{"a player asks for a TOR roll in RyF", beaToken, "/actions/tor-roll", `{"character":"ruisenor","skill":"Pelea","tn":14}`, 400},
	} {
		before := h.count(t)
		call(tc.token, http.MethodPost, tc.path, tc.body, tc.want)
		require.Equal(t, before, h.count(t), "%s: recorded something", tc.name)
	}
	var act command.ContestAction
	call(beaToken, http.MethodPost, "/actions/contest", `{"character":"ruisenor","a":"ruisenor","skill_a":"pelea","b":"orco","skill_b":"Pelea"}`, 200).json(t, &act)
	require.Equal(t, command.ContestAction{Command: "contest", SeedCommitment: sd.Commitment,
		A: command.ContestSideAction{Character: "ruisenor", Skill: "Pelea"}, B: command.ContestSideAction{Character: "orco", Skill: "Pelea"}}, act,
		"the action as the rules spell it")

	// bea rolls; the GM proposes to void that roll.
	rv := [32]byte{7}
	c, err := dice.ParseHex32(dice.RevealCommitment(rv))
	require.NoError(t, err)
	id := uuid.NewString()
	action := js(command.RollAction{Command: "roll", SeedCommitment: sd.Commitment, Character: "ruisenor", Skill: "Pelea"})
	post(beaToken, "roll-request", js(command.RollRequestSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(action)})}), http.StatusOK)
	var made struct {
		Recorded []struct {
			Event events.Event `json:"event"`
		} `json:"recorded"`
	}
	post(beaToken, "roll-reveal", js(command.RollRevealSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Reveal{Header: hdr, Request: id, R: rv})}), http.StatusOK).json(t, &made)
	roll := made.Recorded[0].Event
	require.Equal(t, events.TypeRollMade, roll.Type)
	propose := js(map[string]string{"event_id": roll.ID, "reason": "the wrong skill"})
	for _, tc := range []struct {
		name, token, body string
		want              int
	}{
		{"anonymous proposes", "", propose, 401},
		{"a stranger proposes", zedToken, propose, 403},
		{"the dashboard proposes", wallToken, propose, 403},
		{"a player proposes", beaToken, propose, 403},
		{"the GM proposes the void of a session start", anaToken, js(map[string]string{"event_id": started.Recorded[0].Event.ID, "reason": "x"}), 400},
		{"the GM proposes without a reason", anaToken, js(map[string]string{"event_id": roll.ID, "reason": ""}), 400},
		{"the GM proposes an unknown event", anaToken, js(map[string]string{"event_id": uuid.NewString(), "reason": "x"}), 404},
	} {
		call(tc.token, http.MethodPost, "/void-proposals", tc.body, tc.want)
	}
	var p struct {
		ID            string `json:"id"`
		Roller        string `json:"roller"`
		ConsentSigned string `json:"consent_signed"`
	}
	call(anaToken, http.MethodPost, "/void-proposals", propose, 200).json(t, &p)
	require.Equal(t, "bea", p.Roller)
	call(anaToken, http.MethodPost, "/void-proposals", propose, 409)

	// The consent: bea's alone, under bea's key, for this event and reason.
	consent := func(k ed25519.PrivateKey, session, event, reason string) string {
		return js(seal(k, &signed.VoidConsent{Header: signed.Header{Campaign: "mordor", Session: session}, Event: event, Reason: reason}))
	}
	good := consent(beaKey, "s2", roll.ID, "the wrong skill")
	path := "/void-proposals/" + p.ID + "/consent"
	before := h.count(t)
	for _, tc := range []struct {
		name, token, body string
		want              int
	}{
		{"anonymous consents", "", good, 401},
		{"a stranger consents", zedToken, good, 403},
		{"the dashboard consents", wallToken, good, 403},
		{"the GM consents for bea", anaToken, consent(anaKey, "s2", roll.ID, "the wrong skill"), 403},
		{"the GM sends bea's consent", anaToken, good, 403},
		{"bea consents under the GM's key", beaToken, consent(anaKey, "s2", roll.ID, "the wrong skill"), 400},
		{"bea consents to another reason", beaToken, consent(beaKey, "s2", roll.ID, "a better reason"), 400},
		{"bea consents to another event", beaToken, consent(beaKey, "s2", started.Recorded[0].Event.ID, "the wrong skill"), 400},
		{"bea consents for another session", beaToken, consent(beaKey, "s1", roll.ID, "the wrong skill"), 400},
	} {
		call(tc.token, http.MethodPost, path, tc.body, tc.want)
		var list []struct {
			ConsentSigned string `json:"consent_signed"`
		}
		call(anaToken, http.MethodGet, "/void-proposals", "", 200).json(t, &list)
		require.Len(t, list, 1)
		require.Empty(t, list[0].ConsentSigned, "%s: the proposal took a consent", tc.name)
	}
	require.Equal(t, before, h.count(t), "a consent records nothing by itself")
	call(beaToken, http.MethodPost, path, good, 200).json(t, &p)
	require.NotEmpty(t, p.ConsentSigned)
	var sm command.SignedMessage
	require.NoError(t, json.Unmarshal([]byte(good), &sm))
	var voided struct {
		Recorded []struct {
			Event events.Event `json:"event"`
		} `json:"recorded"`
	}
	post(anaToken, "void", js(map[string]string{"event_id": roll.ID, "reason": "the wrong skill", "consent_signed": sm.Signed, "consent_signature": sm.Signature}), 200).json(t, &voided)
	var v events.EventVoided
	require.NoError(t, voided.Recorded[0].Event.DecodeData(&v))
	require.Equal(t, "bea", v.ConsentUser)
	var list []any
	call(wallToken, http.MethodGet, "/void-proposals", "", 200).json(t, &list)
	require.Empty(t, list, "the proposal ends with the void")
	call("", http.MethodGet, "/void-proposals", "", 401)

	// The session-ended route: the bytes the chain hashes, once ended.
	call(beaToken, http.MethodGet, "/sessions/s2/ended", "", 400)
	call(beaToken, http.MethodGet, "/sessions/nope/ended", "", 404)
	var ended struct {
		Event  string `json:"event"`
		Stored string `json:"stored"`
	}
	post(anaToken, "session-end", `{}`, http.StatusOK)
	call("", http.MethodGet, "/sessions/s2/ended", "", 401)
	call(zedToken, http.MethodGet, "/sessions/s2/ended", "", 403)
	call(wallToken, http.MethodGet, "/sessions/s2/ended", "", 200).json(t, &ended)
	b, err := base64.StdEncoding.DecodeString(ended.Stored)
	require.NoError(t, err)
	sum := sha256.Sum256(b)
	var endEv events.Event
	require.NoError(t, h.store.Read(context.Background(), events.Query{}, func(r events.Recorded) error {
		if r.Event.Type == events.TypeSessionEnded && r.Event.Session == "s2" {
			endEv = r.Event
		}
		return nil
	}))
	want, err := events.EventHash(endEv)
	require.NoError(t, err)
	require.Equal(t, endEv.ID, ended.Event)
	require.Equal(t, want, hex.EncodeToString(sum[:]), "the device hashes what the chain hashes")
}
