package replay

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

func TestParseSeeds(t *testing.T) {
	hex := strings.Repeat("ab", 32)
	seeds, bare, err := ParseSeeds([]string{"s1=" + hex, hex}, "")
	require.NoError(t, err)
	require.Equal(t, map[string]string{"s1": hex}, seeds)
	require.Equal(t, hex, bare)
	seeds, bare, err = ParseSeeds([]string{hex}, "s2")
	require.NoError(t, err)
	require.Equal(t, map[string]string{"s2": hex}, seeds)
	require.Empty(t, bare)
	_, _, err = ParseSeeds([]string{hex, hex}, "")
	require.ErrorContains(t, err, "two seeds without a session")
	_, _, err = ParseSeeds([]string{"s1=zz"}, "")
	require.ErrorContains(t, err, `--seed "s1=zz"`)
}

func TestUnrevealed(t *testing.T) {
	ev := func(campaign, session, typ string) events.Event {
		return events.Event{Campaign: campaign, Session: session, Type: typ}
	}
	src := Events(
		ev("mordor", "s1", events.TypeSessionStarted),
		ev("erebor", "s1", events.TypeSessionStarted),
		ev("mordor", "s1", events.TypeSessionEnded),
		ev("mordor", "s2", events.TypeSessionStarted),
	)
	open, err := Unrevealed(context.Background(), src, "")
	require.NoError(t, err)
	require.Equal(t, []string{"erebor/s1", "mordor/s2"}, open)
	open, err = Unrevealed(context.Background(), src, "mordor")
	require.NoError(t, err)
	require.Equal(t, []string{"mordor/s2"}, open)
}
