package bench

import (
	"fmt"
	"slices"
	"strings"
)

// The targets of BENCHMARKS.md. Ratios are of rates measured in the
// same run; spreads are the highest p50 over the lowest.
const (
	// TargetGuarded is the floor of journal/guarded and of guarded/raw for
	// the append stages at JetStream's default sync.
	TargetGuarded = 0.85
	// TargetSyncedAppends is the floor of journal/raw for the append
	// stages with every write synced.
	TargetSyncedAppends = 0.9
	// TargetGrowth is the ceiling of the append p50's spread across the
	// growth sizes.
	TargetGrowth = 1.25
	// TargetColdLoad is the ceiling of the cold load's p50 at 1 000 000
	// events over its p50 at 100 000.
	TargetColdLoad = 1.5
	// TargetColdLoadMS is the ceiling of the cold load's p50, in
	// milliseconds, with 1 000 000 events in the stream.
	TargetColdLoadMS = 3.0
	// TargetCLIVersionMS and TargetCLICommandMS are the ceilings of the
	// wall p50, in milliseconds, of `journal version` and of a command
	// with the embedded server (the cli stage).
	TargetCLIVersionMS = 8.0
	TargetCLICommandMS = 25.0
	// TargetCLIFolds is the ceiling of the folds of its campaign one
	// command makes through a running serve (counted on the wire).
	TargetCLIFolds = 1.0
	// TargetV2RollP99 is the ceiling of a v2 roll's p99 over a v1 roll's,
	// on the worst of the v2-roll stage's paths.
	TargetV2RollP99 = 3.0
	// TargetPagesMS is the ceiling, in milliseconds, of the p50 of a
	// page's first card and of its interactive state (the dashboard's and
	// the table's) with campaigns of 10 000 and 100 000 events.
	TargetPagesMS = 300.0
	// TargetRollToCardMS is the ceiling of the p50, in milliseconds, from
	// a roll's POST to its card on another client's live feed.
	TargetRollToCardMS = 50.0
	// TargetRebuild is the floor of rebuild / raw ordered consumer.
	TargetRebuild = 0.9
	// TargetRebuildRSSMB is the ceiling of the peak RSS, in MB, of
	// rebuilding 1 000 000 events over 10 000 characters.
	TargetRebuildRSSMB = 150
	// TargetVerify is the floor of the verification of v1 sessions /
	// decode-only, both on every core.
	TargetVerify = 0.7
	// TargetVerifyV2 is the floor of the verification of journal-dice-v2
	// sessions / decoding plus the same Ed25519 checks, both on every core.
	TargetVerifyV2 = 0.8
)

// The target names of Targets, in the order it lists them.
const (
	TSeqJournalGuarded  = "default-sync/appends-sequential/journal-vs-guarded"
	TSeqGuardedRaw      = "default-sync/appends-sequential/guarded-vs-raw"
	TConcJournalGuarded = "default-sync/appends-concurrent/journal-vs-guarded"
	TConcGuardedRaw     = "default-sync/appends-concurrent/guarded-vs-raw"
	TManyJournalGuarded = "default-sync/appends-concurrent-many/journal-vs-guarded"
	TManyGuardedRaw     = "default-sync/appends-concurrent-many/guarded-vs-raw"
	TSyncedSeq          = "sync-always/appends-sequential/journal-vs-raw"
	TSyncedConc         = "sync-always/appends-concurrent/journal-vs-raw"
	TSyncedMany         = "sync-always/appends-concurrent-many/journal-vs-raw"
	TGrowthCharacters   = "growth/characters/p50-spread"
	TGrowthCampaigns    = "growth/campaigns/p50-spread"
	TColdLoad           = "cold-load/p50-1m-vs-100k"
	TColdLoadMS         = "cold-load/p50-1m-ms"
	TCLIVersion         = "cli/version-p50-ms"
	TCLICommand         = "cli/command-embedded-p50-ms"
	TCLIRemote          = "cli/command-serve-remote-p50-ms"
	TCLILocal           = "cli/command-serve-local-p50-ms"
	TCLIFolds           = "cli/command-serve-folds-max"
	TV2RollP99          = "v2-roll/p99-v2-vs-v1-worst-path"
	TPagesDashFirst     = "pages/dashboard/first-card-p50-ms"
	TPagesDashReady     = "pages/dashboard/interactive-p50-ms"
	TPagesTableFirst    = "pages/table/first-card-p50-ms"
	TPagesTableReady    = "pages/table/interactive-p50-ms"
	TPagesRollToCard    = "pages/roll-to-card-p50-ms"
	TRebuild            = "rebuild/journal-vs-raw"
	TRebuildRSS         = "rebuild/1m-events-10k-characters/peak-rss-mb"
	TVerifyV1           = "verification/v1/journal-vs-decode"
	TVerifyV2           = "verification/v2-ed25519/journal-vs-decode"
)

// TargetNames returns the name of every target, in the order Targets lists
// them.
func TargetNames() []string {
	return []string{TSeqJournalGuarded, TSeqGuardedRaw, TConcJournalGuarded, TConcGuardedRaw, TManyJournalGuarded, TManyGuardedRaw,
		TSyncedSeq, TSyncedConc, TSyncedMany, TGrowthCharacters, TGrowthCampaigns, TColdLoad, TColdLoadMS, TCLIVersion, TCLICommand,
		TCLIRemote, TCLILocal, TCLIFolds, TV2RollP99, TPagesDashFirst, TPagesDashReady, TPagesTableFirst, TPagesTableReady, TPagesRollToCard, TRebuild, TRebuildRSS, TVerifyV1, TVerifyV2}
}

// Verdict is one target of BENCHMARKS.md judged against a run.
type Verdict struct {
	Name string `json:"name"`
	// What says in words what Value is.
	What string `json:"what"`
	// Value is the figure measured (0 when not measured); Target the bound;
	// Compare ">=" (Value must reach Target) or "<=" (must not exceed it).
	Value   float64 `json:"value"`
	Target  float64 `json:"target"`
	Compare string  `json:"compare"`
	// Measured says whether Value was measured as the target states it
	// (its stage ran, with its sync setting and at its sizes); Met is
	// Measured and Value on the right side of Target.
	Measured bool `json:"measured"`
	Met      bool `json:"met"`
	// Note says where Value comes from, or why it was not measured.
	Note string `json:"note,omitempty"`
}

// judge sets v.Met from v.Value, v.Target and v.Compare.
func (v *Verdict) judge() {
	switch v.Compare {
	case ">=":
		v.Met = v.Measured && v.Value >= v.Target
	case "<=":
		v.Met = v.Measured && v.Value <= v.Target
	default:
		v.Met = false
	}
}

// Targets judges every target of BENCHMARKS.md against the runs of one
// `journal bench`, each target exactly once, in the order of TargetNames. A
// target whose stage did not run (or ran with the other sync setting, or
// at other sizes) is listed as not measured, and not met. Targets that do
// not depend on the sync setting are taken from the run at JetStream's
// default sync when there is one, else from the synced run.
func Targets(runs []Result) []Verdict {
	byName := map[string]*Result{}
	for i := range runs {
		byName[runs[i].Sync] = &runs[i]
	}
	pair := func(r *Result, stage string) *Pair {
		if r == nil {
			return nil
		}
		for i := range r.Pairs {
			if r.Pairs[i].Stage == stage {
				return &r.Pairs[i]
			}
		}
		return nil
	}
	either := func(has func(*Result) bool) *Result {
		for _, s := range []string{"default", "always"} {
			if r := byName[s]; r != nil && has(r) {
				return r
			}
		}
		return nil
	}
	var out []Verdict
	add := func(v Verdict) {
		v.judge()
		out = append(out, v)
	}
	ratio := func(name, what, sync, stage string, target float64, value func(*Pair) float64, size func(Options) string) {
		v := Verdict{Name: name, What: what, Target: target, Compare: ">="}
		r := byName[sync]
		if p := pair(r, stage); p != nil {
			v.Value, v.Measured = value(p), true
			v.Note = fmt.Sprintf("sync %s, %s", sync, size(r.Options))
		} else {
			v.Note = fmt.Sprintf("not measured: stage %s not run with sync %s", stage, sync)
		}
		add(v)
	}
	journalGuarded := func(p *Pair) float64 { return p.CodeRatio }
	guardedRaw := func(p *Pair) float64 { return p.GuardedRatio }
	journalRaw := func(p *Pair) float64 { return p.Ratio }
	seqSize := func(o Options) string { return fmt.Sprintf("%d rolls, one client", o.Rolls) }
	concSize := func(o Options) string { return fmt.Sprintf("%d rolls over %d campaigns", o.Rolls, o.Campaigns) }
	manySize := func(o Options) string { return fmt.Sprintf("%d rolls over %d campaigns", o.Rolls, o.ManyCampaigns) }

	ratio(TSeqJournalGuarded, "sequential appends: journal / guarded raw", "default", StageSequential, TargetGuarded, journalGuarded, seqSize)
	ratio(TSeqGuardedRaw, "sequential appends: guarded raw / raw", "default", StageSequential, TargetGuarded, guardedRaw, seqSize)
	ratio(TConcJournalGuarded, "concurrent appends (100 campaigns): journal / guarded raw", "default", StageConcurrent, TargetGuarded, journalGuarded, concSize)
	ratio(TConcGuardedRaw, "concurrent appends (100 campaigns): guarded raw / raw", "default", StageConcurrent, TargetGuarded, guardedRaw, concSize)
	ratio(TManyJournalGuarded, "concurrent appends (10 000 campaigns): journal / guarded raw", "default", StageConcurrentMany, TargetGuarded, journalGuarded, manySize)
	ratio(TManyGuardedRaw, "concurrent appends (10 000 campaigns): guarded raw / raw", "default", StageConcurrentMany, TargetGuarded, guardedRaw, manySize)
	ratio(TSyncedSeq, "sequential appends, every write synced: journal / raw", "always", StageSequential, TargetSyncedAppends, journalRaw, seqSize)
	ratio(TSyncedConc, "concurrent appends (100 campaigns), every write synced: journal / raw", "always", StageConcurrent, TargetSyncedAppends, journalRaw, concSize)
	ratio(TSyncedMany, "concurrent appends (10 000 campaigns), every write synced: journal / raw", "always", StageConcurrentMany, TargetSyncedAppends, journalRaw, manySize)

	// Growth.
	gr := either(func(r *Result) bool { return r.Growth != nil })
	growthV := func(name, what string, nominal []int, sizes func(Options) []int, value func(*Growth) float64) {
		v := Verdict{Name: name, What: what, Target: TargetGrowth, Compare: "<="}
		if gr == nil {
			v.Note = "not measured: stage growth not run"
		} else {
			v.Value = value(gr.Growth)
			v.Measured = slices.Equal(sizes(gr.Options), nominal)
			v.Note = fmt.Sprintf("sync %s, sizes %v, %d rolls each", gr.Sync, sizes(gr.Options), gr.Options.GrowthRolls)
			if !v.Measured {
				v.Note += fmt.Sprintf(": not the target's sizes %v", nominal)
			}
		}
		add(v)
	}
	growthV(TGrowthCharacters, "append p50, highest / lowest, one campaign of 10, 1 000, 10 000 characters",
		[]int{10, 1000, 10_000}, func(o Options) []int { return o.GrowthCharacters }, func(g *Growth) float64 { return g.CharactersSpread })
	growthV(TGrowthCampaigns, "append p50, highest / lowest, 1, 100, 10 000 campaigns in the stream",
		[]int{1, 100, 10_000}, func(o Options) []int { return o.GrowthCampaigns }, func(g *Growth) float64 { return g.CampaignsSpread })

	// Cold load.
	{
		v := Verdict{Name: TColdLoad, What: "cold load of a campaign of 1 000 events, p50 at 1 000 000 events in the stream / at 100 000", Target: TargetColdLoad, Compare: "<="}
		r := either(func(r *Result) bool { return r.ColdLoad != nil })
		if r == nil {
			v.Note = "not measured: stage cold-load not run"
		} else {
			o := r.Options
			v.Value = r.ColdLoad.Spread
			v.Measured = slices.Equal(o.ColdEvents, []int{100_000, 1_000_000}) && o.ColdCampaignEvents == 1000
			v.Note = fmt.Sprintf("sync %s, streams of %v events, campaigns of %d events, %d loads each", r.Sync, o.ColdEvents, o.ColdCampaignEvents, o.ColdLoads)
			if !v.Measured {
				v.Note += ": not the target's sizes [100000 1000000], 1000"
			}
		}
		add(v)
		ms := Verdict{Name: TColdLoadMS, What: "cold load of a campaign of 1 000 events, p50 in ms at 1 000 000 events in the stream", Target: TargetColdLoadMS, Compare: "<="}
		if r == nil {
			ms.Note = "not measured: stage cold-load not run"
		} else if ls := r.ColdLoad.Loads; len(ls) > 0 {
			last := ls[len(ls)-1]
			ms.Value = last.P50 / 1e3
			ms.Measured = v.Measured
			ms.Note = fmt.Sprintf("sync %s, %d events in the stream, CPU p50 %.2f ms, at most %d messages read by a load", r.Sync, last.Size, last.CPUP50/1e3, last.Read)
			if !ms.Measured {
				ms.Note += ": not the target's sizes"
			}
		}
		add(ms)
	}

	// The command line.
	cr := either(func(r *Result) bool { return r.CLI != nil })
	for _, t := range []struct {
		name, what string
		target     float64
		l          func(*CLI) Latency
	}{
		{TCLIVersion, "journal version, wall p50 in ms, the whole process", TargetCLIVersionMS, func(c *CLI) Latency { return c.Version }},
		{TCLICommand, "journal day new with the embedded server (no serve), wall p50 in ms, the whole process", TargetCLICommandMS, func(c *CLI) Latency { return c.Command }},
		{TCLIRemote, "journal --nats URL day new through a running serve --nats-listen, wall p50 in ms, the whole process", TargetCLICommandMS, func(c *CLI) Latency { return c.Remote.Latency }},
		{TCLILocal, "journal day new on the data folder of a running serve, wall p50 in ms, the whole process", TargetCLICommandMS, func(c *CLI) Latency { return c.Local.Latency }},
	} {
		v := Verdict{Name: t.name, What: t.what, Target: t.target, Compare: "<="}
		if cr == nil {
			v.Note = "not measured: stage cli not run (or without the journal binary)"
		} else {
			l := t.l(cr.CLI)
			v.Value, v.Measured = l.P50/1e3, true
			v.Note = fmt.Sprintf("%d runs, p90 %.1f ms, CPU p50 %.1f ms", cr.CLI.Runs, l.P90/1e3, l.CPUP50/1e3)
		}
		add(v)
	}
	{
		v := Verdict{Name: TCLIFolds, What: "folds of its campaign by one command through a running serve, the most of any timed run (both ways), counted on the wire", Target: TargetCLIFolds, Compare: "<="}
		if cr == nil {
			v.Note = "not measured: stage cli not run (or without the journal binary)"
		} else {
			c := cr.CLI
			v.Value, v.Measured = float64(max(c.Remote.FoldsMax, c.Local.FoldsMax)), true
			v.Note = fmt.Sprintf("--nats: %d, data folder: %d; JetStream requests per command p50 %d and %d; with the embedded server not seen on any wire (TestOneFoldPerCommand)",
				c.Remote.FoldsMax, c.Local.FoldsMax, c.Remote.RequestsP50, c.Local.RequestsP50)
		}
		add(v)
	}

	// A v2 roll's tail.
	{
		v := Verdict{Name: TV2RollP99, What: "a v2 roll's p99 / a v1 roll's p99 on the same path, the worst path", Target: TargetV2RollP99, Compare: "<="}
		r := either(func(r *Result) bool { return r.V2Roll != nil && len(r.V2Roll.Paths) > 0 })
		if r == nil {
			v.Note = "not measured: stage v2-roll not run"
		} else {
			var parts []string
			for _, p := range r.V2Roll.Paths {
				v.Value = max(v.Value, p.P99Ratio)
				parts = append(parts, fmt.Sprintf("%s %.2f (v1 %.1f ms, v2 %.1f ms)", p.Path, p.P99Ratio, p.V1.P99/1e3, p.V2.P99/1e3))
			}
			v.Measured = true
			v.Note = fmt.Sprintf("sync %s, %d rolls a path; %s", r.Sync, r.V2Roll.Rolls, strings.Join(parts, "; "))
		}
		add(v)
	}

	// The pages.
	pr := either(func(r *Result) bool { return r.Pages != nil })
	for _, t := range []struct {
		name, what string
		f          func(PagesSize) (p50, cold, restart float64)
	}{
		{TPagesDashFirst, "the dashboard's first card, p50 in ms, worst of campaigns of 10 000 and 100 000 events", func(s PagesSize) (float64, float64, float64) {
			return s.Dashboard.FirstCardP50, s.Dashboard.FirstCardCold, s.Dashboard.FirstCardRestart
		}},
		{TPagesDashReady, "the dashboard interactive (transcript, stats, live feed), p50 in ms, worst of 10 000 and 100 000 events", func(s PagesSize) (float64, float64, float64) {
			return s.Dashboard.InteractiveP50, s.Dashboard.InteractiveCold, s.Dashboard.InteractiveRestart
		}},
		{TPagesTableFirst, "the table's first card, p50 in ms, worst of 10 000 and 100 000 events", func(s PagesSize) (float64, float64, float64) {
			return s.Table.FirstCardP50, s.Table.FirstCardCold, s.Table.FirstCardRestart
		}},
		{TPagesTableReady, "the table interactive (live feed open), p50 in ms, worst of 10 000 and 100 000 events", func(s PagesSize) (float64, float64, float64) {
			return s.Table.InteractiveP50, s.Table.InteractiveCold, s.Table.InteractiveRestart
		}},
	} {
		v := Verdict{Name: t.name, What: t.what, Target: TargetPagesMS, Compare: "<="}
		if pr == nil {
			v.Note = "not measured: stage pages not run"
		} else {
			var sizes, parts []string
			for _, s := range pr.Pages.Sizes {
				p50, cold, restart := t.f(s)
				v.Value = max(v.Value, p50)
				sizes = append(sizes, fmt.Sprint(s.Events))
				parts = append(parts, fmt.Sprintf("%d events: p50 %.1f, first after start %.1f, after restart %.1f", s.Events, p50, cold, restart))
			}
			v.Measured = slices.Contains(sizes, "10000") && slices.Contains(sizes, "100000")
			v.Note = fmt.Sprintf("%d loads each; %s", pr.Pages.Repeats, strings.Join(parts, "; "))
			if !v.Measured {
				v.Note += ": not the target's sizes 10 000 and 100 000"
			}
		}
		add(v)
	}
	{
		v := Verdict{Name: TPagesRollToCard, What: "a roll's POST to its card on another client's live feed, p50 in ms", Target: TargetRollToCardMS, Compare: "<="}
		if pr == nil {
			v.Note = "not measured: stage pages not run"
		} else if l := pr.Pages.RollToCard; l.Count > 0 {
			v.Value, v.Measured = l.P50/1e3, true
			v.Note = fmt.Sprintf("%d rolls, p90 %.1f ms, p99 %.1f ms", l.Count, l.P90/1e3, l.P99/1e3)
		} else {
			v.Note = "not measured: no roll timed"
		}
		add(v)
	}

	// Rebuild.
	rb := either(func(r *Result) bool { return pair(r, StageRebuild) != nil })
	{
		v := Verdict{Name: TRebuild, What: "rebuild / raw ordered consumer", Target: TargetRebuild, Compare: ">="}
		if rb == nil {
			v.Note = "not measured: stage rebuild not run"
		} else {
			v.Value, v.Measured = pair(rb, StageRebuild).Ratio, true
			v.Note = fmt.Sprintf("sync %s, %d events over %d characters", rb.Sync, rb.Options.Events, rb.Options.Characters)
		}
		add(v)
	}
	{
		v := Verdict{Name: TRebuildRSS, What: "peak RSS (MB) rebuilding 1 000 000 events over 10 000 characters", Target: TargetRebuildRSSMB, Compare: "<="}
		if rb == nil {
			v.Note = "not measured: stage rebuild not run"
		} else {
			o := rb.Options
			v.Value = float64(pair(rb, StageRebuild).PeakRSS) / (1 << 20)
			v.Measured = o.Events >= 1_000_000 && o.Characters >= 10_000 && v.Value > 0
			v.Note = fmt.Sprintf("sync %s, %d events over %d characters", rb.Sync, o.Events, o.Characters)
			if !v.Measured {
				v.Note += ": not the target's 1 000 000 events over 10 000 characters"
			}
		}
		add(v)
	}

	// Verification.
	{
		v := Verdict{Name: TVerifyV1, What: "verification of a v1 session / decode-only, every core", Target: TargetVerify, Compare: ">="}
		r := either(func(r *Result) bool { return pair(r, StageVerify) != nil })
		if r == nil {
			v.Note = "not measured: stage verification not run"
		} else {
			v.Value, v.Measured = pair(r, StageVerify).Ratio, true
			v.Note = fmt.Sprintf("sync %s, %d rolls", r.Sync, r.Options.VerifyRolls)
		}
		add(v)
	}
	{
		v := Verdict{Name: TVerifyV2, What: "verification of journal-dice-v2 sessions / decode plus the same Ed25519 checks, every core", Target: TargetVerifyV2, Compare: ">="}
		r := either(func(r *Result) bool { return pair(r, StageVerifyV2) != nil })
		if r == nil {
			v.Note = "not measured: stage verification-v2 not run"
		} else {
			v.Value, v.Measured = pair(r, StageVerifyV2).Ratio, true
			v.Note = fmt.Sprintf("sync %s, %d rolls", r.Sync, r.Options.VerifyRolls)
		}
		add(v)
	}
	return out
}

// Tally is one target judged over several whole runs of `journal bench`
// (BENCHMARKS.md: "ratios from one run, met in most of at least 5
// runs; report every run").
type Tally struct {
	Name    string  `json:"name"`
	Target  float64 `json:"target"`
	Compare string  `json:"compare"`
	// Values holds the target's value in each run, in run order; Measured
	// and MetIn say in which runs it was measured and met.
	Values   []float64 `json:"values"`
	Measured []bool    `json:"measured"`
	MetIn    []bool    `json:"met_in"`
	// Runs counts the runs, Met the runs in which the target was met.
	Runs int `json:"runs"`
	Met  int `json:"met"`
	// Held says the target was met in most runs (more than half) of at
	// least MinRuns.
	Held bool `json:"held"`
}

// MinRuns is the fewest runs that can show a target held.
const MinRuns = 5

// TallyTargets judges every target over runs, one []Verdict (as Targets
// returns it) per whole run, in the order of TargetNames. A target
// missing from a run counts in it as not measured and not met.
func TallyTargets(runs [][]Verdict) []Tally {
	out := make([]Tally, 0, len(TargetNames()))
	for _, name := range TargetNames() {
		t := Tally{Name: name, Runs: len(runs)}
		for _, vs := range runs {
			var v Verdict
			for _, c := range vs {
				if c.Name == name {
					v = c
					break
				}
			}
			if t.Compare == "" {
				t.Target, t.Compare = v.Target, v.Compare
			}
			t.Values = append(t.Values, v.Value)
			t.Measured = append(t.Measured, v.Measured)
			t.MetIn = append(t.MetIn, v.Met)
			if v.Met {
				t.Met++
			}
		}
		t.Held = t.Runs >= MinRuns && 2*t.Met > t.Runs
		out = append(out, t)
	}
	return out
}
