package command_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

// A contest is recorded under today's rules, or re-run under ryf/1 (its
// sides then not flagged opposed, and stamped ryf/1); any other version is
// refused with nothing recorded.
func TestContestRulesVersion(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()
	req := command.ContestRequest{A: "lodin", SkillA: "F", B: "orco", SkillB: "F"}

	res, err := j.Contest(ctx, "mordor", req)
	require.NoError(t, err)
	a, b, _ := contestRolls(t, res)
	for _, r := range [...]string{a.Rules, b.Rules} {
		require.Equal(t, ryf.RulesVersion, r)
	}
	require.True(t, a.Opposed && b.Opposed)

	req.Rules = ryf.RulesV1
	res, err = j.Contest(ctx, "mordor", req)
	require.NoError(t, err)
	a, b, _ = contestRolls(t, res)
	require.Equal(t, []string{ryf.RulesV1, ryf.RulesV1}, []string{a.Rules, b.Rules})
	require.False(t, a.Opposed || b.Opposed, "ryf/1 has no opposed rolls")
	for _, r := range [...]string{rolls.Version(*a), rolls.Version(*b)} {
		require.Equal(t, ryf.RulesV1, r)
	}

	before := count(t, store)
	for _, v := range []string{"ryf/9", "tor/1", "RYF/2"} {
		req.Rules = v
		_, err = j.Contest(ctx, "mordor", req)
		require.True(t, errors.Is(err, command.ErrInvalid), "rules %q: %v", v, err)
	}
	require.Equal(t, before, count(t, store), "nothing recorded")
}
