package command_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// provedOf decodes the single journal.roll.proved.v1 of a result.
func provedOf(t *testing.T, res command.Result) events.RollProved {
	t.Helper()
	require.Len(t, res.Events, 1, "a proof records one event, no consequence")
	require.Equal(t, events.TypeRollProved, res.Events[0].Event.Type)
	var p events.RollProved
	require.NoError(t, res.Events[0].Event.DecodeData(&p))
	return p
}

// independentFaces draws the faces of sides from the seed, the
// contributions, the nonce and r with package dice alone.
func independentFaces(t *testing.T, seed dice.Seed, contribs [][32]byte, nonce uint64, r [32]byte, sides []int) []int {
	t.Helper()
	k := dice.SessionKey(seed, "mordor", "s2", contribs)
	st := k.Stream("mordor", "s2", nonce, r)
	out := make([]int, len(sides))
	for i, n := range sides {
		f, err := st.Roll(n)
		require.NoError(t, err)
		out[i] = f
	}
	return out
}

// TestV2ProveCancelledRoll attacks as the GM who hosts: it reads ana's
// reveal on its way (here: simply does not record it), cancels her
// request, and ana's device sends its reveal again. The journal records
// the roll it would have been (journal.roll.proved.v1, who cancelled it,
// the faces the seed gives), once; a request already made is refused, and
// a pending one is revealed as usual.
func TestV2ProveCancelledRoll(t *testing.T) {
	ctx := context.Background()
	j, _, ana, _ := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	_, err := aj.Contribute(ctx, "mordor", ana.contribute(t, j, "s2", 0xaa))
	require.NoError(t, err)

	id, r := uuid.NewString(), secret(0x20)
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id, r, sigilo))
	require.NoError(t, err)
	rev := ana.reveal(t, "s2", id, r) // the host sees it and drops it
	_, err = j.CancelRoll(ctx, "mordor", id, "ana left the table")
	require.NoError(t, err)

	res, err := aj.ProveRoll(ctx, "mordor", rev)
	require.NoError(t, err)
	p := provedOf(t, res)
	require.Equal(t, "ana", p.User)
	require.Equal(t, "gm", p.CancelledBy)
	require.NotEmpty(t, p.Cancel)
	require.Equal(t, id, p.Request)
	require.Equal(t, signed.Hex32(r).String(), p.Reveal)
	require.Equal(t, uint64(0), p.Nonce)
	require.Len(t, p.Rolls, 1)
	require.Equal(t, p.Faces, p.Rolls[0].Faces)
	// A skill roll draws 3d10, and one more d10 for each time a kept 10
	// explodes: the session's seed is random, so the count is at least 3.
	require.GreaterOrEqual(t, len(p.Draws), 3, "a skill roll draws 3d10")
	for _, sides := range p.Draws {
		require.Equal(t, 10, sides, "every die drawn is a d10: %v", p.Draws)
	}
	require.Len(t, p.Faces, len(p.Draws), "a face for every die drawn")
	require.NotEmpty(t, p.Outcome)

	_, err = aj.ProveRoll(ctx, "mordor", rev)
	require.ErrorIs(t, err, command.ErrInvalid)
	require.ErrorContains(t, err, "already proved")

	// A pending request is simply revealed; once made it is not proved.
	id2, r2 := uuid.NewString(), secret(0x40)
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id2, r2, sigilo))
	require.NoError(t, err)
	res, err = aj.ProveRoll(ctx, "mordor", ana.reveal(t, "s2", id2, r2))
	require.NoError(t, err)
	require.Equal(t, events.TypeRollMade, res.Events[0].Event.Type)
	_, err = aj.ProveRoll(ctx, "mordor", ana.reveal(t, "s2", id2, r2))
	require.ErrorIs(t, err, command.ErrInvalid)
	require.ErrorContains(t, err, "already made")

	// The faces are the seed's, drawn independently.
	seed := seedOf(t, j, nil, "s2")
	var aa [32]byte
	for i := range aa {
		aa[i] = 0xaa
	}
	require.Equal(t, independentFaces(t, seed, [][32]byte{aa}, 0, r, p.Draws), p.Faces)
}

// TestV2ProveAfterSessionEnd: the GM cancels, ends the session, and ana
// proves later; a request left unrevealed at the end is proved too.
func TestV2ProveAfterSessionEnd(t *testing.T) {
	ctx := context.Background()
	j, _, ana, _ := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	id, r := uuid.NewString(), secret(0x20)
	_, err := aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id, r, sigilo))
	require.NoError(t, err)
	_, err = j.CancelRoll(ctx, "mordor", id, "dropped")
	require.NoError(t, err)
	id2, r2 := uuid.NewString(), secret(0x60)
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id2, r2, sigilo))
	require.NoError(t, err)
	seed := seedOf(t, j, nil, "s2")

	res, err := aj.ProveRoll(ctx, "mordor", ana.reveal(t, "s2", id, r))
	require.NoError(t, err)
	p := provedOf(t, res)
	require.Equal(t, "s2", res.Events[0].Event.Session)
	require.Equal(t, independentFaces(t, seed, nil, 0, r, p.Draws), p.Faces)

	res, err = aj.ProveRoll(ctx, "mordor", ana.reveal(t, "s2", id2, r2))
	require.NoError(t, err)
	p2 := provedOf(t, res)
	require.Equal(t, "", p2.CancelledBy, "left unrevealed at the end")
	require.Equal(t, independentFaces(t, seed, nil, 1, r2, p2.Draws), p2.Faces)
}

// TestV2ProveRefusals: a forged proof is refused with one clear error and
// records nothing: r changed, another key's signature, another request's
// reveal, another user's request.
func TestV2ProveRefusals(t *testing.T) {
	ctx := context.Background()
	j, _, ana, _ := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	bea := newDevice("bea", 3)
	_, err := j.MustFor(command.Call{Actor: "bea"}).RegisterKey(ctx, "mordor", bea.reg("mordor", command.RolePlayer))
	require.NoError(t, err)
	id, r := uuid.NewString(), secret(0x20)
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id, r, sigilo))
	require.NoError(t, err)
	other, r3 := uuid.NewString(), secret(0x70)
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", other, r3, sigilo))
	require.NoError(t, err)
	for _, q := range []string{id, other} {
		_, err = j.CancelRoll(ctx, "mordor", q, "dropped")
		require.NoError(t, err)
	}
	before, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)

	for name, c := range map[string]struct {
		j    *command.Handler
		in   command.RollRevealSigned
		want string
	}{
		"r changed":         {aj, ana.reveal(t, "s2", id, secret(0x21)), "not the commitment"},
		"another key":       {aj, bea.reveal(t, "s2", id, r), "signed message of ana"},
		"another request":   {aj, ana.reveal(t, "s2", other, r), "not the commitment"},
		"not the requester": {j.MustFor(command.Call{Actor: "bea"}), bea.reveal(t, "s2", id, r), "only its requester proves it"},
		"unknown request":   {aj, ana.reveal(t, "s2", uuid.NewString(), r), "no roll request"},
	} {
		_, err := c.j.ProveRoll(ctx, "mordor", c.in)
		require.Error(t, err, name)
		require.True(t, errors.Is(err, command.ErrInvalid) || errors.Is(err, command.ErrNotFound), "%s: %v", name, err)
		require.ErrorContains(t, err, c.want, name)
	}
	after, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, before.LastSeq, after.LastSeq, "nothing recorded")
}

// TestV2ProveAttackAppliesNothing: a proved attack records the rolls it
// would have drawn and no damage.
func TestV2ProveAttackAppliesNothing(t *testing.T) {
	ctx := context.Background()
	j, st, devs := setupV2Combat(t)
	camp, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	who := camp.Combat.Order[0] // a cancelled attack does not take the turn
	target := map[string]string{"lodin": "ruisenor", "ruisenor": "lodin"}[who]
	weapon := map[string]string{"lodin": "Espada", "ruisenor": "Puños"}[who]
	hp := camp.Characters[target].HP
	dev := devs[who]
	for i := 0; i < 600; i++ { // until one would have hit (the attacker is whoever the random initiative puts first, and its odds may be low)
		id, r := uuid.NewString(), secret(byte(i))
		_, err := j.MustFor(command.Call{Actor: dev.user}).RequestRoll(ctx, "mordor", dev.attackRequest(t, "s2", id, r,
			command.AttackAction{Character: who, Target: target, Weapon: weapon}))
		require.NoError(t, err)
		_, err = j.CancelRoll(ctx, "mordor", id, "dropped")
		require.NoError(t, err)
		res, err := j.MustFor(command.Call{Actor: dev.user}).ProveRoll(ctx, "mordor", command.RollRevealSigned{Character: who,
			SignedMessage: dev.seal(t, &signed.Reveal{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: id, R: r})})
		require.NoError(t, err)
		p := provedOf(t, res)
		if len(p.Rolls) == 2 {
			require.Equal(t, "damage", p.Rolls[1].Kind)
			camp, err = j.Load(ctx, "mordor", 0)
			require.NoError(t, err)
			require.Equal(t, hp, camp.Characters[target].HP, "a proof deals no damage")
			// Replay verifies every proved attack, the damage re-derived too.
			_, err = j.EndSession(ctx, "mordor")
			require.NoError(t, err)
			rep, err := replay.Verify(ctx, replay.StoreSource(st.Read, events.Query{}), replay.Options{Campaign: "mordor"})
			require.NoError(t, err)
			require.True(t, rep.OK(), "%+v", rep.Sessions)
			n := 0
			for _, s := range rep.Sessions {
				for _, f := range s.Flags {
					if f.Code == replay.FlagCancelledAfterReveal {
						n++
					}
				}
			}
			require.Equal(t, i+1, n, "every proof flagged")
			return
		}
	}
	t.Fatal("no proved attack would have hit")
}

// TestV2ProveTOR: The One Ring's roll, suppressed and cancelled, is
// proved with the feat die and the success dice its own path draws, and
// replay flags it; no madness or other consequence is recorded.
func TestV2ProveTOR(t *testing.T) {
	ctx := context.Background()
	tt := setupTORV2(t)
	a := tt.rollAction("bilbo", "Atención", 14, "")
	id, r := uuid.NewString(), secret(0x33)
	_, err := tt.j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, arda, tt.sealAction(t, "ana", id, &r, "bilbo", a))
	require.NoError(t, err)
	_, err = tt.j.CancelRoll(ctx, arda, id, "dropped")
	require.NoError(t, err)
	rev := tt.devs["ana"].seal(t, &signed.Reveal{Header: signed.Header{Campaign: arda, Session: "s2"}, Request: id, R: r})
	res, err := tt.j.MustFor(command.Call{Actor: "ana"}).ProveRoll(ctx, arda, command.RollRevealSigned{Character: "bilbo", SignedMessage: rev})
	require.NoError(t, err)
	p := provedOf(t, res)
	require.Equal(t, []int{12, 6, 6, 6}, p.Draws, "the feat die and Atención's 3 success dice")
	_, err = tt.j.EndSession(ctx, arda)
	require.NoError(t, err)
	rep := verifyStore(t, tt.st)
	require.True(t, rep.OK(), "%+v", rep.Mismatches)
	var flagged bool
	for _, s := range rep.Sessions {
		for _, f := range s.Flags {
			if f.Code == replay.FlagCancelledAfterReveal {
				flagged = true
				require.Contains(t, f.What, "ana proved request "+id)
			}
		}
		require.Empty(t, s.Mismatches)
	}
	require.True(t, flagged)
}
