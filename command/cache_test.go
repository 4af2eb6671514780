package command_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events/memstore"
)

// TestCacheEvicts: a journal keeps at most CacheCampaigns campaigns' folds;
// a campaign whose fold was dropped is loaded again by its next command,
// which sees everything recorded, and a retried request after the drop
// still records once.
func TestCacheEvicts(t *testing.T) {
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	j := command.New(st, command.Options{CacheCampaigns: 3})
	for i := range 10 {
		id := fmt.Sprintf("c%d", i)
		_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: id, System: "ryf"})
		require.NoError(t, err)
		_, err = j.CreateCharacter(ctx, id, command.CreateCharacter{ID: "orco", NPC: true, Attributes: "F=7,R=4,D=5,I=3,P=4", Skills: "Pelea=4", Specialization: "Pelea"})
		require.NoError(t, err)
		require.LessOrEqual(t, j.CachedCampaigns(), 3, "after campaign %d", i)
	}
	rj, err := j.For(command.Call{RequestID: "0190c5a4-7b1e-7000-8000-000000000001"})
	require.NoError(t, err)
	_, err = rj.Damage(ctx, "c0", "orco", 2, "")
	require.NoError(t, err)
	n := count(t, st)
	for i := range 5 { // drop c0's fold again
		_, err := j.Load(ctx, fmt.Sprintf("c%d", 5+i), 0)
		require.NoError(t, err)
	}
	_, err = rj.Damage(ctx, "c0", "orco", 2, "")
	require.NoError(t, err)
	require.Equal(t, n, count(t, st), "the retry after the drop recorded again")
	c, err := j.Load(ctx, "c0", 0)
	require.NoError(t, err)
	require.Equal(t, c.Characters["orco"].MaxHP-2, c.Characters["orco"].HP)
	require.LessOrEqual(t, j.CachedCampaigns(), 3)
}
