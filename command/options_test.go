package command_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
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

// TestSecretsApart: the sessions' seeds go where Options.Secrets says,
// not to the event store; a journal with nowhere to keep them refuses to
// start a session, and records nothing.
func TestSecretsApart(t *testing.T) {
	ctx := t.Context()
	st := memstore.New(memstore.Options{})
	kept := memstore.New(memstore.Options{}) // another store, used only for its secrets
	j := command.New(eventsOnly{st}, command.Options{Secrets: kept})
	_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"})
	require.NoError(t, err)
	_, err = j.StartSession(ctx, "mordor", "s1", "")
	require.NoError(t, err)
	key, err := events.SecretKey("seed", "mordor", "s1")
	require.NoError(t, err)
	_, err = kept.GetSecret(ctx, key)
	require.NoError(t, err, "the seed is kept in Options.Secrets")
	_, err = st.GetSecret(ctx, key)
	require.ErrorIs(t, err, events.ErrNotFound, "the event store keeps no seed")

	bare := memstore.New(memstore.Options{})
	none := command.New(eventsOnly{bare}, command.Options{})
	_, err = none.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"})
	require.NoError(t, err)
	before, err := bare.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	_, err = none.StartSession(ctx, "mordor", "s1", "")
	require.ErrorIs(t, err, command.ErrInvalid)
	after, err := bare.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	require.Equal(t, before, after, "a refused session start records nothing")
}

// eventsOnly hides a store's secrets: it is an event store and nothing else.
type eventsOnly struct{ s *memstore.Store }

func (e eventsOnly) Append(ctx context.Context, x events.Expect, evs ...events.Event) ([]uint64, error) {
	return e.s.Append(ctx, x, evs...)
}

func (e eventsOnly) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	return e.s.Read(ctx, q, fn)
}
