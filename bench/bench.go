// Package bench measures the journal against the NATS JetStream it runs on,
// in the same process, on the same embedded server and in the same run:
//
//   - appends: roll commands recorded per second (command.Handler.Roll: rules,
//     dice, envelope, codec check, Nats-Msg-Id dedupe and the campaign's
//     expected-last-sequence), one character after another and across many
//     campaigns at once, against raw synchronous and asynchronous publishes of
//     messages of the same size;
//   - rebuild: events read from the stream, decoded and folded into the
//     projections of every campaign per second, against a raw ordered consumer
//     reading the same stream;
//   - verification: rolls verified per second from an exported file
//     (replay.Verify), against merely decoding it, both on every core;
//   - verification-v2: the same for a campaign of journal-dice-v2
//     sessions, against decoding it plus the same Ed25519 checks;
//   - growth: the p50 of one roll command as a campaign gains characters
//     and as the stream gains campaigns (the sizes interleaved);
//   - cold load: a campaign loaded by a fresh journal on a freshly started
//     server, the stream at each of several sizes;
//   - v2 roll: the latency (p50, p99) of a journal-dice-v2 roll's two round
//     trips against a v1 roll's one, in-process, on the CLI's path and over
//     HTTP (a figure, without a target).
//
// Targets judges every target of BENCHMARKS.md against the runs of one
// `journal bench`.
//
// Each pair gives the ratio of the journal's rate to the raw one, and the
// peak memory of the process while the journal side ran.
//
// Invariants: the two sides of a pair use the same server, the same sync
// setting and the same message sizes, and alternate in rounds, so that load
// from elsewhere on the machine falls on both. Nothing here asserts a speed.
// Run starts its own embedded server in a temporary folder and removes the
// folder when it returns.
package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// Stages Run can measure, in the order it measures them.
const (
	StageSequential = "appends-sequential"
	StageConcurrent = "appends-concurrent"
	// StageConcurrentMany is the concurrent appends over ManyCampaigns
	// campaigns (10 000 by default) in the same stream.
	StageConcurrentMany = "appends-concurrent-many"
	// StageGrowth is the append latency (p50) as one campaign gains
	// characters and as the stream gains campaigns.
	StageGrowth  = "growth"
	StageRebuild = "rebuild"
	// StageColdLoad is the load of a campaign of about 1 000 events by a
	// fresh journal (command.Handler.Load), the stream at each of
	// ColdEvents events.
	StageColdLoad = "cold-load"
	StageVerify   = "verification"
	// StageVerifyV2 is the verification of a campaign of journal-dice-v2
	// sessions against decoding it and checking its Ed25519 signatures.
	StageVerifyV2 = "verification-v2"
	// StageV2Roll is a journal-dice-v2 roll's two round trips (signed
	// request, then signed reveal) against a v1 roll, in-process and over
	// HTTP: latencies, no target.
	StageV2Roll = "v2-roll"
	// StageCLI is what a user waits for at the command line: `journal
	// version` and a command with the embedded server, whole processes of
	// Options.Executable timed from outside.
	StageCLI = "cli"
	// StagePages is what a user waits for in the browser pages: the
	// dashboard's and the table's first card and interactive state at each
	// of PagesEvents, and a roll's card on another client's live feed.
	StagePages = "pages"
)

// AllStages returns every stage, in the order Run measures them.
func AllStages() []string {
	return []string{StageSequential, StageConcurrent, StageConcurrentMany, StageGrowth, StageRebuild, StageColdLoad, StageVerify, StageVerifyV2, StageV2Roll, StageCLI, StagePages}
}

// pairStages are the stages measured as a Pair (the journal against raw).
func pairStage(s string) bool {
	return s != StageGrowth && s != StageColdLoad && s != StageV2Roll && s != StageCLI && s != StagePages
}

// ErrOptions marks options that cannot be used.
var ErrOptions = errors.New("invalid bench options")

// Options sizes a run. Zero values take the defaults (DefaultOptions).
type Options struct {
	// Sync makes the embedded server sync every write to disk before
	// acknowledging it (SyncAlways); otherwise JetStream's default applies.
	Sync bool `json:"sync"`
	// Rolls is the number of roll commands of each append measurement (and
	// of raw publishes on the other side).
	Rolls int `json:"rolls"`
	// Campaigns and Characters shape the concurrent appends and the rebuild:
	// Characters are spread over Campaigns.
	Campaigns  int `json:"campaigns"`
	Characters int `json:"characters"`
	// Window is how many concurrent appends are in flight: goroutines on
	// the journal side (each owning some campaigns, doing synchronous
	// appends), pending asynchronous publishes on the raw side. 0: the
	// number of campaigns, at most 256.
	Window int `json:"window"`
	// Events is the number of events in the stream the rebuild reads (the
	// events the append stages recorded count towards it).
	Events int `json:"events"`
	// VerifyRolls is the number of rolls in the exported session that is
	// verified.
	VerifyRolls int `json:"verify_rolls"`
	// ManyCampaigns is the number of campaigns (one character each) of
	// the second concurrent append stage.
	ManyCampaigns int `json:"many_campaigns"`
	// GrowthCharacters are the sizes of the campaign, in characters, at
	// which the growth stage measures the append p50; GrowthCampaigns the
	// numbers of campaigns in the stream; GrowthRolls the rolls of each
	// measurement.
	GrowthCharacters []int `json:"growth_characters"`
	GrowthCampaigns  []int `json:"growth_campaigns"`
	GrowthRolls      int   `json:"growth_rolls"`
	// ColdEvents are the stream sizes at which a cold load is measured;
	// ColdCampaignEvents the events of the campaign loaded; ColdLoads the
	// loads measured at each size (each of another campaign).
	ColdEvents         []int `json:"cold_events"`
	ColdCampaignEvents int   `json:"cold_campaign_events"`
	ColdLoads          int   `json:"cold_loads"`
	// V2Rolls is the number of v1 rolls, and of v2 rolls, of each path of
	// the v2-roll stage.
	V2Rolls int `json:"v2_rolls"`
	// PagesEvents are the sizes, in events, of the campaign whose pages
	// the pages stage loads; PagesRepeats the warm loads timed at each;
	// PagesRolls the rolls timed from POST to card.
	PagesEvents  []int `json:"pages_events"`
	PagesRepeats int   `json:"pages_repeats"`
	PagesRolls   int   `json:"pages_rolls"`
	// Rounds is how many times the journal and the raw side alternate in
	// the append and verification measurements.
	Rounds int `json:"rounds"`
	// Stages selects what to measure (nil: every stage).
	Stages []string `json:"stages,omitempty"`
	// Dir is where the temporary folder is made ("": the system's).
	Dir string `json:"-"`
	// ColdDir, when set, keeps the cold-load stage's streams, filled once
	// and reused by later runs (a folder per size), instead of filling
	// them in the temporary folder every run.
	ColdDir string `json:"-"`
	// Executable is the journal binary the cli stage runs ("": the stage
	// measures nothing).
	Executable string `json:"-"`
	// Progress, when set, is told how far each stage has come.
	Progress func(Progress) `json:"-"`
}

// DefaultOptions returns the sizes of a run that takes about three minutes
// per sync setting on two loaded cores (the cold load fills a stream of
// 1 000 000 events).
func DefaultOptions() Options {
	return Options{Rolls: 2000, Campaigns: 100, Characters: 1000, Events: 100_000, VerifyRolls: 20_000, Rounds: 3,
		ManyCampaigns: 10_000, GrowthCharacters: []int{10, 1000, 10_000}, GrowthCampaigns: []int{1, 100, 10_000}, GrowthRolls: 500,
		ColdEvents: []int{100_000, 1_000_000}, ColdCampaignEvents: 1000, ColdLoads: 25, V2Rolls: 500,
		PagesEvents: []int{10_000, 100_000}, PagesRepeats: 15, PagesRolls: 50}
}

// withDefaults fills in zero sizes and checks the rest.
func (o Options) withDefaults() (Options, error) {
	d := DefaultOptions()
	if o.Rolls == 0 {
		o.Rolls = d.Rolls
	}
	if o.Campaigns == 0 {
		o.Campaigns = d.Campaigns
	}
	if o.Characters == 0 {
		o.Characters = max(d.Characters, o.Campaigns)
	}
	if o.Events == 0 {
		o.Events = d.Events
	}
	if o.VerifyRolls == 0 {
		o.VerifyRolls = d.VerifyRolls
	}
	if o.Rounds == 0 {
		o.Rounds = d.Rounds
	}
	if o.Window == 0 {
		o.Window = min(o.Campaigns, 256)
	}
	if o.ManyCampaigns == 0 {
		o.ManyCampaigns = d.ManyCampaigns
	}
	if len(o.GrowthCharacters) == 0 {
		o.GrowthCharacters = d.GrowthCharacters
	}
	if len(o.GrowthCampaigns) == 0 {
		o.GrowthCampaigns = d.GrowthCampaigns
	}
	if o.GrowthRolls == 0 {
		o.GrowthRolls = d.GrowthRolls
	}
	if len(o.ColdEvents) == 0 {
		o.ColdEvents = d.ColdEvents
	}
	if o.ColdCampaignEvents == 0 {
		o.ColdCampaignEvents = d.ColdCampaignEvents
	}
	if o.ColdLoads == 0 {
		o.ColdLoads = d.ColdLoads
	}
	if o.V2Rolls == 0 {
		o.V2Rolls = d.V2Rolls
	}
	if len(o.PagesEvents) == 0 {
		o.PagesEvents = d.PagesEvents
	}
	if o.PagesRepeats == 0 {
		o.PagesRepeats = d.PagesRepeats
	}
	if o.PagesRolls == 0 {
		o.PagesRolls = d.PagesRolls
	}
	for _, list := range [][]int{o.GrowthCharacters, o.GrowthCampaigns, o.ColdEvents, o.PagesEvents} {
		for i, n := range list {
			if n < 1 || (i > 0 && n <= list[i-1]) {
				return o, fmt.Errorf("%w: growth and cold-load sizes must be positive and increasing, got %v", ErrOptions, list)
			}
		}
	}
	switch {
	case o.PagesEvents[0] < 100 || o.PagesEvents[len(o.PagesEvents)-1] > 10_000_000 || o.PagesRepeats < 1 || o.PagesRolls < 1:
		return o, fmt.Errorf("%w: the pages' campaigns hold from 100 to 10 000 000 events, and repeats and rolls are positive", ErrOptions)
	case o.ManyCampaigns < 1, o.GrowthRolls < 1, o.V2Rolls < 1, o.ColdCampaignEvents < 1, o.ColdLoads < 1:
		return o, fmt.Errorf("%w: sizes must be positive", ErrOptions)
	case o.ColdEvents[0] < 2*o.ColdCampaignEvents:
		return o, fmt.Errorf("%w: a cold load's stream of %d events cannot hold campaigns of %d events", ErrOptions, o.ColdEvents[0], o.ColdCampaignEvents)
	case o.ManyCampaigns > 100_000 || o.GrowthCharacters[len(o.GrowthCharacters)-1] > 100_000 || o.GrowthCampaigns[len(o.GrowthCampaigns)-1] > 100_000:
		return o, fmt.Errorf("%w: at most 100 000 campaigns and 100 000 characters in the growth and the second concurrent stage", ErrOptions)
	case o.ColdEvents[len(o.ColdEvents)-1] > 10_000_000:
		return o, fmt.Errorf("%w: at most 10 000 000 events in a cold load's stream", ErrOptions)
	case o.Rolls < 1, o.Campaigns < 1, o.Characters < 1, o.Events < 1, o.VerifyRolls < 1, o.Rounds < 1, o.Window < 1:
		return o, fmt.Errorf("%w: sizes must be positive", ErrOptions)
	case o.Characters < o.Campaigns:
		return o, fmt.Errorf("%w: %d characters cannot fill %d campaigns (one at least in each)", ErrOptions, o.Characters, o.Campaigns)
	case o.Campaigns > 100_000 || o.Characters > 1_000_000:
		return o, fmt.Errorf("%w: at most 100 000 campaigns and 1 000 000 characters", ErrOptions)
	}
	for _, s := range o.Stages {
		known := false
		for _, k := range AllStages() {
			known = known || s == k
		}
		if !known {
			return o, fmt.Errorf("%w: unknown stage %q (want one of %v)", ErrOptions, s, AllStages())
		}
	}
	return o, nil
}

func (o Options) wants(stage string) bool {
	if len(o.Stages) == 0 {
		return true
	}
	for _, s := range o.Stages {
		if s == stage {
			return true
		}
	}
	return false
}

// Progress is how far a stage has come: Done of Total units (rolls,
// events). Phase says what is being done ("setup", "journal", "raw").
type Progress struct {
	Stage string
	Phase string
	Done  int
	Total int
}

func (o Options) progress(stage, phase string, done, total int) {
	if o.Progress != nil {
		o.Progress(Progress{Stage: stage, Phase: phase, Done: done, Total: total})
	}
}

// Rate is one side of a measurement.
type Rate struct {
	// What was measured, in words.
	What string `json:"what"`
	// Count units in Seconds, at PerSecond.
	Count     int     `json:"count"`
	Seconds   float64 `json:"seconds"`
	PerSecond float64 `json:"per_second"`
	// Rounds are the rates of each round, for the spread.
	Rounds []float64 `json:"rounds_per_second,omitempty"`
	// CPUSeconds is the CPU time the whole process (the embedded server
	// included) used meanwhile, and PerCPUSecond the units per second of
	// it: a figure that other work on the machine disturbs less than the
	// rate. 0 where the system does not say.
	CPUSeconds   float64 `json:"cpu_seconds,omitempty"`
	PerCPUSecond float64 `json:"per_cpu_second,omitempty"`
	// MessageBytes is the average message (or line) size.
	MessageBytes int `json:"message_bytes,omitempty"`
}

// timer measures a round: its wall time and the process's CPU time.
type timer struct {
	start time.Time
	cpu   time.Duration
}

func startTimer() timer { return timer{start: time.Now(), cpu: cpuTime()} }

// add counts a round of n units measured by t.
func (r *Rate) add(n int, t timer) {
	d, cpu := time.Since(t.start), cpuTime()-t.cpu
	r.Count += n
	r.Seconds += d.Seconds()
	r.CPUSeconds += cpu.Seconds()
	if d > 0 {
		r.Rounds = append(r.Rounds, float64(n)/d.Seconds())
	}
	if r.Seconds > 0 {
		r.PerSecond = float64(r.Count) / r.Seconds
	}
	if r.CPUSeconds > 0 {
		r.PerCPUSecond = float64(r.Count) / r.CPUSeconds
	}
}

// Pair is a journal figure next to its raw JetStream counterpart.
type Pair struct {
	Stage   string `json:"stage"`
	Journal Rate   `json:"journal"`
	Raw     Rate   `json:"raw"`
	// Ratio is Journal.PerSecond / Raw.PerSecond; RatioLow and RatioHigh
	// are the lowest and highest ratio of one round to its raw round.
	Ratio     float64 `json:"ratio"`
	RatioLow  float64 `json:"ratio_low"`
	RatioHigh float64 `json:"ratio_high"`
	// CPURatio is Journal.PerCPUSecond / Raw.PerCPUSecond: how the CPU
	// each side spends per unit compares (0 when unknown).
	CPURatio float64 `json:"cpu_ratio,omitempty"`
	// Target is the ratio the journal aims at; Met says whether Ratio
	// reaches it.
	Target float64 `json:"target"`
	Met    bool    `json:"met"`
	// PeakRSS is the process's peak resident memory while the journal side
	// ran (the embedded server included), PeakHeap the peak Go heap
	// sampled meanwhile; both in bytes, 0 when unknown.
	PeakRSS  uint64 `json:"peak_rss_bytes"`
	PeakHeap uint64 `json:"peak_heap_bytes"`
	// RawPeakRSS and RawPeakHeap are the same while the raw side ran: the
	// share of the embedded server, the process's baseline and the raw
	// client.
	RawPeakRSS  uint64 `json:"raw_peak_rss_bytes"`
	RawPeakHeap uint64 `json:"raw_peak_heap_bytes"`
	// Guarded, in the append stages, is raw publishing with the
	// journal's guarantees and none of its code: each message with a
	// Nats-Msg-Id and its campaign's expected last sequence, to a stream
	// configured as the journal's, waiting for each acknowledgement per
	// campaign. GuardedRatio is Guarded.PerSecond / Raw.PerSecond, the
	// server's price of the guarantees (the ceiling of any journal on this
	// server); CodeRatio is Journal.PerSecond / Guarded.PerSecond, how
	// close the journal's own code comes to that ceiling.
	Guarded      *Rate   `json:"guarded,omitempty"`
	GuardedRatio float64 `json:"guarded_ratio,omitempty"`
	CodeRatio    float64 `json:"code_ratio,omitempty"`
	// Notes say what else was seen (folds, mismatches, counts).
	Notes []string `json:"notes,omitempty"`
}

// Target returns the ratio of the journal's rate to the raw rate that the
// journal aims at in a stage (BENCHMARKS.md), 0 for the append stages,
// whose targets depend on the sync setting (see Targets).
func Target(stage string) float64 {
	switch stage {
	case StageRebuild:
		return TargetRebuild
	case StageVerify:
		return TargetVerify
	case StageVerifyV2:
		return TargetVerifyV2
	}
	return 0 // the append stages' targets are on guarded/raw and journal/guarded (Targets)
}

// finish computes the pair's ratios and its target's verdict: the
// stage's Target, or for the append stages with every write synced
// TargetSyncedAppends (at default sync their targets are on the guarded
// ratios, and the pair's own Target is 0, Met false).
func (p *Pair) finish(synced bool) {
	p.Target = Target(p.Stage)
	if synced && appendStage(p.Stage) {
		p.Target = TargetSyncedAppends
	}
	if p.Raw.PerSecond > 0 {
		p.Ratio = p.Journal.PerSecond / p.Raw.PerSecond
	}
	p.Met = p.Target > 0 && p.Ratio >= p.Target
	if g := p.Guarded; g != nil && g.PerSecond > 0 && p.Raw.PerSecond > 0 {
		p.GuardedRatio = g.PerSecond / p.Raw.PerSecond
		p.CodeRatio = p.Journal.PerSecond / g.PerSecond
	}
	if p.Raw.PerCPUSecond > 0 {
		p.CPURatio = p.Journal.PerCPUSecond / p.Raw.PerCPUSecond
	}
	for i := range min(len(p.Journal.Rounds), len(p.Raw.Rounds)) {
		if p.Raw.Rounds[i] <= 0 {
			continue
		}
		r := p.Journal.Rounds[i] / p.Raw.Rounds[i]
		if i == 0 || r < p.RatioLow {
			p.RatioLow = r
		}
		if r > p.RatioHigh {
			p.RatioHigh = r
		}
	}
}

// Result is one run: one sync setting.
type Result struct {
	// Sync is "always" (every write synced) or "default" (JetStream's).
	Sync    string  `json:"sync"`
	Options Options `json:"options"`
	Pairs   []Pair  `json:"pairs"`
	// Growth and ColdLoad are the growth and cold-load stages, when run.
	Growth   *Growth   `json:"growth,omitempty"`
	ColdLoad *ColdLoad `json:"cold_load,omitempty"`
	// V2Roll is the v2-roll stage, when run.
	V2Roll *V2Roll `json:"v2_roll,omitempty"`
	// CLI is the cli stage, when run with an Executable.
	CLI *CLI `json:"cli,omitempty"`
	// Pages is the pages stage, when run.
	Pages *Pages `json:"pages,omitempty"`
	// PeakRSS is the process's peak resident memory over the whole run.
	PeakRSS uint64  `json:"peak_rss_bytes"`
	Seconds float64 `json:"seconds"`
}

// Machine describes where a run took place.
type Machine struct {
	CPU        string `json:"cpu"`
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	Go         string `json:"go"`
	MemoryMB   uint64 `json:"memory_mb,omitempty"`
	// Load is the load average (1, 5, 15 minutes) when the run started:
	// other work on the machine shares its cores.
	Load string `json:"load,omitempty"`
}

// Describe returns the machine the process runs on.
func Describe() Machine {
	m := Machine{CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), OS: runtime.GOOS, Arch: runtime.GOARCH, Go: runtime.Version()}
	m.CPU, m.MemoryMB, m.Load = machineInfo()
	return m
}

// Run measures every selected stage with one sync setting, on a fresh
// embedded server in a temporary folder.
func Run(ctx context.Context, opts Options) (Result, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return Result{}, err
	}
	res := Result{Sync: syncName(o.Sync), Options: o}
	start := time.Now()
	peak := newPeakTracker()
	defer peak.stop()

	dir, err := os.MkdirTemp(o.Dir, "journal-bench-*")
	if err != nil {
		return res, fmt.Errorf("bench: temporary folder: %w", err)
	}
	defer os.RemoveAll(dir)
	e := &env{o: o, dir: dir, peak: peak}
	defer e.closeServer()

	type stage struct {
		name string
		run  func(context.Context) (Pair, error)
	}
	for _, s := range []stage{
		{StageSequential, e.sequential},
		{StageConcurrent, e.concurrent},
		{StageConcurrentMany, e.concurrentMany},
		{StageGrowth, func(ctx context.Context) (Pair, error) {
			g, err := e.growth(ctx)
			res.Growth = g
			return Pair{}, err
		}},
		{StageRebuild, e.rebuild},
		{StageColdLoad, func(ctx context.Context) (Pair, error) {
			c, err := e.coldLoad(ctx)
			res.ColdLoad = c
			return Pair{}, err
		}},
		{StageVerify, e.verification},
		{StageVerifyV2, e.verificationV2},
		{StageV2Roll, func(ctx context.Context) (Pair, error) {
			r, err := e.v2Roll(ctx)
			res.V2Roll = r
			return Pair{}, err
		}},
		{StageCLI, func(ctx context.Context) (Pair, error) {
			c, err := e.cli(ctx)
			res.CLI = c
			return Pair{}, err
		}},
		{StagePages, func(ctx context.Context) (Pair, error) {
			p, err := e.pages(ctx)
			res.Pages = p
			return Pair{}, err
		}},
	} {
		if !o.wants(s.name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if s.name == StageGrowth || s.name == StageRebuild || s.name == StageColdLoad || s.name == StageVerify || s.name == StageVerifyV2 || s.name == StageCLI || s.name == StagePages {
			e.closeServer() // the appends' server is not needed any more
		}
		p, err := s.run(ctx)
		if err != nil {
			return res, fmt.Errorf("bench %s: %w", s.name, err)
		}
		if !pairStage(s.name) {
			continue
		}
		p.Stage = s.name
		p.finish(o.Sync)
		res.Pairs = append(res.Pairs, p)
	}
	res.PeakRSS = peak.total()
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

func syncName(sync bool) string {
	if sync {
		return "always"
	}
	return "default"
}

// env is what the stages of one run share.
type env struct {
	o    Options
	dir  string
	peak *peakTracker
	// srv and st are the appends' server and journal, started by the first
	// append stage.
	srv *embedded.Server
	st  *jetstore.Store
}

// server starts the appends' embedded server, with the run's sync
// setting, unless it runs already.
func (e *env) server(ctx context.Context) error {
	if e.srv != nil {
		return nil
	}
	srv, err := embedded.Start(ctx, embedded.Options{Dir: filepath.Join(e.dir, "appends"), Sync: e.o.Sync})
	if err != nil {
		return fmt.Errorf("embedded server: %w", err)
	}
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	if err != nil {
		srv.Shutdown()
		return fmt.Errorf("open the journal: %w", err)
	}
	e.srv, e.st = srv, st
	return nil
}

func (e *env) closeServer() {
	if e.srv != nil {
		e.srv.Shutdown()
		e.srv, e.st = nil, nil
	}
}

// appendStage says whether a stage is one of the append stages.
func appendStage(s string) bool {
	return s == StageSequential || s == StageConcurrent || s == StageConcurrentMany
}
