package command_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
)

// A roll's line (the CLI's output and the transcript) shows the GM's
// modifier, signed, when there is one; none when it is 0.
func TestRollLineShowsTheModifier(t *testing.T) {
	j := newJournal(t, memstore.New(memstore.Options{}))
	setup(t, j)
	ctx := context.Background()
	for _, tt := range []struct {
		mod    int
		en, es string
	}{
		{-2, "(base 10 with modifier -2, level", "(base 10 con modificador -2, nivel"},
		{3, "(base 15 with modifier +3, level", "(base 15 con modificador +3, nivel"},
		{0, "(base 12, level", "(base 12, nivel"},
	} {
		res, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Modifier: tt.mod})
		require.NoError(t, err)
		for l, want := range map[i18n.Lang]string{i18n.EN: tt.en, i18n.ES: tt.es} {
			c, err := j.Load(ctx, "mordor", res.Events[0].Seq-1)
			require.NoError(t, err)
			tr := &projections.Transcript{Campaign: c, Lang: l}
			require.NoError(t, tr.Apply(res.Events[0]))
			require.Contains(t, tr.Lines[0].Text, want)
		}
	}
}
