package events_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

func TestOncePerForeign(t *testing.T) {
	var seen []uint64
	on := events.OncePerForeign(func(f events.Foreign) { seen = append(seen, f.Seq) })
	for _, s := range []uint64{3, 5, 3, 5, 7} {
		require.NoError(t, on(events.Foreign{Seq: s}))
	}
	require.Equal(t, []uint64{3, 5, 7}, seen)
}
