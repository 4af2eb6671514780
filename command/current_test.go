package command_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events/memstore"
)

// TestCurrentIsTheNextCommandsFold: Current folds the campaign into the
// journal's cache and returns a copy of that state, equal to a load; the
// next command decides on the cached fold without reading the campaign
// again (it reads back only what it appended, none here: no request id),
// and a change to the copy changes nothing the journal holds.
func TestCurrentIsTheNextCommandsFold(t *testing.T) {
	ctx := context.Background()
	inner := memstore.New(memstore.Options{})
	setup(t, newJournal(t, inner)) // another process: this journal's cache is cold
	st := &countingStore{Store: inner}
	j := command.New(st, command.Options{Secrets: inner})

	cur, err := j.Current(ctx, "mordor")
	require.NoError(t, err)
	loaded, err := newJournal(t, inner).Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, loaded, cur)
	require.Equal(t, loaded.Events, st.reads(), "Current folded the campaign once")

	// The copy is the caller's.
	cur.Characters["lodin"].HP = -40
	cur.Roster = nil

	res, err := j.Damage(ctx, "mordor", "lodin", 2, "")
	require.NoError(t, err)
	require.Zero(t, st.reads(), "the command decided on the cached fold: nothing read")
	require.Equal(t, loaded.Characters["lodin"].HP-2, res.Campaign.Characters["lodin"].HP)
	require.Len(t, res.Campaign.Roster, 3)

	again, err := j.Current(ctx, "mordor")
	require.NoError(t, err)
	require.Zero(t, st.reads(), "caught up: nothing recorded since")
	require.Equal(t, res.Campaign, again)
	require.NotSame(t, res.Campaign, again)

	_, err = j.Current(ctx, "no such.campaign")
	require.ErrorIs(t, err, command.ErrInvalid)
}
