package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/signed"
)

// Real quicknet rounds as drand published them (beacon/beacon_test.go
// names the source): round 30662982 and round 30662990's signature.
const (
	tamperRound    = 30662982
	tamperSig      = "8b3edd0d42a2fa36ac15641a2dea2e4f4895acec2ef72ef39e5b6138f0346fb6b046dde1b4b3d09ff5fe8a6a7acd674a"
	tamperRound2   = 30662990
	tamperSigRound = "8b2ebe176d153849d5db7f358a3a21be96f8c5d1c26ed2b530fff4419face8909d77f4ee6a211623e2432c30841411b5"
)

// gmTamper is a v2 session of GM rolls recorded by a real journal on the
// CLI's data folder, with a clock set before quicknet round tamperRound:
// a roll witnessed by bea (W), one resolved by the beacon round (B), one
// resolved unwitnessed after its wait (U); with the devices' keys and a
// second, valid witness of ana's for W that the journal refused.
type gmTamper struct {
	lines   []string
	w       string // request W's id
	keys    map[string]ed25519.PrivateKey
	second  command.SignedMessage // ana's witness for W
	session string
}

func recordGMTamper(t *testing.T, c *cli) gmTamper {
	ctx := context.Background()
	var mu sync.Mutex
	now := beacon.Quicknet().TimeOf(tamperRound).Add(-10 * time.Minute)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	later := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	srv, err := embedded.Start(ctx, embedded.Options{Dir: c.dir, Sync: true})
	require.NoError(t, err)
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	j := command.New(st, command.Options{Clock: clock, Rand: rand.Reader, IDs: events.NewV7(clock, rand.Reader)})
	do := func(res command.Result, err error) command.Result { t.Helper(); require.NoError(t, err); return res }
	do(j.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"}))
	do(j.CreateCharacter(ctx, "mordor", command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "ana",
		Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Sigilo"}))
	do(j.CreateCharacter(ctx, "mordor", command.CreateCharacter{ID: "orco", Name: "Orco", NPC: true,
		Attributes: "F=7,R=4,D=5,I=3,P=4", Skills: "Pelea=4"}))
	g := gmTamper{keys: map[string]ed25519.PrivateKey{}, session: "s2"}
	for i, u := range []string{"gm", "lucia", "ana", "bea"} {
		var seed [32]byte
		seed[0] = byte(i + 1)
		g.keys[u] = ed25519.NewKeyFromSeed(seed[:])
		role := command.RolePlayer
		if u == "gm" || u == "lucia" {
			role = command.RoleGM
		}
		reg := command.RegisterKey{User: u, Role: role, PublicKey: signed.PublicKeyOf(g.keys[u]).String()}
		if u == "gm" { // the GM's own, with its proof; the others' bare, by the GM
			reg = command.RegisterKey{SignedMessage: device.MustRegister(g.keys[u], "mordor", u, role, "")}
		}
		do(j.RegisterKey(ctx, "mordor", reg))
	}
	res := do(j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: g.session, Dice: command.DiceV2}))
	var started events.SessionStarted
	require.NoError(t, res.Events[0].Event.DecodeData(&started))
	hdr := signed.Header{Campaign: "mordor", Session: g.session}
	seal := func(user string, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(g.keys[user], s)}
	}
	do(j.MustFor(command.Call{Actor: "ana"}).Contribute(ctx, "mordor", command.ContributeSigned{SignedMessage: seal("ana", &signed.Contribute{Header: hdr, Value: signed.Hex32{0xaa}, Commitment: hex32Of(t, started.Commitment)})}))
	gmRequest := func(round uint64, action command.RollAction) string {
		action.Command, action.SeedCommitment = "roll", started.Commitment
		b, err := json.Marshal(action)
		require.NoError(t, err)
		id := uuid.NewString()
		do(j.RequestRoll(ctx, "mordor", command.RollRequestSigned{Character: action.Character, Wait: 60,
			SignedMessage: seal("gm", &signed.Request{Header: hdr, Request: id, BeaconRound: round, Action: b})}))
		return id
	}
	g.w = gmRequest(0, command.RollAction{Character: "orco", Skill: "Pelea", Vs: "media"})
	do(j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", command.RollWitnessSigned{SignedMessage: seal("bea", &signed.Witness{Header: hdr, Request: g.w, Value: signed.Hex32{0xbe, 1}})}))
	g.second = seal("ana", &signed.Witness{Header: hdr, Request: g.w, Value: signed.Hex32{0xa2, 2}})
	_, err = j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, "mordor", command.RollWitnessSigned{SignedMessage: g.second})
	require.ErrorContains(t, err, "the first witness wins")
	b := gmRequest(tamperRound, command.RollAction{Character: "orco", Skill: "Pelea"})
	later(11 * time.Minute) // the round is out
	do(j.ResolveBeacon(ctx, "mordor", b, tamperSig))
	u := gmRequest(0, command.RollAction{Character: "orco", Attribute: "F"})
	later(61 * time.Second)
	do(j.ResolveUnwitnessed(ctx, "mordor", u))
	do(j.EndSession(ctx, "mordor"))
	srv.Shutdown()
	g.lines = strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "export")), "\n")
	return g
}

// TestV2GMRollTampering: every change to an exported session's GM rolls
// (witnessed, beacon, unwitnessed) is caught by the default replay --file,
// with a message naming the event.
func TestV2GMRollTampering(t *testing.T) {
	c := newCLI(t)
	g := recordGMTamper(t, c)
	lines := g.lines
	out := c.flagged("--lang", "en", "replay", "--file", writeExport(t, lines))
	require.Contains(t, out, "OK with", out)
	require.Contains(t, out, "resolved unwitnessed")
	require.Contains(t, out, "witnessed by bea, whose key gm registered: whoever holds that key chose r", "the GM registered bea's key: it may hold it")
	x := c.ok("--lang", "en", "explain", idAt(t, lines, indexOf(t, lines, events.TypeRollMade, 2)), "--file", writeExport(t, lines))
	require.Contains(t, x, "drand quicknet round 30662982")
	require.Contains(t, x, "verifies under quicknet's public key")

	sig2, _ := hex.DecodeString(tamperSigRound)
	r2 := sha256.Sum256(sig2)
	resealAs := func(user string, d map[string]any, e *events.Event, m signed.Message) {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		d["signed"], d["signature"], d["user"], d["witness"] = s, signed.Sign(g.keys[user], s), user, user
		e.Actor = user
	}
	hdr := signed.Header{Campaign: "mordor", Session: g.session}
	roll := func(nth int, change func(e *events.Event, d map[string]any)) func() ([]string, string) {
		return func() ([]string, string) { return edit(t, lines, events.TypeRollMade, nth, change) }
	}
	request := func(nth int, change func(e *events.Event, d map[string]any)) func() ([]string, string) {
		return func() ([]string, string) { return edit(t, lines, events.TypeRollRequested, nth, change) }
	}
	tests := []tamperCase{
		{"a forged witness signature", roll(1, func(_ *events.Event, d map[string]any) {
			s := []byte(d["signature"].(string))
			s[5] ^= 1
			d["signature"] = string(s)
		}), "does not hold"},
		{"a witness by another GM", roll(1, func(e *events.Event, d map[string]any) {
			resealAs("lucia", d, e, &signed.Witness{Header: hdr, Request: g.w, Value: signed.Hex32{0xbe, 1}})
		}), "a GM: a GM's roll is witnessed by a player's device"},
		{"a witness by the requester", roll(1, func(e *events.Event, d map[string]any) {
			resealAs("gm", d, e, &signed.Witness{Header: hdr, Request: g.w, Value: signed.Hex32{0xbe, 1}})
		}), "the request's own requester"},
		{"the witness's value changed", roll(1, func(_ *events.Event, d map[string]any) { d["reveal"] = strings.Repeat("cd", 32) }),
			"not the signed witness's"},
		{"a witness named that did not sign", roll(1, func(_ *events.Event, d map[string]any) { d["witness"] = "ana" }),
			`witness "ana", but the device's message is "bea"'s`},
		{"a witnessed roll relabelled as a reveal", roll(1, func(_ *events.Event, d map[string]any) { d["witness"] = "" }),
			"a reveal of a GM's request"},
		{"a witnessed roll relabelled as the beacon's", roll(1, func(_ *events.Event, d map[string]any) { d["witness"] = "beacon" }),
			"names no beacon round"},
		{"a witness for an unknown request", roll(1, func(_ *events.Event, d map[string]any) { d["request"] = uuid.NewString() }),
			"not recorded before it"},
		{"a second witness swapped in after the first", func() ([]string, string) {
			i := indexOf(t, lines, events.TypeRollMade, 1)
			e, err := events.Decode([]byte(lines[i]))
			require.NoError(t, err)
			var d map[string]any
			require.NoError(t, json.Unmarshal(e.Data, &d))
			m, err := signed.Parse(g.second.Signed)
			require.NoError(t, err)
			d["signed"], d["signature"], d["user"], d["witness"] = g.second.Signed, g.second.Signature, "ana", "ana"
			d["reveal"] = m.(*signed.Witness).Value.String()
			e.Actor, e.ID = "ana", uuid.NewString()
			e.Data, err = json.Marshal(d)
			require.NoError(t, err)
			b, err := events.Encode(e)
			require.NoError(t, err)
			out := append(append(append([]string(nil), lines[:i+1]...), string(b)), lines[i+1:]...)
			return rechain(t, out), e.ID
		}, "already made (the first reveal or witness wins)"},
		{"the beacon signature changed", roll(2, func(_ *events.Event, d map[string]any) { d["beacon_signature"] = tamperSigRound }),
			"bad beacon signature"},
		{"another round, its real signature and r", roll(2, func(_ *events.Event, d map[string]any) {
			d["beacon_round"], d["beacon_signature"], d["reveal"] = float64(tamperRound2), tamperSigRound, hex.EncodeToString(r2[:])
		}), "beacon round 30662990, the request named round 30662982"},
		{"the beacon roll's r changed", roll(2, func(_ *events.Event, d map[string]any) { d["reveal"] = hex.EncodeToString(r2[:]) }),
			"is not SHA-256 of beacon round 30662982's signature"},
		{"the beacon roll relabelled unwitnessed", roll(2, func(_ *events.Event, d map[string]any) { d["witness"] = "none" }),
			"an unwitnessed roll that records a device's message or a beacon signature"},
		{"the request's beacon round changed", request(2, func(_ *events.Event, d map[string]any) { d["beacon_round"] = float64(tamperRound2) }),
			"beacon round: recorded 30662990, signed 30662982"},
		{"a beacon request recorded after its round was out", request(2, func(e *events.Event, _ map[string]any) {
			e.Time = beacon.Quicknet().TimeOf(tamperRound).Add(time.Minute)
		}), "its randomness was known"},
		{"an unwitnessed roll relabelled as witnessed", roll(3, func(e *events.Event, d map[string]any) { d["witness"], d["user"], e.Actor = "bea", "bea", "bea" }),
			"does not hold"},
		{"an unwitnessed roll before the wait", roll(3, func(e *events.Event, _ map[string]any) { e.Time = e.Time.Add(-30 * time.Second) }),
			"before the wait the GM chose ended"},
		{"an unwitnessed resolution recorded as a player's", roll(3, func(e *events.Event, _ map[string]any) { e.Actor = "ana" }),
			`resolved unwitnessed by "ana", who is not a GM`},
		{"the GM's request given a commitment", request(1, func(_ *events.Event, d map[string]any) { d["commitment"] = strings.Repeat("ab", 32) }),
			"commitment: recorded"},
		{"the GM's wait removed", request(3, func(_ *events.Event, d map[string]any) { delete(d, "wait") }),
			"without a wait for a witness"},
		{"the GM's request recorded as a player's", request(1, func(e *events.Event, d map[string]any) {
			d["user"], e.Actor = "ana", "ana"
		}), "signature"},
	}
	require.GreaterOrEqual(t, len(tests), 20)
	requireTamperMismatches(t, c, tests)
}

// hex32Of reads a seed commitment (64 lower-case hex) for a signed message.
func hex32Of(t testing.TB, s string) signed.Hex32 {
	t.Helper()
	var h signed.Hex32
	require.NoError(t, h.UnmarshalText([]byte(s)))
	return h
}
