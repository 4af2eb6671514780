package command_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events/memstore"
)

// TestZeroOptions proves that Options{} is a working journal: the clock,
// the randomness and the ids default to the production ones, and a whole
// session (seed drawn, dice rolled, seed revealed) records.
func TestZeroOptions(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := command.New(store, command.Options{})
	setup(t, j)
	ctx := context.Background()
	res, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo"})
	require.NoError(t, err)
	require.Len(t, res.Events, 1)
	ev := res.Events[0].Event
	require.NotEmpty(t, ev.ID)
	require.False(t, ev.Time.IsZero())
	_, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)
}
