package command_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/rules/ryf"
)

// TestCallsInTheOneRing: a The One Ring call names a skill as the rules
// do (English or unaccented names are recorded in Spanish) and a TN; an
// answer rolls that skill against that TN (14 when not given), once per
// character; an attribute call, and a TN out of range, are refused.
func TestCallsInTheOneRing(t *testing.T) {
	ctx := context.Background()
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setupTOR(t, j)
	for _, req := range []command.CallRequest{
		{Characters: []string{"bilbo"}, Attribute: "Corazón"},
		{Characters: []string{"bilbo"}, Skill: "atencion", Vs: "0"},
		{Characters: []string{"bilbo"}, Skill: "atencion", Vs: "dura"},
		{Characters: []string{"bilbo"}, Skill: "Atenshun"},
	} {
		n := count(t, store)
		_, err := j.MakeCall(ctx, arda, req)
		require.ErrorIs(t, err, command.ErrInvalid, "%+v", req)
		require.Equal(t, n, count(t, store))
	}
	res, err := j.MakeCall(ctx, arda, command.CallRequest{Characters: []string{"bilbo", "thorin"}, Skill: "awareness"})
	require.NoError(t, err)
	made := payload[*events.CallMade](t, res.Events[0])
	require.Equal(t, "Atención", made.Skill)
	require.Equal(t, "call-1", made.Call)
	_, err = j.Roll(ctx, arda, command.RollRequest{Character: "bilbo", Skill: "Sigilo", Call: "call-1"})
	require.ErrorIs(t, err, command.ErrInvalid, "another skill")
	res, err = j.Roll(ctx, arda, command.RollRequest{Character: "bilbo", Skill: "atención", Call: "call-1"})
	require.NoError(t, err)
	require.Len(t, res.Events, 2)
	answer := payload[*events.CallAnswered](t, res.Events[1])
	require.Equal(t, res.Events[0].Event.ID, answer.Event)
	_, err = j.Roll(ctx, arda, command.RollRequest{Character: "bilbo", Skill: "atención", Call: "call-1"})
	require.ErrorIs(t, err, command.ErrAlreadyAnswered)
	require.Equal(t, command.ClassConflict, command.Classify(err))

	res, err = j.MakeCall(ctx, arda, command.CallRequest{Characters: []string{"thorin"}, Skill: "Impresionar", Vs: "16"})
	require.NoError(t, err)
	_, err = j.Roll(ctx, arda, command.RollRequest{Character: "thorin", Skill: "Impresionar", Call: "call-2"})
	require.ErrorIs(t, err, command.ErrInvalid, "TN 14, the call is against 16")
	tn := 16
	_, err = j.Roll(ctx, arda, command.RollRequest{Character: "thorin", Skill: "Impresionar", TN: &tn, Call: "call-2"})
	require.NoError(t, err)
	c := load(t, j)
	require.Len(t, c.Calls, 2)
	require.Contains(t, c.Calls[0].Answered, "bilbo")
	require.NotContains(t, c.Calls[0].Answered, "thorin")
}

// TestCallsInRyF: skills and attributes named otherwise are recorded as
// the rules name them; an ambiguous or unknown name is refused with the
// rules' candidates or suggestion; a closed call takes no answer; the void
// of an answer frees its character; ids are not given twice, a voided
// call's neither.
func TestCallsInRyF(t *testing.T) {
	ctx := context.Background()
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	_, err := j.MakeCall(ctx, "mordor", command.CallRequest{Characters: []string{"lodin"}, Skill: "Sigolo"})
	require.ErrorIs(t, err, ryf.ErrUnknownSkill)
	require.Contains(t, err.Error(), "Sigilo", "the rules' suggestion")
	_, err = j.MakeCall(ctx, "mordor", command.CallRequest{Characters: []string{"lodin"}, Skill: "armas"})
	require.ErrorIs(t, err, ryf.ErrAmbiguous)
	res, err := j.MakeCall(ctx, "mordor", command.CallRequest{Characters: []string{"lodin", "ruisenor"}, Skill: "advertir", Vs: "media"})
	require.NoError(t, err)
	require.Equal(t, "Advertir/Notar", payload[*events.CallMade](t, res.Events[0]).Skill)
	callEvent := res.Events[0].Event.ID
	res, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "notar", Vs: "15", Call: "call-1"})
	require.NoError(t, err, "notar is Advertir/Notar, 15 is media")
	answer := res.Events[1].Event.ID
	_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "notar", Vs: "media", Call: "call-1"})
	require.ErrorIs(t, err, command.ErrAlreadyAnswered)
	_, err = j.Void(ctx, "mordor", answer, "rolled before the GM was ready")
	require.NoError(t, err)
	_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "notar", Vs: "media", Call: "call-1"})
	require.NoError(t, err, "the void of the answer frees ruisenor")

	_, err = j.CloseCall(ctx, "mordor", command.CallClose{Call: "call-1", Reason: "enough"})
	require.NoError(t, err)
	_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Advertir/Notar", Vs: "media", Call: "call-1"})
	require.True(t, errors.Is(err, command.ErrCallClosed), "%v", err)
	_, err = j.CloseCall(ctx, "mordor", command.CallClose{Call: "call-7"})
	require.ErrorIs(t, err, command.ErrNotFound)

	res, err = j.MakeCall(ctx, "mordor", command.CallRequest{Characters: []string{"lodin"}, Attribute: "fuerza"})
	require.NoError(t, err)
	require.Equal(t, "call-2", payload[*events.CallMade](t, res.Events[0]).Call)
	_, err = j.Void(ctx, "mordor", res.Events[0].Event.ID, "wrong call")
	require.NoError(t, err)
	res, err = j.MakeCall(ctx, "mordor", command.CallRequest{Characters: []string{"lodin"}, Attribute: "F"})
	require.NoError(t, err)
	require.Equal(t, "call-3", payload[*events.CallMade](t, res.Events[0]).Call, "a voided call's id is not given again")
	_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Attribute: "F", Call: "call-3"})
	require.NoError(t, err, "F is fuerza")
	require.NotEmpty(t, callEvent)
}
