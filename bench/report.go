package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/textout"
)

// Series is what `journal bench --repeat N --json` prints for N > 1:
// every whole run (with the load of the machine when it began) and each
// target over the runs.
type Series struct {
	Repeats []Report `json:"repeats"`
	// Tally has every target of BENCHMARKS.md over the runs: met in most of at
	// least five is "held".
	Tally []Tally `json:"tally"`
}

// Bar is one row of a chart: its label, the value its length shows and
// the note printed after it.
type Bar struct {
	Label string
	Value float64
	Note  string
}

// Chart draws rows as horizontal bars width cells long at most (the
// CLI's histogram).
type Chart func(w io.Writer, rows []Bar, width int)

// WriteText prints every run as Report.WriteText does, then the tally.
func (s Series) WriteText(w io.Writer, chart Chart) {
	for k, r := range s.Repeats {
		fmt.Fprintf(w, "=== run %d of %d ===\n", k+1, len(s.Repeats))
		r.WriteText(w, chart)
		fmt.Fprintln(w)
	}
	held := 0
	for _, t := range s.Tally {
		if t.Held {
			held++
		}
	}
	fmt.Fprintf(w, "targets over %d runs (%d of %d held: met in most of at least %d runs):\n", len(s.Repeats), held, len(s.Tally), MinRuns)
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

// Report is what `journal bench --json` prints.
type Report struct {
	Machine Machine  `json:"machine"`
	Runs    []Result `json:"runs"`
	// Targets judges every target of BENCHMARKS.md against the runs.
	Targets []Verdict `json:"targets"`
}

// SyncName names a sync setting: always or default.
func SyncName(sync bool) string {
	if sync {
		return "always"
	}
	return "default"
}

// WriteText prints a report as a table per sync setting, then bars of the
// ratios.
func (r Report) WriteText(w io.Writer, chart Chart) {
	m := r.Machine
	fmt.Fprintf(w, "journal bench — %d CPUs (%s), %s/%s, %s, %d MB, load %s\n", m.CPUs, textout.OrDash(m.CPU), m.OS, m.Arch, m.Go, m.MemoryMB, textout.OrDash(m.Load))
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
		rows := make([]Bar, 0, len(run.Pairs))
		for _, p := range run.Pairs {
			verdict := "target met"
			if !p.Met {
				verdict = fmt.Sprintf("target missed by %.2f", p.Target-p.Ratio)
			}
			rows = append(rows, Bar{Label: p.Stage, Value: p.Ratio, Note: fmt.Sprintf("%.2f (target %.1f: %s)", p.Ratio, p.Target, verdict)})
		}
		rows = append(rows, Bar{Label: "raw", Value: 1, Note: "1.00"})
		chart(w, rows, 30)
		printGrowth(w, run)
	}
	printTargets(w, r.Targets)
}

// printGrowth prints the growth and cold-load stages of a run.
func printGrowth(w io.Writer, run Result) {
	lat := func(title, unit string, ls []Latency, spread float64) {
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
		lat("cold load (fresh server and journal, command.Handler.Load) with, in the stream,", "events", c.Loads, c.Spread)
	}
	printV2Roll(w, run.V2Roll)
	if c := run.CLI; c != nil {
		fmt.Fprintf(w, "  the command line, whole processes, %d runs each:\n", c.Runs)
		for _, row := range []struct {
			name string
			l    Latency
		}{{"journal version", c.Version}, {"journal day new (embedded server)", c.Command}} {
			fmt.Fprintf(w, "    %-44s p50 %7.1f ms  p90 %7.1f ms  CPU p50 %7.1f ms\n", row.name, row.l.P50/1e3, row.l.P90/1e3, row.l.CPUP50/1e3)
		}
		for _, row := range []struct {
			name string
			s    Served
		}{{"journal --nats URL day new (running serve)", c.Remote}, {"journal day new (data folder of a serve)", c.Local}} {
			fmt.Fprintf(w, "    %-44s p50 %7.1f ms  p90 %7.1f ms  CPU p50 %7.1f ms  folds ≤ %d, %d JetStream requests\n",
				row.name, row.s.P50/1e3, row.s.P90/1e3, row.s.CPUP50/1e3, row.s.FoldsMax, row.s.RequestsP50)
		}
	}
}

// printV2Roll prints the v2-roll stage: per path, a v1 roll's latency and
// a v2 roll's (its request's and its reveal's round trips).
func printV2Roll(w io.Writer, r *V2Roll) {
	if r == nil {
		return
	}
	fmt.Fprintf(w, "  v2 roll (signed request, then signed reveal) against a v1 roll, %d of each per path:\n", r.Rolls)
	fmt.Fprintf(w, "    %-10s %-4s %10s %10s %10s %9s %12s %12s\n", "path", "roll", "p50 µs", "p90 µs", "p99 µs", "rolls/s", "request p50", "reveal p50")
	for _, p := range r.Paths {
		for _, row := range []struct {
			name string
			l    RollLatency
		}{{"v1", p.V1}, {"v2", p.V2}} {
			req, rev := "", ""
			if row.l.RequestP50 > 0 {
				req, rev = fmt.Sprintf("%.1f", row.l.RequestP50), fmt.Sprintf("%.1f", row.l.RevealP50)
			}
			fmt.Fprintf(w, "    %-10s %-4s %10.1f %10.1f %10.1f %9.0f %12s %12s\n", p.Path, row.name, row.l.P50, row.l.P90, row.l.P99, row.l.PerSecond, req, rev)
		}
		mark := "met"
		if p.P99Ratio > TargetV2RollP99 {
			mark = "missed"
		}
		fmt.Fprintf(w, "    %-10s v2/v1: p50 %.2f, p99 %.2f (target ≤ %.0f: %s)\n", "", p.P50Ratio, p.P99Ratio, TargetV2RollP99, mark)
	}
	for _, p := range r.Paths {
		fmt.Fprintf(w, "    %s: %s\n", p.Path, p.What)
	}
}

// printTargets prints the table of every target: the same as --json's
// "targets".
func printTargets(w io.Writer, ts []Verdict) {
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
