package command_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/signed"
)

// A real quicknet round as drand published it (beacon/beacon_test.go has
// it with its source): round 30662982, published at 2026-... see TimeOf.
const (
	qnRound     = 30662982
	qnSignature = "8b3edd0d42a2fa36ac15641a2dea2e4f4895acec2ef72ef39e5b6138f0346fb6b046dde1b4b3d09ff5fe8a6a7acd674a"
	qnOther     = "8b2ebe176d153849d5db7f358a3a21be96f8c5d1c26ed2b530fff4419face8909d77f4ee6a211623e2432c30841411b5" // round 30662990's
)

// clock is a settable clock for the journal under test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// relayOf is the real beacon client (beacon.Client) against a drand HTTP
// relay on loopback that has published the given real rounds (signature
// by round) and answers 404 for any other, as api.drand.sh does for a
// round not yet out.
func relayOf(t *testing.T, rounds map[uint64]string) command.BeaconRounds {
	t.Helper()
	chain := beacon.Quicknet()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.ParseUint(path.Base(r.URL.Path), 10, 64)
		sig, ok := rounds[n]
		if err != nil || !ok || r.URL.Path != "/"+chain.Hash()+"/public/"+path.Base(r.URL.Path) {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"round": n, "signature": sig})
	}))
	t.Cleanup(srv.Close)
	cl, err := beacon.NewClient(srv.Client(), srv.URL, chain)
	require.NoError(t, err)
	return cl
}

// setupGMRolls is setupV2 on a journal whose clock the test sets (a minute
// before qnRound is published) and whose beacon is relay (nil: none), with
// bea's key registered too.
func setupGMRolls(t *testing.T, relay command.BeaconRounds) (*command.Handler, command.Store, *clock, map[string]device) {
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
	devs := map[string]device{"ana": newDevice("ana", 1), "gm": newDevice("gm", 2), "bea": newDevice("bea", 3)}
	_, err = j.RegisterKey(ctx, "mordor", devs["gm"].reg("mordor", command.RoleGM))
	require.NoError(t, err)
	for _, u := range []string{"ana", "bea"} {
		_, err = j.MustFor(command.Call{Actor: u}).RegisterKey(ctx, "mordor", devs[u].reg("mordor", command.RolePlayer))
		require.NoError(t, err)
	}
	res, err := j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2})
	require.NoError(t, err)
	commitmentOf = map[string]string{"s2": payload[*events.SessionStarted](t, res.Events[0]).Commitment}
	_, err = j.MustFor(command.Call{Actor: "ana"}).Contribute(ctx, "mordor", devs["ana"].contribute(t, j, "s2", 0xaa))
	require.NoError(t, err)
	return j, st, clk, devs
}

var orcoPelea = command.RollAction{Command: "roll", Character: "orco", Skill: "Pelea"}

// gmRequest seals a GM's roll.request without commitment, with a beacon
// round (0: none), waiting wait seconds.
func (d device) gmRequest(t testing.TB, session, id string, round uint64, wait int, action command.RollAction) command.RollRequestSigned {
	t.Helper()
	action.SeedCommitment = commitmentOf[session]
	b, err := json.Marshal(action)
	require.NoError(t, err)
	m := d.seal(t, &signed.Request{Header: signed.Header{Campaign: "mordor", Session: session}, Request: id, BeaconRound: round, Action: b})
	return command.RollRequestSigned{Character: action.Character, SignedMessage: m, Wait: wait}
}

func (d device) witness(t testing.TB, session, id string, v [32]byte) command.RollWitnessSigned {
	return command.RollWitnessSigned{SignedMessage: d.seal(t, &signed.Witness{Header: signed.Header{Campaign: "mordor", Session: session}, Request: id, Value: v})}
}

// TestV2GMRollWitnessed: the GM's request records no commitment and its
// wait; the first player's witness is r; every other witness is refused.
func TestV2GMRollWitnessed(t *testing.T) {
	ctx := context.Background()
	j, st, _, dev := setupGMRolls(t, nil)
	id := uuid.NewString()
	res, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id, 0, 90, orcoPelea))
	require.NoError(t, err)
	q := payload[*events.RollRequested](t, res.Events[0])
	require.Equal(t, "", q.Commitment, "a GM's request has no commitment")
	require.Equal(t, 90, q.Wait)
	require.Equal(t, "gm", q.User)

	v := secret(0x61)
	res, err = j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].witness(t, "s2", id, v))
	require.NoError(t, err)
	roll := payload[*events.RollMade](t, res.Events[0])
	require.Equal(t, "bea", roll.Witness)
	require.Equal(t, "bea", roll.User)
	require.Equal(t, hex.EncodeToString(v[:]), roll.Reveal)
	require.Equal(t, "orco", roll.Character)
	require.Equal(t, q.Nonce, roll.Nonce)
	require.Equal(t, "bea", res.Events[0].Event.Actor)

	before := count(t, st)
	_, err = j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, "mordor", dev["ana"].witness(t, "s2", id, secret(0x62)))
	require.ErrorContains(t, err, "already made: the first witness wins")
	require.Equal(t, before, count(t, st))
}

// TestV2GMRollRefusals: every wrong GM request, witness or resolution gets
// one clear error and records nothing.
func TestV2GMRollRefusals(t *testing.T) {
	ctx := context.Background()
	j, st, clk, dev := setupGMRolls(t, nil)
	aj, bj := j.MustFor(command.Call{Actor: "ana"}), j.MustFor(command.Call{Actor: "bea"})
	pending := uuid.NewString()
	_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", pending, 0, 60, orcoPelea))
	require.NoError(t, err)
	anas := uuid.NewString()
	_, err = aj.RequestRoll(ctx, "mordor", dev["ana"].request(t, "s2", anas, secret(1), sigilo))
	require.NoError(t, err)
	chain := beacon.Quicknet()
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"the GM's request with a commitment", func() error {
			_, err := j.RequestRoll(ctx, "mordor", dev["gm"].request(t, "s2", uuid.NewString(), secret(2), orcoPelea))
			return err
		}, "a GM's request takes no commitment"},
		{"a player's request without commitment", func() error {
			_, err := aj.RequestRoll(ctx, "mordor", dev["ana"].gmRequest(t, "s2", uuid.NewString(), 0, 0, sigilo))
			return err
		}, "only the GM's rolls are witnessed"},
		{"a player's request with a wait", func() error {
			m := dev["ana"].request(t, "s2", uuid.NewString(), secret(3), sigilo)
			m.Wait = 60
			_, err := aj.RequestRoll(ctx, "mordor", m)
			return err
		}, "a wait for a witness is for a GM's request"},
		{"a player's beacon request", func() error {
			_, err := aj.RequestRoll(ctx, "mordor", dev["ana"].gmRequest(t, "s2", uuid.NewString(), qnRound, 0, sigilo))
			return err
		}, "only the GM's rolls are witnessed"},
		{"a beacon round already published", func() error {
			_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", uuid.NewString(), qnRound-100, 0, orcoPelea))
			return err
		}, "name a future round"},
		{"a beacon round two years ahead", func() error {
			_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", uuid.NewString(), chain.RoundAt(clk.now().Add(2*365*24*time.Hour)), 0, orcoPelea))
			return err
		}, "at most"},
		{"a negative wait", func() error {
			_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", uuid.NewString(), 0, -1, orcoPelea))
			return err
		}, "wait -1 s"},
		{"a wait of a year", func() error {
			_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", uuid.NewString(), 0, 365*24*3600, orcoPelea))
			return err
		}, "wait 31536000 s"},
		{"the GM witnesses its own request", func() error {
			_, err := j.Witness(ctx, "mordor", dev["gm"].witness(t, "s2", pending, secret(4)))
			return err
		}, "never by a GM"},
		{"a witness for an unknown request", func() error {
			_, err := bj.Witness(ctx, "mordor", dev["bea"].witness(t, "s2", uuid.NewString(), secret(4)))
			return err
		}, "no roll request"},
		{"a witness for a player's request (with a commitment)", func() error {
			_, err := bj.Witness(ctx, "mordor", dev["bea"].witness(t, "s2", anas, secret(4)))
			return err
		}, "has a commitment"},
		{"the requester witnesses its own request", func() error {
			_, err := aj.Witness(ctx, "mordor", dev["ana"].witness(t, "s2", anas, secret(4)))
			return err
		}, "has a commitment"},
		{"a witness signed by another's key", func() error {
			_, err := bj.Witness(ctx, "mordor", dev["ana"].witness(t, "s2", pending, secret(4)))
			return err
		}, "bad signature"},
		{"a witness of a user without a key", func() error {
			_, err := j.MustFor(command.Call{Actor: "zed"}).Witness(ctx, "mordor", dev["bea"].witness(t, "s2", pending, secret(4)))
			return err
		}, "has no registered key"},
		{"a reveal sent as a witness", func() error {
			_, err := bj.Witness(ctx, "mordor", command.RollWitnessSigned{SignedMessage: dev["bea"].reveal(t, "s2", pending, secret(4)).SignedMessage})
			return err
		}, "not a roll.witness"},
		{"a witness for another session", func() error {
			_, err := bj.Witness(ctx, "mordor", dev["bea"].witness(t, "s1", pending, secret(4)))
			return err
		}, "session"},
		{"a player resolves unwitnessed", func() error {
			_, err := aj.ResolveUnwitnessed(ctx, "mordor", pending)
			return err
		}, "only the GM"},
		{"the GM resolves before the wait", func() error {
			_, err := j.ResolveUnwitnessed(ctx, "mordor", pending)
			return err
		}, "waits for a player's witness 1m0s more"},
		{"the GM resolves a player's request", func() error {
			_, err := j.ResolveUnwitnessed(ctx, "mordor", anas)
			return err
		}, "has a commitment"},
		{"the beacon for a request without a round", func() error {
			_, err := j.ResolveBeacon(ctx, "mordor", pending, qnSignature)
			return err
		}, "names no beacon round"},
		{"the beacon with no route to it", func() error {
			_, err := j.ResolveBeacon(ctx, "mordor", pending, "")
			return err
		}, "no pending beacon request"},
	}
	before := count(t, st)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			require.True(t, errors.Is(err, command.ErrInvalid) || errors.Is(err, command.ErrNotFound), "%v", err)
			require.ErrorContains(t, err, tt.want)
			require.Equal(t, before, count(t, st), "nothing recorded")
		})
	}
}

// TestV2GMRollUnwitnessed: after its wait, and only then, the GM resolves
// a request unwitnessed: r from the journal, Witness "none".
func TestV2GMRollUnwitnessed(t *testing.T) {
	ctx := context.Background()
	j, _, clk, dev := setupGMRolls(t, nil)
	id := uuid.NewString()
	_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id, 0, 0, orcoPelea))
	require.NoError(t, err)
	clk.add(command.DefaultWitnessWait - time.Second)
	_, err = j.ResolveUnwitnessed(ctx, "mordor", id)
	require.ErrorContains(t, err, "1s more")
	clk.add(time.Second)
	res, err := j.ResolveUnwitnessed(ctx, "mordor", id)
	require.NoError(t, err)
	roll := payload[*events.RollMade](t, res.Events[0])
	require.Equal(t, command.WitnessNone, roll.Witness)
	require.Empty(t, roll.Signed)
	require.Len(t, roll.Reveal, 64)
	_, err = j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].witness(t, "s2", id, secret(5)))
	require.ErrorContains(t, err, "already made")
}

// TestV2GMRollBeacon: a request pinned to a future quicknet round resolves
// with r = SHA-256 of the round's real signature, verified; a wrong
// signature or another round's is refused; without a route to the beacon
// a player's witness still resolves it.
func TestV2GMRollBeacon(t *testing.T) {
	ctx := context.Background()
	t.Run("given signature", func(t *testing.T) {
		j, st, clk, dev := setupGMRolls(t, nil)
		id := uuid.NewString()
		res, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id, qnRound, 0, orcoPelea))
		require.NoError(t, err)
		require.Equal(t, uint64(qnRound), payload[*events.RollRequested](t, res.Events[0]).BeaconRound)
		clk.add(2 * time.Minute)
		before := count(t, st)
		for _, bad := range []string{qnOther, qnSignature[:len(qnSignature)-2] + "00", "zz"} {
			_, err = j.ResolveBeacon(ctx, "mordor", id, bad)
			require.ErrorIs(t, err, command.ErrInvalid)
			require.ErrorContains(t, err, "bad beacon signature")
		}
		_, err = j.MustFor(command.Call{Actor: "ana"}).ResolveBeacon(ctx, "mordor", id, qnSignature)
		require.ErrorContains(t, err, "only the GM")
		_, err = j.ResolveUnwitnessed(ctx, "mordor", id)
		require.ErrorContains(t, err, "more", "a beacon request's wait counts from its round")
		require.Equal(t, before, count(t, st))
		res, err = j.ResolveBeacon(ctx, "mordor", id, qnSignature)
		require.NoError(t, err)
		roll := payload[*events.RollMade](t, res.Events[0])
		sig, _ := hex.DecodeString(qnSignature)
		r := sha256.Sum256(sig)
		require.Equal(t, command.WitnessBeacon, roll.Witness)
		require.Equal(t, hex.EncodeToString(r[:]), roll.Reveal)
		require.Equal(t, uint64(qnRound), roll.BeaconRound)
		require.Equal(t, qnSignature, roll.BeaconSignature)
	})
	t.Run("fetched from the relay", func(t *testing.T) {
		j, _, _, dev := setupGMRolls(t, relayOf(t, map[uint64]string{qnRound: qnSignature}))
		id, later := uuid.NewString(), uuid.NewString()
		_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id, qnRound, 0, orcoPelea))
		require.NoError(t, err)
		_, err = j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", later, qnRound+10, 0, orcoPelea))
		require.NoError(t, err)
		_, err = j.ResolveBeacon(ctx, "mordor", later, "")
		require.ErrorContains(t, err, "not published yet")
		res, err := j.ResolveBeacon(ctx, "mordor", id, "")
		require.NoError(t, err)
		require.Equal(t, qnSignature, payload[*events.RollMade](t, res.Events[0]).BeaconSignature)
	})
	t.Run("no route: a witness", func(t *testing.T) {
		j, _, _, dev := setupGMRolls(t, nil)
		id := uuid.NewString()
		_, err := j.RequestRoll(ctx, "mordor", dev["gm"].gmRequest(t, "s2", id, qnRound, 0, orcoPelea))
		require.NoError(t, err)
		_, err = j.ResolveBeacon(ctx, "mordor", id, "")
		require.ErrorContains(t, err, "no route to the beacon")
		res, err := j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].witness(t, "s2", id, secret(6)))
		require.NoError(t, err)
		require.Equal(t, "bea", payload[*events.RollMade](t, res.Events[0]).Witness)
	})
}

// TestV2GMWaitIsSigned: the wait a GM's device signs is the one recorded:
// a request body naming another wait is refused, and a host who is not the
// GM cannot shorten it by the body alone (docs/design.md §3.2, the GM's wait).
func TestV2GMWaitIsSigned(t *testing.T) {
	ctx := context.Background()
	j, st, _, dev := setupGMRolls(t, nil)
	signedWait := func(id string, wait uint64, body int) command.RollRequestSigned {
		action := orcoPelea
		action.SeedCommitment = commitmentOf["s2"]
		b, err := json.Marshal(action)
		require.NoError(t, err)
		m := dev["gm"].seal(t, &signed.Request{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: id, Wait: wait, Action: b})
		return command.RollRequestSigned{Character: action.Character, SignedMessage: m, Wait: body}
	}
	res, err := j.RequestRoll(ctx, "mordor", signedWait(uuid.NewString(), 600, 0))
	require.NoError(t, err)
	require.Equal(t, 600, payload[*events.RollRequested](t, res.Events[0]).Wait, "the signed wait is recorded")

	before := count(t, st)
	_, err = j.RequestRoll(ctx, "mordor", signedWait(uuid.NewString(), 600, 1))
	require.ErrorIs(t, err, command.ErrInvalid)
	require.ErrorContains(t, err, "not the one its device signed")
	_, err = j.RequestRoll(ctx, "mordor", signedWait(uuid.NewString(), uint64(command.MaxWitnessWait/time.Second)+1, 0))
	require.ErrorIs(t, err, command.ErrInvalid)
	require.Equal(t, before, count(t, st), "nothing recorded")
}
