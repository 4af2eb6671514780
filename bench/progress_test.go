package bench_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/bench"
)

func TestSyncModes(t *testing.T) {
	for mode, want := range map[string][]bool{"always": {true}, "default": {false}, "both": {true, false}} {
		got, ok := bench.SyncModes(mode)
		require.True(t, ok, mode)
		require.Equal(t, want, got, mode)
	}
	_, ok := bench.SyncModes("sometimes")
	require.False(t, ok)
}

func TestLine(t *testing.T) {
	var b strings.Builder
	l := &bench.Line{W: &b, Sync: "always"}
	l.Clear() // nothing shown: nothing to erase
	require.Empty(t, b.String())
	l.Show(bench.Progress{Stage: "rebuild", Phase: "fill", Done: 5, Total: 10})
	l.Show(bench.Progress{Stage: "rebuild", Phase: "fill", Done: 6, Total: 10}) // within 100 ms: skipped
	l.Clear()
	require.Equal(t, "\r\033[Kbench (sync always): rebuild, fill, 5/10 (50%)\r\033[K", b.String())
}
