package command_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	devkeys "github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// device is a participant's device in the tests: its key and its secrets.
type device struct {
	user string
	priv ed25519.PrivateKey
}

func newDevice(user string, b byte) device {
	var seed [32]byte
	seed[0] = b
	return device{user: user, priv: ed25519.NewKeyFromSeed(seed[:])}
}

func (d device) pub() string { return signed.PublicKeyOf(d.priv).String() }

// reg is d's own registration in campaign as role: its device.register
// signed by its key (package device), proof that d holds it.
func (d device) reg(campaign, role string) command.RegisterKey {
	return command.RegisterKey{SignedMessage: devkeys.MustRegister(d.priv, campaign, d.user, role, "")}
}

func (d device) seal(t testing.TB, m signed.Message) command.SignedMessage {
	t.Helper()
	s, err := signed.Encode(m)
	require.NoError(t, err)
	return command.SignedMessage{Signed: s, Signature: signed.Sign(d.priv, s)}
}

// contribute seals a contribution of v's bytes to session of mordor,
// naming the session's seed commitment as j records it.
func (d device) contribute(t testing.TB, j *command.Handler, session string, v byte) command.ContributeSigned {
	t.Helper()
	var val signed.Hex32
	for i := range val {
		val[i] = v
	}
	return command.ContributeSigned{SignedMessage: d.seal(t, &signed.Contribute{Header: signed.Header{Campaign: "mordor", Session: session}, Value: val,
		Commitment: seedCommitment(t, j, "mordor", session)})}
}

// seedCommitment is session's seed commitment in campaign, as j records it.
func seedCommitment(t testing.TB, j *command.Handler, campaign, session string) signed.Hex32 {
	t.Helper()
	c, err := j.Load(context.Background(), campaign, 0)
	require.NoError(t, err)
	s := c.Session(session)
	require.NotNil(t, s, "session %s", session)
	var h signed.Hex32
	require.NoError(t, h.UnmarshalText([]byte(s.Commitment)))
	return h
}

// request seals a roll.request for action with commitment to r.
func (d device) request(t testing.TB, session, id string, r [32]byte, action command.RollAction) command.RollRequestSigned {
	t.Helper()
	action.SeedCommitment = commitmentOf[session]
	b, err := json.Marshal(action)
	require.NoError(t, err)
	c, err := dice.ParseHex32(dice.RevealCommitment(r))
	require.NoError(t, err)
	m := d.seal(t, &signed.Request{Header: signed.Header{Campaign: "mordor", Session: session}, Request: id,
		Commitment: c, Action: b})
	return command.RollRequestSigned{Character: action.Character, SignedMessage: m}
}

func (d device) reveal(t testing.TB, session, id string, r [32]byte) command.RollRevealSigned {
	return command.RollRevealSigned{Character: "lodin",
		SignedMessage: d.seal(t, &signed.Reveal{Header: signed.Header{Campaign: "mordor", Session: session}, Request: id, R: r})}
}

// setupV2 makes the campaign of setup with a v2 session s2, ana's and the
// GM's keys registered.
func setupV2(t *testing.T) (*command.Handler, command.Store, device, device) {
	t.Helper()
	ctx := context.Background()
	j, st := openJournal(t, t.TempDir())
	setup(t, j)
	_, err := j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	ana, gm := newDevice("ana", 1), newDevice("gm", 2)
	_, err = j.RegisterKey(ctx, "mordor", gm.reg("mordor", command.RoleGM))
	require.NoError(t, err)
	_, err = j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, "mordor", ana.reg("mordor", command.RolePlayer))
	require.NoError(t, err)
	res, err := j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2})
	require.NoError(t, err)
	var started events.SessionStarted
	require.NoError(t, res.Events[0].Event.DecodeData(&started))
	require.Equal(t, dice.AlgorithmV2, started.Algorithm)
	commitmentOf = map[string]string{"s2": started.Commitment}
	return j, st, ana, gm
}

func secret(b byte) [32]byte {
	var r [32]byte
	for i := range r {
		r[i] = b + byte(i)
	}
	return r
}

// commitmentOf is the seed commitment of the test's v2 sessions.
var commitmentOf map[string]string

var sigilo = command.RollAction{Command: "roll", Character: "lodin", Skill: "Sigilo"}

func TestV2RollRequestThenReveal(t *testing.T) {
	ctx := context.Background()
	j, st, ana, gm := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	_, err := aj.Contribute(ctx, "mordor", ana.contribute(t, j, "s2", 0xaa))
	require.NoError(t, err)
	_, err = j.Contribute(ctx, "mordor", gm.contribute(t, j, "s2", 0xbb))
	require.NoError(t, err)

	id := uuid.NewString()
	r := secret(0x20)
	res, err := aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id, r, sigilo))
	require.NoError(t, err)
	var req events.RollRequested
	require.NoError(t, res.Events[0].Event.DecodeData(&req))
	require.Equal(t, uint64(0), req.Nonce)
	require.Equal(t, dice.RevealCommitment(r), req.Commitment)

	res, err = aj.RevealRoll(ctx, "mordor", ana.reveal(t, "s2", id, r))
	require.NoError(t, err)
	var made events.RollMade
	require.NoError(t, res.Events[0].Event.DecodeData(&made))
	require.Equal(t, id, made.Request)
	require.Equal(t, uint64(0), made.Nonce)
	require.Equal(t, []int{10, 10, 10}, made.Draws[:3]) // and more when a die explodes

	// The faces are StreamV2's, from K with the two contributions.
	seed := seedOf(t, j, st, "s2")
	var aa, bb [32]byte
	for i := range aa {
		aa[i], bb[i] = 0xaa, 0xbb
	}
	k := dice.SessionKey(seed, "mordor", "s2", [][32]byte{aa, bb})
	s := dice.StreamV2(k, "mordor", "s2", 0, r)
	var want []int
	for _, n := range made.Draws {
		f, err := s.Roll(n)
		require.NoError(t, err)
		want = append(want, f)
	}
	require.Equal(t, want, made.Faces)
}

// seedOf ends the session and returns its revealed seed.
func seedOf(t *testing.T, j *command.Handler, _ command.Store, session string) dice.Seed {
	t.Helper()
	res, err := j.EndSession(context.Background(), "mordor")
	require.NoError(t, err)
	var ended events.SessionEnded
	require.NoError(t, res.Events[0].Event.DecodeData(&ended))
	seed, err := dice.ParseSeed(ended.Seed)
	require.NoError(t, err)
	return seed
}

// TestV2Refusals attacks the v2 commands: each refusal is one clear error
// and records nothing.
func TestV2Refusals(t *testing.T) {
	ctx := context.Background()
	j, st, ana, gm := setupV2(t)
	aj, bj := j.MustFor(command.Call{Actor: "ana"}), j.MustFor(command.Call{Actor: "bea"})
	bea := newDevice("bea", 3)
	pending := uuid.NewString()
	r := secret(0x40)
	_, err := aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", pending, r, sigilo))
	require.NoError(t, err)
	forged := ana.request(t, "s2", uuid.NewString(), r, sigilo)
	forged.Signature = gm.seal(t, &signed.Contribute{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Value: signed.Hex32{1}}).Signature
	otherSession := ana.request(t, "s9", uuid.NewString(), r, sigilo)
	badAction := ana.request(t, "s2", uuid.NewString(), r, command.RollAction{Command: "roll", Character: "lodin", Skill: "Volar"})
	wrongChar := ana.request(t, "s2", uuid.NewString(), r, sigilo)
	wrongChar.Character = "ruisenor"

	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"a player registers another user's key", func() error {
			_, err := aj.RegisterKey(ctx, "mordor", command.RegisterKey{User: "bea", PublicKey: bea.pub()})
			return err
		}, "ana may register only its own key"},
		{"a player registers itself as gm", func() error {
			_, err := aj.RegisterKey(ctx, "mordor", ana.reg("mordor", command.RoleGM))
			return err
		}, "registering ana as gm is the GM's"},
		{"a player replaces the GM's key", func() error {
			_, err := aj.RegisterKey(ctx, "mordor", ana.reg("mordor", command.RoleGM))
			return err
		}, "is the GM's"},
		{"a key of small order", func() error {
			_, err := aj.RegisterKey(ctx, "mordor", command.RegisterKey{PublicKey: "0100000000000000000000000000000000000000000000000000000000000000"})
			return err
		}, "small order"},
		{"a contribution after the first request", func() error {
			_, err := aj.Contribute(ctx, "mordor", ana.contribute(t, j, "s2", 0xcc))
			return err
		}, "contributions are taken only before the first"},
		{"a request by a user without a key", func() error {
			_, err := bj.RequestRoll(ctx, "mordor", bea.request(t, "s2", uuid.NewString(), r, sigilo))
			return err
		}, "bea has no registered key"},
		{"a bad signature", func() error {
			_, err := aj.RequestRoll(ctx, "mordor", forged)
			return err
		}, "bad signature"},
		{"the host sends ana's request as the GM", func() error {
			_, err := j.RequestRoll(ctx, "mordor", ana.request(t, "s2", uuid.NewString(), r, sigilo))
			return err
		}, "bad signature"},
		{"a request for another session", func() error {
			_, err := aj.RequestRoll(ctx, "mordor", otherSession)
			return err
		}, "another campaign or session"},
		{"a replayed request", func() error {
			_, err := aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", pending, r, sigilo))
			return err
		}, "already recorded"},
		{"an unknown skill", func() error {
			_, err := aj.RequestRoll(ctx, "mordor", badAction)
			return err
		}, "Volar"},
		{"a body naming another character than the signed action", func() error {
			_, err := aj.RequestRoll(ctx, "mordor", wrongChar)
			return err
		}, "the signed action for lodin"},
		{"a reveal that does not match the commitment", func() error {
			_, err := aj.RevealRoll(ctx, "mordor", ana.reveal(t, "s2", pending, secret(0x41)))
			return err
		}, "is not the commitment"},
		{"a reveal for an unknown request", func() error {
			_, err := aj.RevealRoll(ctx, "mordor", ana.reveal(t, "s2", uuid.NewString(), r))
			return err
		}, "no roll request"},
		{"the GM reveals ana's request", func() error {
			_, err := j.RevealRoll(ctx, "mordor", gm.reveal(t, "s2", pending, r))
			return err
		}, "only its requester reveals it"},
		{"the GM asks for a roll it would reveal itself", func() error {
			_, err := j.RequestRoll(ctx, "mordor", gm.request(t, "s2", uuid.NewString(), r, sigilo))
			return err
		}, "a GM's request takes no commitment"},
		{"a player cancels a request", func() error {
			_, err := aj.CancelRoll(ctx, "mordor", pending, "no")
			return err
		}, "only the GM"},
		{"a v1 roll path in a v2 session", func() error {
			_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo"})
			return err
		}, "not available in a journal-dice-v2 session"},
		{"a v1 contest in a v2 session", func() error {
			_, err := j.Contest(ctx, "mordor", command.ContestRequest{A: "lodin", SkillA: "Pelea", B: "orco", SkillB: "Pelea"})
			return err
		}, "not available in a journal-dice-v2 session"},
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

func TestV2CancelConsumesTheNonce(t *testing.T) {
	ctx := context.Background()
	j, _, ana, _ := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	first, second := uuid.NewString(), uuid.NewString()
	_, err := aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", first, secret(1), sigilo))
	require.NoError(t, err)
	_, err = j.CancelRoll(ctx, "mordor", first, "player left")
	require.NoError(t, err)
	_, err = aj.RevealRoll(ctx, "mordor", ana.reveal(t, "s2", first, secret(1)))
	require.ErrorContains(t, err, "already cancelled")
	res, err := aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", second, secret(2), sigilo))
	require.NoError(t, err)
	var req events.RollRequested
	require.NoError(t, res.Events[0].Event.DecodeData(&req))
	require.Equal(t, uint64(1), req.Nonce, "the cancelled request's nonce stays consumed")
}

// TestV2GMKeyBootstrap: the first gm key is its own user's; after it only
// the registered GM registers gm keys or other users' keys. A player named
// gm is not the GM.
func TestV2GMKeyBootstrap(t *testing.T) {
	ctx := context.Background()
	j, _ := openJournal(t, t.TempDir())
	setup(t, j)
	lucia, bea, gmPlayer := newDevice("lucia", 4), newDevice("bea", 5), newDevice("gm", 6)
	_, err := j.MustFor(command.Call{Actor: "lucia"}).RegisterKey(ctx, "mordor", lucia.reg("mordor", command.RoleGM))
	require.NoError(t, err, "the first gm key is its user's own")
	_, err = j.MustFor(command.Call{Actor: "bea"}).RegisterKey(ctx, "mordor", bea.reg("mordor", command.RoleGM))
	require.ErrorContains(t, err, "is the GM's")
	_, err = j.MustFor(command.Call{Actor: "lucia"}).RegisterKey(ctx, "mordor", command.RegisterKey{User: "gm", PublicKey: gmPlayer.pub()})
	require.NoError(t, err, "the GM registers a player called gm")
	_, err = j.RegisterKey(ctx, "mordor", command.RegisterKey{User: "bea", PublicKey: bea.pub()})
	require.ErrorContains(t, err, "gm may register only its own key", "a player named gm is not the GM")
}

// TestContributionBindsCommitment: a contribution names its session's seed
// commitment (so that it cannot be replayed into another journal's session
// of the same ids): one naming none (an old device's) or another session's
// is refused with one clear error and nothing recorded; its own is taken.
func TestContributionBindsCommitment(t *testing.T) {
	ctx := context.Background()
	j, st, ana, _ := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	other := seedCommitment(t, j, "mordor", "s1") // the v1 session's, before
	for _, tc := range []struct {
		name       string
		commitment signed.Hex32
		want       string
	}{
		{"none (old format)", signed.Hex32{}, "the contribution names no seed commitment: sign session s2's"},
		{"another session's", other, "the contribution names seed commitment " + other.String() + ", session s2's is"},
	} {
		before := count(t, st)
		_, err := aj.Contribute(ctx, "mordor", command.ContributeSigned{SignedMessage: ana.seal(t, &signed.Contribute{Header: hdr, Value: signed.Hex32{0xaa}, Commitment: tc.commitment})})
		require.ErrorIs(t, err, command.ErrInvalid, tc.name)
		require.ErrorContains(t, err, tc.want, tc.name)
		require.Equal(t, before, count(t, st), "%s: nothing recorded", tc.name)
	}
	_, err := aj.Contribute(ctx, "mordor", ana.contribute(t, j, "s2", 0xaa))
	require.NoError(t, err)
	c, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Len(t, c.Session("s2").Contributions, 1)
}
