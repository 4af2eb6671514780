package replay

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// TestLossesReport: deleted and lost sequences are named, and a read that
// got fewer messages than the server counts says how many it misses; a
// nil Losses says nothing.
func TestLossesReport(t *testing.T) {
	var none *Losses
	w, n := none.Report(true)
	require.Empty(t, w)
	require.Zero(t, n)
	require.False(t, none.Counts())

	l := NewLosses([]events.Missing{{Stream: "JOURNAL", Deleted: 5, DeletedSeqs: []uint64{4, 9}, Count: 3, Last: 10}}, "journal.mordor.>")
	src := l.Source(Events(events.Event{Campaign: "mordor"}))
	require.NoError(t, src(context.Background(), func(Input) error { return nil }))
	w, n = l.Report(true)
	require.Equal(t, uint64(5+2), n, "5 deleted, and 2 of the 3 counted not read")
	require.Len(t, w, 2)
	require.Contains(t, w[0].Error(), "sequences 4, 9 and 3 more")
	require.True(t, strings.HasSuffix(w[1].Error(), "and gives only 1: 2 are in its files but cannot be read (damaged on disk)"), w[1].Error())
	_, n = l.Report(false)
	require.Equal(t, uint64(5), n, "an incomplete read is not compared with the count")
}
