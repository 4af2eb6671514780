package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/bench"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// benchCommand measures the journal against raw JetStream on its own
// embedded server (package bench).
func (a *app) benchCommand() *cobra.Command {
	o := bench.DefaultOptions()
	var syncMode, stages, dir, coldDir, cpuProfile string
	repeat := 1
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the journal against the raw JetStream under it, side by side",
		Long: `Measure the journal against the raw JetStream it runs on, in the same run, on
an embedded server of its own in a temporary folder (--data is not used):

  appends-sequential  roll commands on one character   vs raw synchronous publishes
  appends-concurrent  roll commands across campaigns   vs raw asynchronous publishes
  appends-concurrent-many  the same over --many-campaigns (10 000) campaigns
  growth              append p50 as a campaign gains characters and the stream campaigns
  rebuild             events decoded and folded         vs a raw ordered consumer
  cold-load           a campaign of 1 000 events loaded by a fresh journal, the
                      stream at each of --cold-events (100 000 and 1 000 000) events
  verification        rolls verified from an export     vs merely decoding it (every core)
  verification-v2     rolls of journal-dice-v2 sessions verified
                                                        vs decoding plus the same Ed25519 checks (every core)
  v2-roll             a v2 roll's two round trips (signed request, signed reveal)
                      against a v1 roll: in-process, the CLI's path, HTTP (p50, p99)
  cli                 whole processes of this binary: journal version, and a command
                      with the embedded server (no serve), 15 runs each

The append stages also measure "guarded raw": raw publishes with the journal's
guarantees (message id, the campaign's expected last sequence) and none of its
code. The output ends with the table of every target (--json: "targets").

Both sides use the same message sizes and the same sync setting, and alternate
in rounds. The ratios (journal rate / raw rate) are printed with their targets
and the peak memory of the process. Nothing is written to the journal's data.

  journal bench                                  both sync settings, default sizes
  journal bench --sync default --events 1000000 --characters 10000 --stages rebuild
  journal bench --campaigns 10000 --characters 10000 --stages appends-concurrent --json
  journal bench --sync both --repeat 5          five whole runs, then each target in every run`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var syncs []bool
			switch syncMode {
			case "always":
				syncs = []bool{true}
			case "default":
				syncs = []bool{false}
			case "both":
				syncs = []bool{true, false}
			default:
				return usagef("--sync %q: want always, default or both", syncMode)
			}
			for name, v := range map[string]int{"--rolls": o.Rolls, "--campaigns": o.Campaigns, "--characters": o.Characters,
				"--events": o.Events, "--verify-rolls": o.VerifyRolls, "--rounds": o.Rounds, "--window": o.Window + 1,
				"--many-campaigns": o.ManyCampaigns, "--repeat": repeat, "--growth-rolls": o.GrowthRolls, "--cold-campaign-events": o.ColdCampaignEvents, "--cold-loads": o.ColdLoads, "--v2-rolls": o.V2Rolls,
				"--pages-repeats": o.PagesRepeats, "--pages-rolls": o.PagesRolls} {
				if v <= 0 {
					return usagef("%s: want a positive number", name)
				}
			}
			if stages != "" {
				o.Stages = strings.Split(stages, ",")
			}
			o.Dir = dir
			o.ColdDir = coldDir
			if exe, err := os.Executable(); err == nil && !strings.HasSuffix(exe, ".test") {
				o.Executable = exe // the cli stage runs this very binary (not a test binary)
			}
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return msgerr.Errorf("--cpuprofile: %w", err)
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return msgerr.Errorf("--cpuprofile: %w", err)
				}
				defer pprof.StopCPUProfile()
			}
			var line *benchLine
			if isTerminal(a.stderr) {
				line = &benchLine{w: a.stderr}
			}
			var series benchSeries
			for k := range repeat {
				report := benchReport{Machine: bench.Describe()}
				for _, s := range syncs {
					o.Sync = s
					o.Progress = nil
					if line != nil {
						line.sync = syncName(s)
						if repeat > 1 {
							line.sync = fmt.Sprintf("%s, run %d of %d", syncName(s), k+1, repeat)
						}
						o.Progress = line.show
					}
					res, err := bench.Run(c.Context(), o)
					if line != nil {
						line.clear()
					}
					if err != nil {
						return err
					}
					report.Runs = append(report.Runs, res)
				}
				report.Targets = bench.Targets(report.Runs)
				series.Repeats = append(series.Repeats, report)
			}
			if repeat == 1 {
				report := series.Repeats[0]
				return a.emit(report, func(w io.Writer) { printBench(w, report) })
			}
			verdicts := make([][]bench.Verdict, len(series.Repeats))
			for k, r := range series.Repeats {
				verdicts[k] = r.Targets
			}
			series.Tally = bench.TallyTargets(verdicts)
			return a.emit(series, func(w io.Writer) { printSeries(w, series) })
		},
	}
	d := bench.DefaultOptions()
	f := cmd.Flags()
	f.StringVar(&syncMode, "sync", "both", "always (sync every write), default (JetStream's interval) or both")
	f.IntVar(&o.Rolls, "rolls", d.Rolls, "roll commands (and raw publishes) per append measurement")
	f.IntVar(&o.Campaigns, "campaigns", d.Campaigns, "campaigns of the concurrent appends and of the rebuild")
	f.IntVar(&o.Characters, "characters", d.Characters, "characters, spread over the campaigns")
	f.IntVar(&o.Window, "window", 0, "concurrent appends in flight (0: one per campaign, at most 256)")
	f.IntVar(&o.Events, "events", d.Events, "events in the stream the rebuild reads")
	f.IntVar(&o.VerifyRolls, "verify-rolls", d.VerifyRolls, "rolls in the exported session that is verified")
	f.IntVar(&o.Rounds, "rounds", d.Rounds, "rounds in which the journal and raw sides alternate")
	f.IntVar(&o.ManyCampaigns, "many-campaigns", d.ManyCampaigns, "campaigns (one character each) of appends-concurrent-many")
	f.IntSliceVar(&o.GrowthCharacters, "growth-characters", d.GrowthCharacters, "characters of the campaigns the growth stage rolls in")
	f.IntSliceVar(&o.GrowthCampaigns, "growth-campaigns", d.GrowthCampaigns, "campaigns in the streams the growth stage rolls in")
	f.IntVar(&o.GrowthRolls, "growth-rolls", d.GrowthRolls, "timed rolls at each growth size")
	f.IntSliceVar(&o.ColdEvents, "cold-events", d.ColdEvents, "events in the streams of the cold loads")
	f.IntVar(&o.ColdCampaignEvents, "cold-campaign-events", d.ColdCampaignEvents, "events of the campaign a cold load reads")
	f.IntVar(&o.ColdLoads, "cold-loads", d.ColdLoads, "timed cold loads at each stream size")
	f.StringVar(&coldDir, "cold-dir", "", "folder where the cold loads' streams are filled once and kept for later runs (default: filled again in the temporary folder)")
	f.IntVar(&o.V2Rolls, "v2-rolls", d.V2Rolls, "v1 rolls, and v2 rolls, timed on each path of the v2-roll stage")
	f.IntSliceVar(&o.PagesEvents, "pages-events", d.PagesEvents, "events of the campaigns whose pages the pages stage loads")
	f.IntVar(&o.PagesRepeats, "pages-repeats", d.PagesRepeats, "timed loads of each page at each size of the pages stage")
	f.IntVar(&o.PagesRolls, "pages-rolls", d.PagesRolls, "rolls timed from their POST to their card on another client's live feed")
	f.StringVar(&stages, "stages", "", "comma-separated stages to run (default all): "+strings.Join(bench.AllStages(), ","))
	f.StringVar(&dir, "tmp", "", "folder for the temporary data (default the system's)")
	f.IntVar(&repeat, "repeat", 1, "whole runs to make one after another; the output ends with each target's value in every run and the runs that met it")
	f.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run (server included) to this file, for go tool pprof")
	return cmd
}

// benchSeries is what `journal bench --repeat N --json` prints for N > 1:
// every whole run (with the load of the machine when it began) and each
// target over the runs.
type benchSeries struct {
	Repeats []benchReport `json:"repeats"`
	// Tally has every target of BENCHMARKS.md over the runs: met in most of at
	// least five is "held".
	Tally []bench.Tally `json:"tally"`
}

// printSeries prints every run as printBench does, then the tally.
func printSeries(w io.Writer, s benchSeries) {
	for k, r := range s.Repeats {
		fmt.Fprintf(w, "=== run %d of %d ===\n", k+1, len(s.Repeats))
		printBench(w, r)
		fmt.Fprintln(w)
	}
	held := 0
	for _, t := range s.Tally {
		if t.Held {
			held++
		}
	}
	fmt.Fprintf(w, "targets over %d runs (%d of %d held: met in most of at least %d runs):\n", len(s.Repeats), held, len(s.Tally), bench.MinRuns)
	fmt.Fprintf(w, "  %-55s %10s  %-9s %s\n", "name", "target", "met", "value in each run (* met, - not measured, (at other sizes))")
	for _, t := range s.Tally {
		var vals strings.Builder
		for k, v := range t.Values {
			switch {
			case !t.Measured[k] && v == 0:
				fmt.Fprintf(&vals, " %7s", "-")
			case !t.Measured[k]:
				fmt.Fprintf(&vals, " (%.3f)", v)
			case t.MetIn[k]:
				fmt.Fprintf(&vals, " %.3f*", v)
			default:
				fmt.Fprintf(&vals, " %.3f ", v)
			}
		}
		verdict := fmt.Sprintf("%d/%d", t.Met, t.Runs)
		if t.Held {
			verdict += " held"
		}
		fmt.Fprintf(w, "  %-55s %10s  %-9s%s\n", t.Name, t.Compare+" "+strconv.FormatFloat(t.Target, 'f', -1, 64), verdict, vals.String())
	}
}

// benchReport is what `journal bench --json` prints.
type benchReport struct {
	Machine bench.Machine  `json:"machine"`
	Runs    []bench.Result `json:"runs"`
	// Targets judges every target of BENCHMARKS.md against the runs.
	Targets []bench.Verdict `json:"targets"`
}

func syncName(sync bool) string {
	if sync {
		return "always"
	}
	return "default"
}

// printBench prints a report as a table per sync setting, then bars of the
// ratios.
func printBench(w io.Writer, r benchReport) {
	m := r.Machine
	fmt.Fprintf(w, "journal bench — %d CPUs (%s), %s/%s, %s, %d MB, load %s\n", m.CPUs, orDash(m.CPU), m.OS, m.Arch, m.Go, m.MemoryMB, orDash(m.Load))
	for _, run := range r.Runs {
		o := run.Options
		fmt.Fprintf(w, "\nsync %s — %d rolls, %d campaigns, %d characters, window %d, %d events, %d verified rolls, %d rounds (%.0f s)\n",
			run.Sync, o.Rolls, o.Campaigns, o.Characters, o.Window, o.Events, o.VerifyRolls, o.Rounds, run.Seconds)
		fmt.Fprintf(w, "  %-19s %11s %11s %6s %11s %-12s %9s %15s %15s\n", "stage", "journal/s", "raw/s", "ratio", "rounds", "target", "cpu ratio", "peak RSS (raw)", "peak heap (raw)")
		for _, p := range run.Pairs {
			mark := "missed"
			if p.Met {
				mark = "met"
			}
			target := fmt.Sprintf("≥%.2f %s", p.Target, mark)
			if p.Target == 0 {
				target = "see targets"
			}
			fmt.Fprintf(w, "  %-19s %11s %11s %6.2f %11s %-12s %9.2f %15s %15s\n", p.Stage,
				thousands(p.Journal.PerSecond), thousands(p.Raw.PerSecond), p.Ratio,
				fmt.Sprintf("%.2f–%.2f", p.RatioLow, p.RatioHigh), target,
				p.CPURatio, pairMB(p.PeakRSS, p.RawPeakRSS), pairMB(p.PeakHeap, p.RawPeakHeap))
		}
		guarded := false
		for _, p := range run.Pairs {
			if p.Guarded == nil {
				continue
			}
			if !guarded {
				fmt.Fprintf(w, "  the server's price of the guarantees, and the journal's code against it:\n")
				fmt.Fprintf(w, "  %-19s %11s %13s %11s\n", "stage", "guarded/s", "guarded/raw", "journal/guarded")
				guarded = true
			}
			fmt.Fprintf(w, "  %-19s %11s %13.2f %11.2f\n", p.Stage, thousands(p.Guarded.PerSecond), p.GuardedRatio, p.CodeRatio)
		}
		fmt.Fprintln(w, "  what was measured:")
		for _, p := range run.Pairs {
			fmt.Fprintf(w, "    %s: %s (%d B), against %s\n", p.Stage, p.Journal.What, p.Journal.MessageBytes, p.Raw.What)
			if p.Guarded != nil {
				fmt.Fprintf(w, "      guarded: %s\n", p.Guarded.What)
			}
			for _, n := range p.Notes {
				fmt.Fprintf(w, "      %s\n", n)
			}
		}
		fmt.Fprintf(w, "  (ratio: journal rate / raw rate; rounds: its range over the rounds; cpu ratio: the same per CPU-second of the process)\n")
		fmt.Fprintf(w, "  ratios, peak RSS of the run %s:\n", megabytes(run.PeakRSS))
		rows := make([]bar, 0, len(run.Pairs))
		for _, p := range run.Pairs {
			verdict := "target met"
			if !p.Met {
				verdict = fmt.Sprintf("target missed by %.2f", p.Target-p.Ratio)
			}
			rows = append(rows, bar{label: p.Stage, value: p.Ratio, note: fmt.Sprintf("%.2f (target %.1f: %s)", p.Ratio, p.Target, verdict)})
		}
		rows = append(rows, bar{label: "raw", value: 1, note: "1.00"})
		histogram(w, rows, 30)
		printGrowth(w, run)
	}
	printTargets(w, r.Targets)
}

// printGrowth prints the growth and cold-load stages of a run.
func printGrowth(w io.Writer, run bench.Result) {
	lat := func(title, unit string, ls []bench.Latency, spread float64) {
		fmt.Fprintf(w, "  %s (highest p50 / lowest: %.2f):\n", title, spread)
		for _, l := range ls {
			extra := ""
			if l.Events > 0 {
				extra = fmt.Sprintf(", %d events loaded", l.Events)
			}
			if l.CPUP50 > 0 {
				extra += fmt.Sprintf(", CPU p50 %.1f µs", l.CPUP50)
			}
			if l.Events > 0 {
				extra += fmt.Sprintf(", at most %d messages read", l.Read)
			}
			fmt.Fprintf(w, "    %9s %-10s p50 %9.1f µs  p90 %9.1f µs  (%d timed%s)\n", thousands(float64(l.Size)), unit, l.P50, l.P90, l.Count, extra)
		}
	}
	if g := run.Growth; g != nil {
		lat("growth: a roll command's latency in one campaign of", "characters", g.Characters, g.CharactersSpread)
		lat("growth: a roll command's latency with, in the stream,", "campaigns", g.Campaigns, g.CampaignsSpread)
	}
	if c := run.ColdLoad; c != nil {
		lat("cold load (fresh server and journal, command.Journal.Load) with, in the stream,", "events", c.Loads, c.Spread)
	}
	printV2Roll(w, run.V2Roll)
	if c := run.CLI; c != nil {
		fmt.Fprintf(w, "  the command line, whole processes, %d runs each:\n", c.Runs)
		for _, row := range []struct {
			name string
			l    bench.Latency
		}{{"journal version", c.Version}, {"journal day new (embedded server)", c.Command}} {
			fmt.Fprintf(w, "    %-36s p50 %7.1f ms  p90 %7.1f ms  CPU p50 %7.1f ms\n", row.name, row.l.P50/1e3, row.l.P90/1e3, row.l.CPUP50/1e3)
		}
	}
}

// printV2Roll prints the v2-roll stage: per path, a v1 roll's latency and
// a v2 roll's (its request's and its reveal's round trips).
func printV2Roll(w io.Writer, r *bench.V2Roll) {
	if r == nil {
		return
	}
	fmt.Fprintf(w, "  v2 roll (signed request, then signed reveal) against a v1 roll, %d of each per path:\n", r.Rolls)
	fmt.Fprintf(w, "    %-10s %-4s %10s %10s %10s %9s %12s %12s\n", "path", "roll", "p50 µs", "p90 µs", "p99 µs", "rolls/s", "request p50", "reveal p50")
	for _, p := range r.Paths {
		for _, row := range []struct {
			name string
			l    bench.RollLatency
		}{{"v1", p.V1}, {"v2", p.V2}} {
			req, rev := "", ""
			if row.l.RequestP50 > 0 {
				req, rev = fmt.Sprintf("%.1f", row.l.RequestP50), fmt.Sprintf("%.1f", row.l.RevealP50)
			}
			fmt.Fprintf(w, "    %-10s %-4s %10.1f %10.1f %10.1f %9.0f %12s %12s\n", p.Path, row.name, row.l.P50, row.l.P90, row.l.P99, row.l.PerSecond, req, rev)
		}
		fmt.Fprintf(w, "    %-10s v2/v1: p50 %.2f, p99 %.2f\n", "", p.P50Ratio, p.P99Ratio)
	}
	for _, p := range r.Paths {
		fmt.Fprintf(w, "    %s: %s\n", p.Path, p.What)
	}
}

// printTargets prints the table of every target: the same as --json's
// "targets".
func printTargets(w io.Writer, ts []bench.Verdict) {
	met := 0
	for _, t := range ts {
		if t.Met {
			met++
		}
	}
	fmt.Fprintf(w, "\ntargets (%d of %d met):\n", met, len(ts))
	fmt.Fprintf(w, "  %-55s %9s %10s  %-12s %s\n", "name", "value", "target", "verdict", "note")
	for _, t := range ts {
		verdict, value := "missed", fmt.Sprintf("%.3f", t.Value)
		switch {
		case !t.Measured:
			verdict = "not measured"
			if t.Value == 0 {
				value = "-"
			}
		case t.Met:
			verdict = "met"
		}
		fmt.Fprintf(w, "  %-55s %9s %10s  %-12s %s\n", t.Name, value, t.Compare+" "+strconv.FormatFloat(t.Target, 'f', -1, 64), verdict, t.Note)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// thousands formats a rate with thin groups of three digits.
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// pairMB formats the journal's and the raw side's memory: "120 (80) MB".
func pairMB(journal, raw uint64) string {
	if journal == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f (%.0f) MB", float64(journal)/(1<<20), float64(raw)/(1<<20))
}

func megabytes(b uint64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
}

// benchLine draws the progress of a run on one terminal line, at most
// every 100 ms, as the replay's progress line does; clear erases it.
type benchLine struct {
	w     io.Writer
	sync  string
	mu    sync.Mutex
	last  time.Time
	shown bool
}

func (l *benchLine) show(p bench.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.last) < 100*time.Millisecond {
		return
	}
	l.last = now
	pct := 0.0
	if p.Total > 0 {
		pct = 100 * float64(min(p.Done, p.Total)) / float64(p.Total)
	}
	fmt.Fprintf(l.w, "\r\033[Kbench (sync %s): %s, %s, %d/%d (%.0f%%)", l.sync, p.Stage, p.Phase, p.Done, p.Total, pct)
	l.shown = true
}

func (l *benchLine) clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		fmt.Fprint(l.w, "\r\033[K")
		l.shown = false
	}
}
