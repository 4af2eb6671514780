package bench_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/bench"
)

// item5 names every target of the bench (BENCHMARKS.md), written out here apart
// from the package's list, so that dropping one from bench.Targets fails.
var item5 = []string{
	"default-sync/appends-sequential/journal-vs-guarded",
	"default-sync/appends-sequential/guarded-vs-raw",
	"default-sync/appends-concurrent/journal-vs-guarded",
	"default-sync/appends-concurrent/guarded-vs-raw",
	"default-sync/appends-concurrent-many/journal-vs-guarded",
	"default-sync/appends-concurrent-many/guarded-vs-raw",
	"sync-always/appends-sequential/journal-vs-raw",
	"sync-always/appends-concurrent/journal-vs-raw",
	"sync-always/appends-concurrent-many/journal-vs-raw",
	"growth/characters/p50-spread",
	"growth/campaigns/p50-spread",
	"cold-load/p50-1m-vs-100k",
	"cold-load/p50-1m-ms",
	"cli/version-p50-ms",
	"cli/command-embedded-p50-ms",
	"cli/command-serve-remote-p50-ms",
	"cli/command-serve-local-p50-ms",
	"cli/command-serve-folds-max",
	"v2-roll/p99-v2-vs-v1-worst-path",
	"pages/dashboard/first-card-p50-ms",
	"pages/dashboard/interactive-p50-ms",
	"pages/table/first-card-p50-ms",
	"pages/table/interactive-p50-ms",
	"pages/roll-to-card-p50-ms",
	"rebuild/journal-vs-raw",
	"rebuild/1m-events-10k-characters/peak-rss-mb",
	"verification/v1/journal-vs-decode",
	"verification/v2-ed25519/journal-vs-decode",
}

// runsAt returns a run of each sync setting at the targets' sizes in
// which every figure is off by the factor good from its target's bound
// on the side that meets it (good > 1) or misses it (good < 1).
func runsAt(good float64) []bench.Result {
	o := bench.DefaultOptions()
	o.Events, o.Characters = 1_000_000, 10_000
	floor := func(t float64) float64 { return t * good } // ">=" targets
	ceil := func(t float64) float64 { return t / good }  // "<=" targets
	appends := func(synced bool) []bench.Pair {
		var ps []bench.Pair
		for _, s := range []string{bench.StageSequential, bench.StageConcurrent, bench.StageConcurrentMany} {
			p := bench.Pair{Stage: s, CodeRatio: floor(bench.TargetGuarded), GuardedRatio: floor(bench.TargetGuarded)}
			if synced {
				p.Ratio = floor(bench.TargetSyncedAppends)
			}
			ps = append(ps, p)
		}
		return ps
	}
	folds := 1 // folds are whole: one meets the target, two miss it
	if good < 1 {
		folds = 2
	}
	def := bench.Result{Sync: "default", Options: o, Pairs: append(appends(false),
		bench.Pair{Stage: bench.StageRebuild, Ratio: floor(bench.TargetRebuild), PeakRSS: uint64(ceil(bench.TargetRebuildRSSMB) * (1 << 20))},
		bench.Pair{Stage: bench.StageVerify, Ratio: floor(bench.TargetVerify)},
		bench.Pair{Stage: bench.StageVerifyV2, Ratio: floor(bench.TargetVerifyV2)}),
		Growth: &bench.Growth{CharactersSpread: ceil(bench.TargetGrowth), CampaignsSpread: ceil(bench.TargetGrowth)},
		ColdLoad: &bench.ColdLoad{Spread: ceil(bench.TargetColdLoad),
			Loads: []bench.Latency{{Size: 100_000}, {Size: 1_000_000, P50: ceil(bench.TargetColdLoadMS) * 1e3}}},
		CLI: &bench.CLI{Runs: 15, Version: bench.Latency{P50: ceil(bench.TargetCLIVersionMS) * 1e3},
			Command: bench.Latency{P50: ceil(bench.TargetCLICommandMS) * 1e3},
			Remote:  bench.Served{Latency: bench.Latency{P50: ceil(bench.TargetCLICommandMS) * 1e3}, FoldsMax: folds},
			Local:   bench.Served{Latency: bench.Latency{P50: ceil(bench.TargetCLICommandMS) * 1e3}, FoldsMax: 1}},
		V2Roll: &bench.V2Roll{Rolls: 200, Paths: []bench.V2RollPath{{Path: bench.PathInProcess, P99Ratio: 1.5}, {Path: bench.PathCLI, P99Ratio: ceil(bench.TargetV2RollP99)}}},
		Pages:  pagesAt(ceil(bench.TargetPagesMS), ceil(bench.TargetRollToCardMS)),
	}
	always := bench.Result{Sync: "always", Options: o, Pairs: appends(true)}
	return []bench.Result{always, def}
}

// pagesAt is a pages stage at the targets' sizes whose p50s are ms and
// whose roll to card is rtc ms.
func pagesAt(ms, rtc float64) *bench.Pages {
	t := bench.PageTimes{FirstCardP50: ms, InteractiveP50: ms}
	return &bench.Pages{Repeats: 15, RollToCard: bench.RollLatency{Count: 50, P50: rtc * 1e3},
		Sizes: []bench.PagesSize{{Events: 10_000, Dashboard: t, Table: t}, {Events: 100_000, Dashboard: t, Table: t}}}
}

// TestTargetsComplete checks that Targets lists every target of item 5
// exactly once, and that met follows from value and target: every figure
// on the right side of its bound meets it, every figure on the wrong side
// misses it.
func TestTargetsComplete(t *testing.T) {
	for name, good := range map[string]float64{"all met": 1.02, "all missed": 0.98} {
		t.Run(name, func(t *testing.T) {
			vs := bench.Targets(runsAt(good))
			got := make([]string, 0, len(vs))
			for _, v := range vs {
				got = append(got, v.Name)
			}
			require.Equal(t, item5, got, "every target once, in order")
			require.Equal(t, item5, bench.TargetNames())
			for _, v := range vs {
				require.Contains(t, []string{">=", "<="}, v.Compare, v.Name)
				require.Positive(t, v.Target, v.Name)
				require.True(t, v.Measured, v.Name)
				require.Positive(t, v.Value, v.Name)
				require.Equal(t, good > 1, v.Met, "%s: value %v, target %s %v", v.Name, v.Value, v.Compare, v.Target)
				if v.Compare == ">=" {
					require.Equal(t, v.Value >= v.Target, v.Met, v.Name)
				} else {
					require.Equal(t, v.Value <= v.Target, v.Met, v.Name)
				}
			}
		})
	}
}

// TestTargetsNotMeasured checks that a target whose stage did not run, or
// ran at other sizes, is listed, not measured and not met.
func TestTargetsNotMeasured(t *testing.T) {
	vs := bench.Targets(nil)
	require.Len(t, vs, len(item5))
	for _, v := range vs {
		require.False(t, v.Measured, v.Name)
		require.False(t, v.Met, v.Name)
		require.Contains(t, v.Note, "not measured", v.Name)
	}

	runs := runsAt(1.5)
	runs[1].Options.Events = 100_000                 // the rebuild's RSS target is for 1 000 000 events
	runs[1].Options.ColdEvents = []int{1000, 10_000} // not the cold load's sizes
	runs[1].Options.GrowthCharacters = []int{10, 100}
	for _, v := range bench.Targets(runs) {
		switch v.Name {
		case bench.TRebuildRSS, bench.TColdLoad, bench.TColdLoadMS, bench.TGrowthCharacters:
			require.False(t, v.Measured, v.Name)
			require.False(t, v.Met, v.Name)
			require.Positive(t, v.Value, "%s: the figure is shown", v.Name)
		default:
			require.True(t, v.Met, v.Name)
		}
	}
}

// TestTallyTargets: a target is held when met in more than half of at
// least five runs, and not otherwise; every run's value is kept in order.
func TestTallyTargets(t *testing.T) {
	met, missed := bench.Targets(runsAt(1.2)), bench.Targets(runsAt(0.8))
	cases := []struct {
		name string
		runs [][]bench.Verdict
		met  int
		held bool
	}{
		{"3 of 5 met", [][]bench.Verdict{met, missed, met, missed, met}, 3, true},
		{"2 of 5 met", [][]bench.Verdict{missed, met, missed, met, missed}, 2, false},
		{"3 of 6 met: not most", [][]bench.Verdict{met, met, met, missed, missed, missed}, 3, false},
		{"4 of 4 met: too few runs", [][]bench.Verdict{met, met, met, met}, 4, false},
		{"one run without the target", [][]bench.Verdict{met, met, met, nil, nil}, 3, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := bench.TallyTargets(c.runs)
			require.Len(t, ts, len(item5))
			for i, tl := range ts {
				require.Equal(t, item5[i], tl.Name)
				require.Equal(t, len(c.runs), tl.Runs)
				require.Equal(t, c.met, tl.Met, tl.Name)
				require.Equal(t, c.held, tl.Held, tl.Name)
				require.Len(t, tl.Values, len(c.runs))
				require.NotEmpty(t, tl.Compare)
				for k, vs := range c.runs {
					want := 0.0
					for _, v := range vs {
						if v.Name == tl.Name {
							want = v.Value
						}
					}
					require.Equal(t, want, tl.Values[k], "%s run %d", tl.Name, k)
				}
			}
		})
	}
}
