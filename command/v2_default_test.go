package command_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
)

// TestDefaultDice: the default algorithm of a new session is v2 once
// any device key is registered (a gm key alone too), v1 before; the
// session-started event records it.
func TestDefaultDice(t *testing.T) {
	ctx := context.Background()
	j, _ := openJournal(t, t.TempDir())
	setup(t, j) // session s1 open (v1)
	_, err := j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	started := func(req command.SessionStart) string {
		t.Helper()
		res, err := j.StartSessionWith(ctx, "mordor", req)
		require.NoError(t, err)
		var d events.SessionStarted
		require.NoError(t, res.Events[0].Event.DecodeData(&d))
		_, err = j.EndSession(ctx, "mordor")
		require.NoError(t, err)
		return d.Algorithm
	}
	c, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, command.DiceV1, command.DefaultDice(c))
	require.Equal(t, command.DiceV1, command.DefaultDice(nil))
	require.Equal(t, dice.Algorithm, started(command.SessionStart{}))
	gm, ana := newDevice("gm", 2), newDevice("ana", 1)
	_, err = j.RegisterKey(ctx, "mordor", gm.reg("mordor", command.RoleGM))
	require.NoError(t, err)
	require.Equal(t, dice.AlgorithmV2, started(command.SessionStart{}), "a gm key alone")
	_, err = j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, "mordor", ana.reg("mordor", command.RolePlayer))
	require.NoError(t, err)
	c, err = j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, command.DiceV2, command.DefaultDice(c))
	require.Equal(t, dice.AlgorithmV2, started(command.SessionStart{}), "a player's key")
	require.Equal(t, dice.AlgorithmV2, started(command.SessionStart{Dice: command.DiceV2}))
}

// TestNoDowngrade: once any device key is registered in a campaign (the
// GM's alone, or a player's), a journal-dice-v1 session is refused, by
// StartSessionWith's --dice v1 and by the plain StartSession alike, with
// one clear error and nothing recorded (no event, no seed kept).
func TestNoDowngrade(t *testing.T) {
	ctx := context.Background()
	for _, who := range []string{"gm", "ana"} {
		t.Run(who, func(t *testing.T) {
			j, st := openJournal(t, t.TempDir())
			setup(t, j) // session s1 open (v1): before any key
			_, err := j.EndSession(ctx, "mordor")
			require.NoError(t, err)
			if who == "gm" {
				_, err = j.RegisterKey(ctx, "mordor", newDevice("gm", 2).reg("mordor", command.RoleGM))
			} else {
				_, err = j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, "mordor", newDevice("ana", 1).reg("mordor", command.RolePlayer))
			}
			require.NoError(t, err)
			before := count(t, st)
			for name, start := range map[string]func() (command.Result, error){
				"--dice v1": func() (command.Result, error) {
					return j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s9", Dice: command.DiceV1})
				},
				"StartSession": func() (command.Result, error) { return j.StartSession(ctx, "mordor", "s9", "") },
			} {
				_, err := start()
				require.ErrorIs(t, err, command.ErrDowngrade, name)
				require.ErrorIs(t, err, command.ErrInvalid, name)
				require.ErrorContains(t, err, "campaign mordor has keys of "+who+";", name)
				require.Equal(t, before, count(t, st), "%s: nothing recorded", name)
			}
			// No seed was kept for s9: it starts as v2 afterwards.
			res, err := j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s9"})
			require.NoError(t, err)
			var d events.SessionStarted
			require.NoError(t, res.Events[0].Event.DecodeData(&d))
			require.Equal(t, dice.AlgorithmV2, d.Algorithm)
		})
	}
}

// TestV2ActionSpelling: a v2 roll's action names the skill and the
// attribute as the rules do (the verifier compares the roll with the
// signed action): another spelling is refused with one clear error and
// nothing recorded; RollActionFor writes the rules' names.
func TestV2ActionSpelling(t *testing.T) {
	ctx := context.Background()
	j, st, ana, _ := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	before := count(t, st)
	for _, a := range []command.RollAction{
		{Command: "roll", Character: "lodin", Skill: "sigilo"},
		{Command: "roll", Character: "lodin", Skill: "SIGILO"},
		{Command: "roll", Character: "lodin", Attribute: "f"},
	} {
		_, err := aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", uuid.NewString(), secret(0x20), a))
		require.ErrorIs(t, err, command.ErrInvalid)
		require.ErrorContains(t, err, "name it as the rules do")
		require.Equal(t, before, count(t, st), "nothing recorded for %+v", a)
	}
	a, err := aj.RollActionFor(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "sigilo", Vs: "media"})
	require.NoError(t, err)
	require.Equal(t, "Sigilo", a.Skill)
	c, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, c.OpenSession().Commitment, a.SeedCommitment)
	a, err = aj.RollActionFor(ctx, "mordor", command.RollRequest{Character: "lodin", Attribute: "f"})
	require.NoError(t, err)
	require.Equal(t, "F", a.Attribute)
	id, r := uuid.NewString(), secret(0x30)
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id, r, a))
	require.NoError(t, err)
	_, err = aj.RevealRoll(ctx, "mordor", ana.reveal(t, "s2", id, r))
	require.NoError(t, err)
}
