package command_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
)

// TestCallKeepsItsRequestID: a call with a request id and an actor other
// than the journal's keeps both (a view's whole call is set at once, so
// no setter can drop the request id, as As(actor) after WithRequest
// did): retried, it is recorded once (Result.Repeated), under its
// request id and actor, with the event ids derived as they always were
// ("actor NUL what args-as-JSON"), so that recorded corpora keep theirs.
func TestCallKeepsItsRequestID(t *testing.T) {
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	j := freshJournal(st)
	setup(t, j)
	call := command.Call{Actor: "bea", RequestID: "r1", Command: "damage", What: "damage", Args: []any{"orco", 1}}
	view, err := j.For(call)
	require.NoError(t, err)
	first, err := view.Damage(ctx, "mordor", "orco", 1, "")
	require.NoError(t, err)
	require.False(t, first.Repeated)
	n := count(t, st)
	require.Len(t, first.Events, 1)
	ev := first.Events[0].Event
	require.Equal(t, "bea", ev.Actor)
	require.Equal(t, "r1", ev.RequestID)
	require.Equal(t, "damage", ev.Command)
	require.Equal(t, events.RequestEventID("mordor", "r1", "bea\x00damage [\"orco\",1]", 0), ev.ID)
	require.Equal(t, "dff88c45-c5ac-8a64-9ad6-5c8473373af0", ev.ID)

	// The same call again, on a view made afresh from the view (For on a
	// view inherits nothing from it) and on another process's journal.
	again, err := view.For(call)
	require.NoError(t, err)
	for i, retry := range []*command.Handler{view, again, freshJournal(st).MustFor(call)} {
		res, err := retry.Damage(ctx, "mordor", "orco", 1, "")
		require.NoError(t, err, "retry %d", i)
		require.True(t, res.Repeated, "retry %d: recorded again instead of repeated", i)
		require.Equal(t, n, count(t, st), "retry %d recorded something", i)
		require.Equal(t, ev.ID, res.Events[0].Event.ID, "retry %d", i)
	}
}

// TestCallRefusedRecordsNothing: a call For refuses (both roles, a
// malformed request id or command name) gives one error wrapping
// ErrInvalid and no view, so nothing can be recorded under it.
func TestCallRefusedRecordsNothing(t *testing.T) {
	st := memstore.New(memstore.Options{})
	j := freshJournal(st)
	setup(t, j)
	n := count(t, st)
	for name, c := range map[string]command.Call{
		"both roles":          {Actor: "ana", GM: true, Player: true},
		"request id with '/'": {Actor: "ana", RequestID: "a/b"},
		"request id too long": {RequestID: string(make([]byte, 65))},
		"command upper-case":  {Command: "Roll"},
	} {
		require.Error(t, c.Valid(), name)
		view, err := j.For(c)
		require.ErrorIs(t, err, command.ErrInvalid, name)
		require.Nil(t, view, name)
		require.Panics(t, func() { j.MustFor(c) }, name)
	}
	_, err := j.For(command.Call{GM: true, Player: true})
	require.ErrorIs(t, err, command.ErrBothRoles)
	require.Equal(t, n, count(t, st), "a refused call recorded something")
	for _, c := range []command.Call{{}, {Actor: "ana"}, {Actor: "ana", Player: true, RequestID: "r.1:x_y-z", Command: "roll"}, {GM: true}} {
		require.NoError(t, c.Valid(), "%+v", c)
	}
}
