package command_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
)

func TestFreeRollV1(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()
	res, err := j.MustFor(command.Call{Actor: "ana"}).FreeRoll(ctx, "mordor", command.FreeRollRequest{Character: "lodin", Dice: "2D10 + 3", Note: "trampa"})
	require.NoError(t, err)
	require.Len(t, res.Events, 1)
	var e events.RollMade
	require.NoError(t, res.Events[0].Event.DecodeData(&e))
	require.Equal(t, "free", e.Kind)
	require.Equal(t, "2d10+3", e.Dice)
	require.Len(t, e.Faces, 2)
	require.Equal(t, e.Faces[0]+e.Faces[1]+3, e.Total)
	require.Equal(t, "trampa", e.Note)

	before := count(t, store)
	for name, req := range map[string]command.FreeRollRequest{
		"bad dice":         {Character: "lodin", Dice: "2d1"},
		"no dice":          {Character: "lodin", Dice: "7"},
		"player secret":    {Character: "lodin", Dice: "1d6", Secret: true},
		"player no char":   {Dice: "1d6"},
		"unknown char":     {Character: "gandalf", Dice: "1d6"},
		"too many dice":    {Character: "lodin", Dice: "101d6"},
		"too many sides":   {Character: "lodin", Dice: "1d1000"},
		"unknown operator": {Character: "lodin", Dice: "1d6*2"},
	} {
		_, err := j.MustFor(command.Call{Actor: "ana"}).FreeRoll(ctx, "mordor", req)
		require.Error(t, err, name)
	}
	require.Equal(t, before, count(t, store), "refusals record nothing")
	// The GM rolls for no character.
	res, err = j.FreeRoll(ctx, "mordor", command.FreeRollRequest{Dice: "1d6"})
	require.NoError(t, err)
	require.NoError(t, res.Events[0].Event.DecodeData(&e))
	require.Equal(t, "", e.Character)
	require.Equal(t, uint64(1), e.Nonce)
}

func TestSecretRollV1(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()
	_, err := j.MustFor(command.Call{Actor: "ana"}).Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Secret: true})
	require.ErrorIs(t, err, command.ErrInvalid, "a player's secret roll")

	res, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "orco", Skill: "Pelea", Vs: "media", Secret: true})
	require.NoError(t, err)
	require.Len(t, res.Events, 1)
	hiddenEv := res.Events[0].Event
	require.Equal(t, events.TypeRollHidden, hiddenEv.Type)
	require.NotContains(t, string(hiddenEv.Data), "faces")
	require.NotContains(t, string(hiddenEv.Data), "total")
	require.NotContains(t, string(hiddenEv.Data), "outcome")
	require.Len(t, res.Secret, 1, "the GM's answer has the outcome")
	want := res.Secret[0].Roll
	require.NotEmpty(t, want.Faces)

	free, err := j.FreeRoll(ctx, "mordor", command.FreeRollRequest{Dice: "3d6", Secret: true, Note: "emboscada"})
	require.NoError(t, err)
	require.Len(t, free.Secret, 1)
	third, err := j.FreeRoll(ctx, "mordor", command.FreeRollRequest{Dice: "1d20", Secret: true})
	require.NoError(t, err)

	list, err := j.SecretRolls(ctx, "mordor")
	require.NoError(t, err)
	require.Len(t, list, 3)
	require.Equal(t, want.Faces, list[0].Roll.Faces)

	// The GM reveals the first by a short id; the roll is the one announced.
	rev, err := j.Reveal(ctx, "mordor", hiddenEv.ID[len(hiddenEv.ID)-8:])
	require.NoError(t, err)
	var made events.RollMade
	require.NoError(t, rev.Events[0].Event.DecodeData(&made))
	require.Equal(t, hiddenEv.ID, made.Hidden)
	require.Equal(t, want.Faces, made.Faces)
	require.Equal(t, want.Total, made.Total)
	require.Equal(t, want.Outcome, made.Outcome)
	require.Equal(t, uint64(0), made.Nonce)
	_, err = j.Reveal(ctx, "mordor", hiddenEv.ID)
	require.ErrorIs(t, err, command.ErrInvalid, "revealed twice")
	_, err = j.MustFor(command.Call{Actor: "ana"}).Reveal(ctx, "mordor", free.Events[0].Event.ID)
	require.ErrorIs(t, err, command.ErrInvalid, "a player reveals")
	_, err = j.Reveal(ctx, "mordor", "0000000000")
	require.ErrorIs(t, err, command.ErrNotFound)

	// The session's end reveals the rest, before its seed.
	end, err := j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	require.Len(t, end.Events, 3)
	var ids []string
	for _, r := range end.Events[:2] {
		require.Equal(t, events.TypeRollMade, r.Event.Type)
		var m events.RollMade
		require.NoError(t, r.Event.DecodeData(&m))
		ids = append(ids, m.Hidden)
	}
	require.Equal(t, []string{free.Events[0].Event.ID, third.Events[0].Event.ID}, ids)
	var ended events.SessionEnded
	require.NoError(t, end.Events[2].Event.DecodeData(&ended))
	require.Equal(t, 3, ended.Rolls)
}
