package command_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
)

// TestRulesFollowTheCatalogue checks that the rules a journal keeps
// between commands take in a skill defined after they were first built,
// by this journal or by another writer.
func TestRulesFollowTheCatalogue(t *testing.T) {
	ctx := context.Background()
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	roll := command.RollRequest{Character: "lodin", Skill: "Alquimia"}
	_, err := j.Roll(ctx, "mordor", roll)
	require.ErrorIs(t, err, command.ErrInvalid, "no such skill yet")

	_, err = j.DefineSkill(ctx, "mordor", "Alquimia", "I")
	require.NoError(t, err)
	res, err := j.Roll(ctx, "mordor", roll)
	require.NoError(t, err, "the skill defined by this journal")
	require.Len(t, res.Events, 1)

	// Another writer (with ids of its own) defines a skill.
	other := command.New(store, command.Options{Clock: fixedClock(), Rand: rand.NewChaCha8([32]byte{1}),
		IDs: events.NewV7(fixedClock(), rand.NewChaCha8([32]byte{2}))})
	_, err = other.DefineSkill(ctx, "mordor", "Herrería", "F")
	require.NoError(t, err)
	_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Herrería"})
	require.NoError(t, err, "the skill defined by another writer")
}
