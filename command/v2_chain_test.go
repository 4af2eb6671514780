package command_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// chainSecret is d's w for session of mordor (dice.DeviceWitnessSecret,
// as package device derives it).
func (d device) chainSecret(t testing.TB, j *command.Handler, session string) [32]byte {
	t.Helper()
	return dice.DeviceWitnessSecret(d.priv, "mordor", session, seedCommitment(t, j, "mordor", session).String())
}

// chainContribute is contribute with d's witness chain's anchor.
func (d device) chainContribute(t testing.TB, j *command.Handler, session string, v byte) command.ContributeSigned {
	t.Helper()
	return d.contributeAnchored(t, j, session, v, dice.WitnessAnchor(d.chainSecret(t, j, session)))
}

// contributeAnchored is contribute committing to the chain anchored at anchor.
func (d device) contributeAnchored(t testing.TB, j *command.Handler, session string, v byte, anchor [32]byte) command.ContributeSigned {
	t.Helper()
	c := d.contribute(t, j, session, v)
	m, err := signed.Parse(c.Signed)
	require.NoError(t, err)
	cm := m.(*signed.Contribute)
	cm.WitnessAnchor = anchor
	c.SignedMessage = d.seal(t, cm)
	return c
}

// chainWitness seals d's witness w_index for request id.
func (d device) chainWitness(t testing.TB, j *command.Handler, session, id string, index int) command.RollWitnessSigned {
	t.Helper()
	v, err := dice.WitnessValue(d.chainSecret(t, j, session), index)
	require.NoError(t, err)
	return d.indexedWitness(t, session, id, index, v)
}

// indexedWitness seals a witness of any value with index.
func (d device) indexedWitness(t testing.TB, session, id string, index int, v [32]byte) command.RollWitnessSigned {
	return command.RollWitnessSigned{SignedMessage: d.seal(t, &signed.Witness{Header: signed.Header{Campaign: "mordor", Session: session},
		Request: id, Index: index, Value: v})}
}

// setupChain is setupGMRolls with a session s2 of witness chains: the
// players in contributors (of ana, bea and sock, a "player" the GM
// registered itself, whose chain the host chose) contribute with their
// device's witness chain, in that order.
func setupChain(t *testing.T, relay command.BeaconRounds, contributors ...string) (*command.Handler, command.Store, *clock, map[string]device, [32]byte) {
	t.Helper()
	ctx := context.Background()
	clk := &clock{t: beacon.Quicknet().TimeOf(qnRound).Add(-time.Minute)}
	srv, err := embedded.Start(ctx, embedded.Options{Dir: t.TempDir(), Sync: true})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	j := command.New(st, command.Options{Clock: clk.now, Rand: rand.Reader, IDs: events.NewV7(clk.now, rand.Reader), Beacon: relay})
	setup(t, j)
	_, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	devs := map[string]device{"ana": newDevice("ana", 1), "gm": newDevice("gm", 2), "bea": newDevice("bea", 3), "sock": newDevice("sock", 4)}
	_, err = j.RegisterKey(ctx, "mordor", devs["gm"].reg("mordor", command.RoleGM))
	require.NoError(t, err)
	for _, u := range []string{"ana", "bea"} {
		_, err = j.MustFor(command.Call{Actor: u}).RegisterKey(ctx, "mordor", devs[u].reg("mordor", command.RolePlayer))
		require.NoError(t, err)
	}
	// The host's sock puppet: a "player" key the GM registered.
	_, err = j.RegisterKey(ctx, "mordor", command.RegisterKey{User: "sock", Role: command.RolePlayer, PublicKey: devs["sock"].pub()})
	require.NoError(t, err)
	res, err := j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2})
	require.NoError(t, err)
	commitmentOf = map[string]string{"s2": payload[*events.SessionStarted](t, res.Events[0]).Commitment}
	// The sock puppet's w: the host chose it, and grinds with it below.
	sockW := secret(0x50)
	for i, u := range contributors {
		c := devs[u].chainContribute(t, j, "s2", byte(0xa0+i))
		if u == "sock" {
			c = devs[u].contributeAnchored(t, j, "s2", byte(0xa0+i), dice.WitnessAnchor(sockW))
		}
		_, err = j.MustFor(command.Call{Actor: u}).Contribute(ctx, "mordor", c)
		require.NoError(t, err)
	}
	return j, st, clk, devs, sockW
}

// verifyChain replays mordor in st with the default checks.
func verifyChain(t *testing.T, st command.Store) replay.Report {
	t.Helper()
	rep, err := replay.Verify(context.Background(), replay.StoreSource(st.Read, events.Query{}), replay.Options{Campaign: "mordor"})
	require.NoError(t, err)
	return rep
}

// flagged returns the codes of rep's flags.
func flagged(rep replay.Report) map[replay.FlagCode]int {
	out := map[replay.FlagCode]int{}
	for _, s := range rep.Sessions {
		for _, f := range s.Flags {
			out[f.Code]++
		}
	}
	return out
}

// TestV2ChainWitnesses: in a session of witness chains the j-th GM
// request records witness_index j; each contributing device's w_j is
// recorded as it comes, and the roll is made when the last is in, with r
// the combination of every value in contribution order; replay verifies
// it unflagged.
func TestV2ChainWitnesses(t *testing.T) {
	ctx := context.Background()
	j, st, _, dev, _ := setupChain(t, nil, "ana", "bea")
	for n := 1; n <= 2; n++ {
		id := uuid.NewString()
		res, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id, 0, 90, orcoPelea))
		require.NoError(t, err)
		require.Equal(t, n, payload[*events.RollRequested](t, res.Events[0]).WitnessIndex)

		// bea's first: only her witness is recorded.
		res, err = j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].chainWitness(t, j, "s2", id, n))
		require.NoError(t, err)
		require.Len(t, res.Events, 1, "no roll before every device's witness is in")
		w := payload[*events.RollWitnessed](t, res.Events[0])
		require.Equal(t, n, w.Index)

		res, err = j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, "mordor", dev["ana"].chainWitness(t, j, "s2", id, n))
		require.NoError(t, err)
		require.Len(t, res.Events, 2)
		roll := payload[*events.RollMade](t, res.Events[1])
		av, _ := dice.WitnessValue(dev["ana"].chainSecret(t, j, "s2"), n)
		bv, _ := dice.WitnessValue(dev["bea"].chainSecret(t, j, "s2"), n)
		r := dice.CombineWitnesses([][32]byte{av, bv}) // contribution order: ana, bea
		require.Equal(t, command.WitnessChain, roll.Witness)
		require.Equal(t, n, roll.WitnessIndex)
		require.Equal(t, []events.GMWitness{{User: "ana", Value: hex.EncodeToString(av[:])}, {User: "bea", Value: hex.EncodeToString(bv[:])}}, roll.Witnesses)
		require.Equal(t, hex.EncodeToString(r[:]), roll.Reveal)
	}
	_, err := j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	rep := verifyChain(t, st)
	require.True(t, rep.OK(), "%+v", rep.Sessions)
	require.Zero(t, flagged(rep)[replay.FlagPartialWitness])
}

// TestV2ChainRefusals: a wrong index, a value of another chain or index, a
// second witness, a device that contributed no chain, an old-style
// witness, and a receipt of a request without a beacon round each get one
// error and record nothing.
func TestV2ChainRefusals(t *testing.T) {
	ctx := context.Background()
	j, st, _, dev, _ := setupChain(t, nil, "ana", "bea")
	id := uuid.NewString()
	_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id, 0, 90, orcoPelea))
	require.NoError(t, err)
	_, err = j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, "mordor", dev["ana"].chainWitness(t, j, "s2", id, 1))
	require.NoError(t, err)
	aw := dev["ana"].chainSecret(t, j, "s2")
	w2, _ := dice.WitnessValue(dev["bea"].chainSecret(t, j, "s2"), 2)
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"a wrong index", func() error {
			_, err := j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].chainWitness(t, j, "s2", id, 2))
			return err
		}, "has index 2: the request's is 1"},
		{"the next value under this index", func() error {
			_, err := j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].indexedWitness(t, "s2", id, 1, w2))
			return err
		}, "does not hash 1 times"},
		{"another device's chain", func() error {
			v, _ := dice.WitnessValue(aw, 1)
			_, err := j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].indexedWitness(t, "s2", id, 1, v))
			return err
		}, "not this device's chain"},
		{"a value ground offline", func() error {
			_, err := j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].indexedWitness(t, "s2", id, 1, secret(0x99)))
			return err
		}, "does not hash 1 times"},
		{"a second witness", func() error {
			_, err := j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, "mordor", dev["ana"].chainWitness(t, j, "s2", id, 1))
			return err
		}, "already witnessed"},
		{"a device that contributed no chain", func() error {
			_, err := j.MustFor(command.Call{Actor: "sock"}).Witness(ctx, "mordor", dev["sock"].indexedWitness(t, "s2", id, 1, secret(0x51)))
			return err
		}, "contributed no witness chain"},
		{"an old-style witness", func() error {
			_, err := j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].witness(t, "s2", id, secret(0x52)))
			return err
		}, "has index 0"},
		{"a receipt of a request without beacon round", func() error {
			_, err := j.MustFor(command.Call{Actor: "bea"}).Receipt(ctx, "mordor", command.RollReceiptSigned{SignedMessage: dev["bea"].seal(t,
				&signed.Receipt{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: id})})
			return err
		}, "names no beacon round"},
		{"a second chain of the same device", func() error {
			_, err := j.MustFor(command.Call{Actor: "ana"}).Contribute(ctx, "mordor", dev["ana"].chainContribute(t, j, "s2", 0xee))
			return err
		}, "already has a roll request"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := count(t, st)
			err := tc.run()
			require.ErrorContains(t, err, tc.want)
			require.ErrorIs(t, err, command.ErrInvalid)
			require.Equal(t, before, count(t, st), "nothing recorded")
		})
	}
}

// TestV2ChainSockPuppetCannotSteer is the GM-host attack with a sock
// puppet: a "player" the GM registered, whose chain the host chose, in a
// session where one honest player (ana) contributed. The host knows its
// puppet's every value, but a value it grinds offline is refused (only the
// precommitted chain counts), and the puppet's witness alone makes no
// roll: the roll requires ana's value, which the host does not know
// before her device sends it. Trying many puppet anchors could change r
// only because r combines them, and the puppet's anchor was fixed before
// any request. A roll made without ana's value (the GM resolving after
// its wait) is flagged partial-witness naming her. (On the first-witness
// rule the puppet's witness was r.)
func TestV2ChainSockPuppetCannotSteer(t *testing.T) {
	ctx := context.Background()
	j, st, clk, dev, sockW := setupChain(t, nil, "sock", "ana")
	id := uuid.NewString()
	_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id, 0, 60, orcoPelea))
	require.NoError(t, err)

	// The host grinds puppet values offline: none but the chain's is taken.
	for g := range 16 {
		_, err = j.MustFor(command.Call{Actor: "sock"}).Witness(ctx, "mordor", dev["sock"].indexedWitness(t, "s2", id, 1, secret(byte(0x60+g))))
		require.ErrorContains(t, err, "does not hash")
	}
	sv, err := dice.WitnessValue(sockW, 1)
	require.NoError(t, err)
	res, err := j.MustFor(command.Call{Actor: "sock"}).Witness(ctx, "mordor", dev["sock"].indexedWitness(t, "s2", id, 1, sv))
	require.NoError(t, err)
	for _, r := range res.Events {
		require.NotEqual(t, events.TypeRollMade, r.Event.Type, "the puppet's witness alone made the roll")
	}
	// ana's device witnesses: the roll needs her value.
	res, err = j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, "mordor", dev["ana"].chainWitness(t, j, "s2", id, 1))
	require.NoError(t, err)
	roll := payload[*events.RollMade](t, res.Events[len(res.Events)-1])
	av, _ := dice.WitnessValue(dev["ana"].chainSecret(t, j, "s2"), 1)
	require.Equal(t, []events.GMWitness{{User: "sock", Value: hex.EncodeToString(sv[:])}, {User: "ana", Value: hex.EncodeToString(av[:])}}, roll.Witnesses)

	// Request 2: ana stays silent; the host's puppet witnesses, and the GM
	// resolves after the wait with the puppet's value alone: flagged.
	id2 := uuid.NewString()
	_, err = j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id2, 0, 60, orcoPelea))
	require.NoError(t, err)
	sv2, _ := dice.WitnessValue(sockW, 2)
	_, err = j.MustFor(command.Call{Actor: "sock"}).Witness(ctx, "mordor", dev["sock"].indexedWitness(t, "s2", id2, 2, sv2))
	require.NoError(t, err)
	_, err = j.ResolveUnwitnessed(ctx, "mordor", id2)
	require.ErrorContains(t, err, "more", "not before the wait")
	clk.add(61 * time.Second)
	res, err = j.ResolveUnwitnessed(ctx, "mordor", id2)
	require.NoError(t, err)
	partial := payload[*events.RollMade](t, res.Events[0])
	require.Equal(t, []events.GMWitness{{User: "sock", Value: hex.EncodeToString(sv2[:])}}, partial.Witnesses)
	_, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	rep := verifyChain(t, st)
	require.True(t, rep.OK(), "%+v", rep.Sessions)
	var what []string
	for _, s := range rep.Sessions {
		for _, f := range s.Flags {
			if f.Code == replay.FlagPartialWitness {
				what = append(what, f.What)
			}
		}
	}
	require.Len(t, what, 1, "the partial roll is flagged, the full one not")
	require.Contains(t, what[0], "without the witness of ana")
	// Made from the puppet's value alone: whoever holds its key chose r.
	require.Equal(t, 1, flagged(rep)[replay.FlagWitnessKeyByOther], "only the roll without ana's value")
}

// TestV2ChainBestOfNImpossible: with several devices witnessing, the host
// cannot pick the best of their values: the first witness makes no roll,
// and r combines them all (on the first-witness rule the host saw every
// witness and recorded the best as r).
func TestV2ChainBestOfNImpossible(t *testing.T) {
	ctx := context.Background()
	j, _, _, dev, _ := setupChain(t, nil, "ana", "bea")
	id := uuid.NewString()
	_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id, 0, 60, orcoPelea))
	require.NoError(t, err)
	res, err := j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, "mordor", dev["ana"].chainWitness(t, j, "s2", id, 1))
	require.NoError(t, err)
	for _, r := range res.Events {
		require.NotEqual(t, events.TypeRollMade, r.Event.Type, "the first witness made the roll")
	}
	res, err = j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].chainWitness(t, j, "s2", id, 1))
	require.NoError(t, err)
	roll := payload[*events.RollMade](t, res.Events[len(res.Events)-1])
	av, _ := dice.WitnessValue(dev["ana"].chainSecret(t, j, "s2"), 1)
	bv, _ := dice.WitnessValue(dev["bea"].chainSecret(t, j, "s2"), 1)
	for _, one := range [][32]byte{av, bv} {
		require.NotEqual(t, hex.EncodeToString(one[:]), roll.Reveal, "r is one device's value")
	}
	r := dice.CombineWitnesses([][32]byte{av, bv})
	require.Equal(t, hex.EncodeToString(r[:]), roll.Reveal)
}

// TestV2BeaconRoundAtLeastAMinuteAhead: a GM's beacon request naming a
// round under 60 s after the request is refused (the request's time is a
// minute before qnRound here: qnRound itself is just far enough).
func TestV2BeaconRoundAtLeastAMinuteAhead(t *testing.T) {
	ctx := context.Background()
	j, st, clk, dev, _ := setupChain(t, nil, "ana")
	clk.add(30 * time.Second)
	before := count(t, st)
	_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", uuid.NewString(), qnRound, 60, orcoPelea))
	require.ErrorContains(t, err, "less than 1m0s after the request")
	require.ErrorIs(t, err, command.ErrInvalid)
	require.Equal(t, before, count(t, st))
	_, err = j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", uuid.NewString(), qnRound+20, 60, orcoPelea))
	require.NoError(t, err)
}

// TestV2BeaconReceipts: a player's device receipts a beacon request before
// its round, once; the GM and a receipt after the round are refused; a
// beacon roll nobody receipted is flagged beacon-unseen, one receipted is
// not.
func TestV2BeaconReceipts(t *testing.T) {
	ctx := context.Background()
	j, st, clk, dev, _ := setupChain(t, relayOf(t, map[uint64]string{qnRound: qnSignature, qnRound + 8: qnOther}), "ana")
	receipt := func(d device, id string) command.RollReceiptSigned {
		return command.RollReceiptSigned{SignedMessage: d.seal(t, &signed.Receipt{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: id})}
	}
	seen, unseen := uuid.NewString(), uuid.NewString()
	_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", seen, qnRound, 1, orcoPelea))
	require.NoError(t, err)
	_, err = j.MustFor(command.Call{Actor: "bea"}).Receipt(ctx, "mordor", receipt(dev["bea"], seen))
	require.NoError(t, err)
	_, err = j.MustFor(command.Call{Actor: "bea"}).Receipt(ctx, "mordor", receipt(dev["bea"], seen))
	require.ErrorContains(t, err, "already receipted")
	_, err = j.Receipt(ctx, "mordor", receipt(dev["gm"], seen))
	require.ErrorContains(t, err, "is the GM")
	clk.add(20 * time.Second)
	_, err = j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", unseen, qnRound+8, 1, orcoPelea))
	require.NoError(t, err)
	clk.add(time.Minute + 20*time.Second) // both rounds are out
	_, err = j.MustFor(command.Call{Actor: "ana"}).Receipt(ctx, "mordor", receipt(dev["ana"], unseen))
	require.ErrorContains(t, err, "counts only before it")
	_, err = j.ResolveBeacon(ctx, "mordor", seen, "")
	require.NoError(t, err)
	res, err := j.ResolveBeacon(ctx, "mordor", unseen, "")
	require.NoError(t, err)
	require.Equal(t, command.WitnessBeacon, payload[*events.RollMade](t, res.Events[0]).Witness)
	_, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	rep := verifyChain(t, st)
	require.True(t, rep.OK(), "%+v", rep.Sessions)
	var got []string
	for _, s := range rep.Sessions {
		for _, f := range s.Flags {
			if f.Code == replay.FlagBeaconUnseen {
				got = append(got, f.What)
			}
		}
	}
	require.Len(t, got, 1, "only the request nobody receipted: %v", got)
	require.Contains(t, got[0], unseen)
}
