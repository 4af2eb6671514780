package command_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/projections"
)

// A player may spend the token on an initiative roll, as before any roll
// (docs/rules.md 1.7): one level higher, and the GM holds the token after.
func TestInitiativeToken(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()
	before := count(t, store)
	for _, tt := range []struct {
		name  string
		token []string
		want  string
	}{
		{"not a participant", []string{"ruisenor"}, "ruisenor: not a participant"},
		{"named twice", []string{"lodin", "lodin"}, "named twice"},
		{"an NPC has no token", []string{"orco"}, "no token"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := j.StartCombatWith(ctx, "mordor", command.CombatStart{Participants: []string{"lodin", "orco"}, Token: tt.token})
			require.ErrorIs(t, err, command.ErrInvalid)
			require.ErrorContains(t, err, tt.want)
			require.Equal(t, before, count(t, store))
		})
	}
	res, err := j.StartCombatWith(ctx, "mordor", command.CombatStart{Participants: []string{"lodin", "ruisenor", "orco"}, Token: []string{"lodin"}})
	require.NoError(t, err)
	levels := map[string]string{}
	for _, x := range res.Events[:3] {
		r := payload[*events.RollMade](t, x)
		require.Equal(t, r.Character == "lodin", r.Token, r.Character)
		levels[r.Character] = r.Level
	}
	require.Equal(t, map[string]string{"lodin": "high", "ruisenor": "mid", "orco": "mid"}, levels)
	c, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.NotEqual(t, projections.TokenWithPlayer, c.Characters["lodin"].Token)
	require.Equal(t, projections.TokenWithPlayer, c.Characters["ruisenor"].Token)
}
