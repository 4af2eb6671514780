package reproduce_test

import (
	"crypto/ed25519"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// v2Session records a journal-dice-v2 session through the catalogue: keys,
// a contribution with a witness chain, a roll requested and revealed, a
// request cancelled, GM rolls witnessed from the chain and unwitnessed, a
// beacon request receipted.
func v2Session(t *testing.T, r *recorder, m func(name, body string) command.Result) {
	t.Helper()
	var seed [32]byte
	seed[0] = 1
	ana := ed25519.NewKeyFromSeed(seed[:])
	seed[0] = 2
	gm := ed25519.NewKeyFromSeed(seed[:])
	body := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	m("key-register", body(command.RegisterKey{SignedMessage: device.MustRegister(gm, "mordor", "gm", "gm", "")}))
	m("key-register", body(command.RegisterKey{User: "ana", PublicKey: signed.PublicKeyOf(ana).String()}))
	res := m("session-start", `{"id":"s2","dice":"v2"}`)
	var started events.SessionStarted
	require.NoError(t, res.Events[0].Event.DecodeData(&started))
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(ana, s)}
	}
	asAna := func(name, body string) command.Result {
		t.Helper()
		s, ok := catalog.Lookup(name)
		require.True(t, ok, name)
		res, err := s.Run(r.Ctx, r.J, command.Call{Actor: "ana"}, "mordor", []byte(body))
		require.NoError(t, err, "%s %s", name, body)
		return res
	}
	// ana's second device, approved from her first, and the GM's bare
	// key for her, revoked from her first (docs/design.md §3.3).
	seed[0] = 3
	ana2 := ed25519.NewKeyFromSeed(seed[:])
	asAna("key-register", body(command.RegisterKey{SignedMessage: device.MustRegister(ana2, "mordor", "ana", "player", "laptop")}))
	asAna("key-approve", body(command.ApproveDevice{Character: "lodin", SignedMessage: device.MustApprove(ana, "mordor", "ana", signed.PublicKeyOf(ana2))}))
	seed[0] = 4
	host := ed25519.NewKeyFromSeed(seed[:])
	m("key-register", body(command.RegisterKey{User: "ana", PublicKey: signed.PublicKeyOf(host).String()}))
	revoke, err := device.Revoke(device.PrivateKey(ana), "mordor", "ana", signed.PublicKeyOf(host), "not mine")
	require.NoError(t, err)
	asAna("key-revoke", body(command.RevokeDevice{Character: "lodin", SignedMessage: revoke}))
	// With ana's device's witness chain (docs/design.md §3.3).
	w := dice.DeviceWitnessSecret(ana, "mordor", "s2", started.Commitment)
	asAna("session-contribute", body(command.ContributeSigned{Character: "lodin",
		SignedMessage: seal(&signed.Contribute{Header: hdr, Value: signed.Hex32{0xaa, 1}, Commitment: hex32Of(t, started.Commitment),
			WitnessAnchor: signed.Hex32(dice.WitnessAnchor(w))})}))
	// The GM's roll call, answered by ana's first v2 request (its signed
	// action names the call).
	m("call", `{"characters":["lodin"],"skill":"sigilo","vs":"media","note":"la puerta"}`)
	for i, id := range []string{"0b6f1c7e-9d2a-4c1e-8f3b-5a7d9e2c4b61", "1c7f2d8e-0e3b-4d2f-9a4c-6b8e0f3d5c72"} {
		rv := [32]byte{byte(i + 1)}
		c, err := dice.ParseHex32(dice.RevealCommitment(rv))
		require.NoError(t, err)
		a := command.RollAction{Command: "roll", SeedCommitment: started.Commitment, Character: "lodin", Skill: "Sigilo", Vs: "media"}
		if i == 0 {
			a.Call = "call-1"
		}
		action := body(a)
		asAna("roll-request", body(command.RollRequestSigned{Character: "lodin",
			SignedMessage: seal(&signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(action)})}))
		if i == 0 {
			made := asAna("roll-reveal", body(command.RollRevealSigned{Character: "lodin",
				SignedMessage: seal(&signed.Reveal{Header: hdr, Request: id, R: rv})}))
			// The GM proposes to void it; ana's device consents.
			roll := made.Events[0].Event.ID
			m("void-propose", body(map[string]string{"event_id": roll, "reason": "la tirada equivocada"}))
			asAna("void-consent", body(command.VoidConsent{Character: "lodin", Proposal: "void-1",
				SignedMessage: seal(&signed.VoidConsent{Header: hdr, Event: roll, Reason: "la tirada equivocada"})}))
			m("call-close", `{"call":"call-1","reason":"la puerta se abre"}`)
		} else {
			m("roll-cancel", body(map[string]string{"request": id, "reason": "ana left"}))
			// ana's device proves the roll the cancellation suppressed.
			asAna("roll-prove", body(command.RollRevealSigned{Character: "lodin",
				SignedMessage: seal(&signed.Reveal{Header: hdr, Request: id, R: rv})}))
		}
	}
	// GM rolls: one witnessed by ana's device, one resolved unwitnessed
	// after its wait (a second; the recorder's clock ticks a second a call).
	sealGM := func(m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(gm, s)}
	}
	orco := body(command.RollAction{Command: "roll", SeedCommitment: started.Commitment, Character: "orco", Skill: "Pelea"})
	for i, id := range []string{"2d803e9f-1f4c-4e30-8b5d-7c9f1a4e6d83", "3e914fa0-205d-4f41-9c6e-8da02b5f7e94"} {
		m("roll-request", body(command.RollRequestSigned{Character: "orco", Wait: 1,
			SignedMessage: sealGM(&signed.Request{Header: hdr, Request: id, Action: []byte(orco)})}))
		if i == 0 {
			v, err := dice.WitnessValue(w, 1) // the session's first GM request
			require.NoError(t, err)
			asAna("roll-witness", body(command.RollWitnessSigned{Character: "lodin",
				SignedMessage: seal(&signed.Witness{Header: hdr, Request: id, Index: 1, Value: signed.Hex32(v)})}))
		} else {
			m("roll-resolve", body(map[string]any{"request": id, "unwitnessed": true}))
		}
	}
	// A GM roll pinned to a beacon round an hour ahead, which ana's device
	// receipts (left pending: the round is not out).
	beaconed := "4fa25ab1-316e-4052-8d7f-9eb13c608fa5"
	round := beacon.Quicknet().NextRound(time.Date(2026, 11, 30, 21, 0, 0, 0, time.UTC))
	m("roll-request", body(command.RollRequestSigned{Character: "orco", Wait: 1,
		SignedMessage: sealGM(&signed.Request{Header: hdr, Request: beaconed, BeaconRound: round, Action: []byte(orco)})}))
	asAna("roll-receipt", body(command.RollReceiptSigned{Character: "lodin", SignedMessage: seal(&signed.Receipt{Header: hdr, Request: beaconed})}))
	ended := m("session-end", ``)
	// ana's device co-signs the end: the hash of its stored bytes.
	h, err := events.EventHash(ended.Events[0].Event)
	require.NoError(t, err)
	var hash signed.Hex32
	require.NoError(t, hash.UnmarshalText([]byte(h)))
	asAna("session-cosign", body(command.CosignSigned{Character: "lodin",
		SignedMessage: seal(&signed.Cosign{Header: hdr, Ended: hash})}))
}

// hex32Of reads a seed commitment (64 lower-case hex) for a signed message.
func hex32Of(t testing.TB, s string) signed.Hex32 {
	t.Helper()
	var h signed.Hex32
	require.NoError(t, h.UnmarshalText([]byte(s)))
	return h
}
