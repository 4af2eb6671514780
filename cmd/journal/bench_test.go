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
	"--verify-rolls", "30", "--rounds", "1", "--many-campaigns", "3", "--growth-characters", "1,2", "--growth-campaigns", "1,2",
	"--growth-rolls", "5", "--cold-events", "200,400", "--cold-campaign-events", "100", "--cold-loads", "1", "--v2-rolls", "3",
	"--pages-events", "200,400", "--pages-repeats", "2", "--pages-rolls", "2"}

func TestBenchJSON(t *testing.T) {
	c := newCLI(t)
	out := c.ok(append([]string{"bench", "--json", "--sync", "default", "--tmp", t.TempDir()}, benchTiny...)...)
	var r bench.Report
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	require.Positive(t, r.Machine.CPUs)
	require.Len(t, r.Runs, 1)
	require.Equal(t, "default", r.Runs[0].Sync)
	require.Len(t, r.Runs[0].Pairs, len(bench.AllStages())-5, "growth, cold load, v2 roll, cli and pages are not pairs")
	for _, p := range r.Runs[0].Pairs {
		require.Positive(t, p.Journal.PerSecond, p.Stage)
		require.Positive(t, p.Raw.PerSecond, p.Stage)
		require.Positive(t, p.Ratio, p.Stage)
	}
	require.NotNil(t, r.Runs[0].Growth)
	require.NotNil(t, r.Runs[0].ColdLoad)
	require.NotNil(t, r.Runs[0].V2Roll)
	require.Len(t, r.Runs[0].V2Roll.Paths, 3)

	// Every target, at the top level, each with name, value, target and met.
	var raw struct {
		Targets []map[string]any `json:"targets"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	require.Len(t, raw.Targets, len(bench.TargetNames()))
	for i, v := range raw.Targets {
		require.Equal(t, bench.TargetNames()[i], v["name"])
		for _, k := range []string{"value", "target", "met", "measured", "compare"} {
			require.Contains(t, v, k, v["name"])
		}
	}
}

func TestBenchText(t *testing.T) {
	c := newCLI(t)
	out, errOut, code := c.run(append([]string{"bench", "--sync", "always", "--stages", "verification,appends-sequential,v2-roll", "--tmp", t.TempDir()}, benchTiny...)...)
	require.Equal(t, 0, code, errOut)
	require.Empty(t, errOut, "no progress line when stderr is not a terminal")
	for _, want := range []string{"sync always", "appends-sequential", "verification", "ratio", "target", "█", "guarded/raw", "journal/guarded", "v2 roll (signed request, then signed reveal)", "request p50", "v2/v1: p50"} {
		require.Contains(t, out, want)
	}
	// The output ends with the table of every target.
	tail := out[strings.LastIndex(out, "\ntargets ("):]
	for _, name := range bench.TargetNames() {
		require.Contains(t, tail, name)
	}
	require.Contains(t, tail, "not measured")
	require.Equal(t, len(bench.TargetNames())+2, strings.Count(strings.TrimSpace(tail), "\n")+1, "the table is the end of the output")
	require.NotContains(t, out[:strings.LastIndex(out, "\ntargets (")], "rebuild ", "only the stages asked are run")
	require.Equal(t, strings.Index(out, "appends-sequential") < strings.Index(out, "verification"), true, "stages in order")
}

func TestBenchRefusesBadFlags(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{
		{"bench", "--sync", "sometimes"},
		{"bench", "--stages", "everything"},
		{"bench", "--campaigns", "5", "--characters", "2"},
		{"bench", "--rolls", "0"},
		{"bench", "--v2-rolls", "0"},
		{"bench", "extra"},
	} {
		_, errOut, code := c.run(args...)
		require.NotEqual(t, 0, code, args)
		require.NotEmpty(t, errOut, args)
	}
}

// TestBenchRepeat: --repeat N makes N whole runs and ends with each
// target's value in every run and the runs that met it.
func TestBenchRepeat(t *testing.T) {
	c := newCLI(t)
	args := append([]string{"bench", "--sync", "default", "--stages", "verification,appends-sequential", "--repeat", "2", "--tmp", t.TempDir()}, benchTiny...)
	out := c.ok(append(args, "--json")...)
	var s bench.Series
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	require.Len(t, s.Repeats, 2)
	for _, r := range s.Repeats {
		require.Len(t, r.Runs, 1)
		require.Len(t, r.Targets, len(bench.TargetNames()))
	}
	require.Len(t, s.Tally, len(bench.TargetNames()))
	for i, tl := range s.Tally {
		require.Equal(t, bench.TargetNames()[i], tl.Name)
		require.Equal(t, 2, tl.Runs)
		require.False(t, tl.Held, "two runs cannot hold a target")
		for k, r := range s.Repeats {
			require.Equal(t, r.Targets[i].Value, tl.Values[k], tl.Name)
		}
	}
	text := c.ok(append(args, "--lang", "en")...)
	require.Contains(t, text, "=== run 2 of 2 ===")
	require.Contains(t, text, "targets over 2 runs")
	require.Contains(t, text, bench.TSeqGuardedRaw)

	_, errOut, code := c.run("bench", "--repeat", "0")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "--repeat")
}
