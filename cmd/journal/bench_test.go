package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/bench"
)

// benchTiny are sizes with which `journal bench` runs in a few seconds.
var benchTiny = []string{"--rolls", "20", "--campaigns", "2", "--characters", "4", "--events", "200",
	"--verify-rolls", "30", "--rounds", "1"}

func TestBenchJSON(t *testing.T) {
	c := newCLI(t)
	out := c.ok(append([]string{"bench", "--json", "--sync", "default", "--tmp", t.TempDir()}, benchTiny...)...)
	var r benchReport
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	require.Positive(t, r.Machine.CPUs)
	require.Len(t, r.Runs, 1)
	require.Equal(t, "default", r.Runs[0].Sync)
	require.Len(t, r.Runs[0].Pairs, len(bench.AllStages()))
	for _, p := range r.Runs[0].Pairs {
		require.Positive(t, p.Journal.PerSecond, p.Stage)
		require.Positive(t, p.Raw.PerSecond, p.Stage)
		require.Positive(t, p.Ratio, p.Stage)
	}
}

func TestBenchText(t *testing.T) {
	c := newCLI(t)
	out, errOut, code := c.run(append([]string{"bench", "--sync", "always", "--stages", "verification,appends-sequential", "--tmp", t.TempDir()}, benchTiny...)...)
	require.Equal(t, 0, code, errOut)
	require.Empty(t, errOut, "no progress line when stderr is not a terminal")
	for _, want := range []string{"sync always", "appends-sequential", "verification", "ratio", "target", "█", "guarded/raw", "journal/guarded"} {
		require.Contains(t, out, want)
	}
	require.NotContains(t, out, "rebuild ")
	require.Equal(t, strings.Index(out, "appends-sequential") < strings.Index(out, "verification"), true, "stages in order")
}

func TestBenchRefusesBadFlags(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{
		{"bench", "--sync", "sometimes"},
		{"bench", "--stages", "everything"},
		{"bench", "--campaigns", "5", "--characters", "2"},
		{"bench", "--rolls", "0"},
		{"bench", "extra"},
	} {
		_, errOut, code := c.run(args...)
		require.NotEqual(t, 0, code, args)
		require.NotEmpty(t, errOut, args)
	}
}
