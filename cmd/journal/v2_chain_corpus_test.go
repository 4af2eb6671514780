package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
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
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// recordChainSession plays, on the command layer of c's data folder with a
// clock before quicknet round tamperRound, a session of witness chains
// (docs/design.md §3.3): ana, bea and a "player" the GM registered (sock)
// contribute with their devices' chains; a GM roll every device
// witnesses; one ana and sock witness, resolved after the wait without
// bea (partial-witness); a beacon request bea's device receipted before
// its round and one nobody did (beacon-unseen), both resolved by their
// rounds; the end co-signed by ana. It returns the export's lines.
func recordChainSession(t *testing.T, c *cli) []string {
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
	keys := map[string]ed25519.PrivateKey{}
	for i, u := range []string{"gm", "ana", "bea", "sock"} {
		var seed [32]byte
		seed[0] = byte(0x40 + i)
		keys[u] = ed25519.NewKeyFromSeed(seed[:])
		role, as := command.RolePlayer, j.MustFor(command.Call{Actor: u})
		if u == "gm" {
			role = command.RoleGM
		}
		if u == "gm" || u == "sock" {
			as = j // the GM registers its own key and its sock puppet's
		}
		reg := command.RegisterKey{SignedMessage: device.MustRegister(keys[u], "mordor", u, role, "")} // its own device, with proof
		if u == "sock" {
			reg = command.RegisterKey{User: u, Role: role, PublicKey: signed.PublicKeyOf(keys[u]).String()} // the GM's bare key
		}
		do(as.RegisterKey(ctx, "mordor", reg))
	}
	res := do(j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2}))
	var started events.SessionStarted
	require.NoError(t, res.Events[0].Event.DecodeData(&started))
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(user string, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(keys[user], s)}
	}
	chain := func(user string) [32]byte {
		return dice.DeviceWitnessSecret(keys[user], "mordor", "s2", started.Commitment)
	}
	for i, u := range []string{"ana", "bea", "sock"} {
		v := signed.Hex32{0xa0 + byte(i), 1}
		do(j.MustFor(command.Call{Actor: u}).Contribute(ctx, "mordor", command.ContributeSigned{SignedMessage: seal(u, &signed.Contribute{Header: hdr, Value: v,
			Commitment: hex32Of(t, started.Commitment), WitnessAnchor: signed.Hex32(dice.WitnessAnchor(chain(u)))})}))
	}
	index := 0
	gmRequest := func(round uint64, action command.RollAction) (string, int) {
		action.Command, action.SeedCommitment = "roll", started.Commitment
		b, err := json.Marshal(action)
		require.NoError(t, err)
		id := uuid.NewString()
		do(j.RequestRoll(ctx, "mordor", command.RollRequestSigned{Character: action.Character, Wait: 60,
			SignedMessage: seal("gm", &signed.Request{Header: hdr, Request: id, BeaconRound: round, Action: b})}))
		index++
		return id, index
	}
	witness := func(user, id string, j2 int) {
		v, err := dice.WitnessValue(chain(user), j2)
		require.NoError(t, err)
		do(j.MustFor(command.Call{Actor: user}).Witness(ctx, "mordor", command.RollWitnessSigned{SignedMessage: seal(user, &signed.Witness{Header: hdr, Request: id, Index: j2, Value: signed.Hex32(v)})}))
	}
	full, n := gmRequest(0, command.RollAction{Character: "orco", Skill: "Pelea", Vs: "media"})
	for _, u := range []string{"bea", "sock", "ana"} {
		witness(u, full, n)
	}
	partial, n := gmRequest(0, command.RollAction{Character: "orco", Attribute: "F"})
	witness("sock", partial, n)
	witness("ana", partial, n)
	later(61 * time.Second)
	do(j.ResolveUnwitnessed(ctx, "mordor", partial))
	seen, _ := gmRequest(tamperRound, command.RollAction{Character: "orco", Skill: "Pelea"})
	do(j.MustFor(command.Call{Actor: "bea"}).Receipt(ctx, "mordor", command.RollReceiptSigned{SignedMessage: seal("bea", &signed.Receipt{Header: hdr, Request: seen})}))
	unseen, _ := gmRequest(tamperRound2, command.RollAction{Character: "orco", Attribute: "R"})
	later(11 * time.Minute) // both rounds are out
	do(j.ResolveBeacon(ctx, "mordor", seen, tamperSig))
	do(j.ResolveBeacon(ctx, "mordor", unseen, tamperSigRound))
	do(j.EndSession(ctx, "mordor"))
	srv.Shutdown()
	return strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "export")), "\n")
}

// TestV2ChainSessionReplays: the session of witness chains verifies with
// exactly its flags (the partial roll naming bea, the beacon roll nobody
// receipted), and a witness value, index or list changed in the file is a
// mismatch naming the event.
func TestV2ChainSessionReplays(t *testing.T) {
	c := newCLI(t)
	lines := recordChainSession(t, c)
	out := c.flagged("--lang", "en", "replay", "--file", writeExport(t, lines))
	require.Contains(t, out, "OK with", out)
	require.Contains(t, out, "resolved without the witness of bea: 2 of 3 devices' values")
	require.Equal(t, 1, strings.Count(out, "which no player's device receipted before the round"), out)
	require.NotContains(t, out, "MISMATCH")
	for _, tc := range []struct{ what, old, new, typ string }{
		{"a witness's index", `"index":1`, `"index":2`, events.TypeRollWitnessed},
		{"a roll's witness index", `"witness_index":2`, `"witness_index":1`, events.TypeRollMade},
		{"a request's witness index", `"witness_index":1`, `"witness_index":3`, events.TypeRollRequested},
	} {
		t.Run(tc.what, func(t *testing.T) {
			changed := false
			edited := make([]string, len(lines))
			for i, l := range lines {
				edited[i] = l
				if !changed && strings.Contains(l, `"type":"`+tc.typ+`"`) && strings.Contains(l, tc.old) {
					edited[i], changed = strings.Replace(l, tc.old, tc.new, 1), true
				}
			}
			require.True(t, changed)
			// The host re-forges the chain after its change.
			out, _, code := c.run("--lang", "en", "replay", "--file", writeExport(t, rechain(t, edited)))
			require.Equal(t, exitMismatch, code, "%s", out)
			require.Contains(t, out, "MISMATCH")
		})
	}
}
