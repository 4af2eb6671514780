package bench

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/campaign-journal/journal/textout"
)

// TextChart draws bench's bars with the CLI's histogram (textout.Histogram).
func TextChart(w io.Writer, rows []Bar, width int) {
	bars := make([]textout.Bar, len(rows))
	for i, r := range rows {
		bars[i] = textout.Bar{Label: r.Label, Value: r.Value, Note: r.Note}
	}
	textout.Histogram(w, bars, width)
}

// Line draws the progress of a run on one terminal line, at most every
// 100 ms, as the replay's progress line does; Clear erases it. Sync names
// the run on the line ("always", "default, run 1 of 3").
type Line struct {
	W     io.Writer
	Sync  string
	mu    sync.Mutex
	last  time.Time
	shown bool
}

// Show draws p (an Options.Progress), unless the line was drawn less than
// 100 ms ago.
func (l *Line) Show(p Progress) {
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
	fmt.Fprintf(l.W, "\r\033[Kbench (sync %s): %s, %s, %d/%d (%.0f%%)", l.Sync, p.Stage, p.Phase, p.Done, p.Total, pct)
	l.shown = true
}

// Clear erases the line, if it was drawn.
func (l *Line) Clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		fmt.Fprint(l.W, "\r\033[K")
		l.shown = false
	}
}

// SyncModes are the sync settings of --sync mode: always (sync every
// write), default (JetStream's interval) or both, in that order; false
// for another mode.
func SyncModes(mode string) ([]bool, bool) {
	switch mode {
	case "always":
		return []bool{true}, true
	case "default":
		return []bool{false}, true
	case "both":
		return []bool{true, false}, true
	}
	return nil, false
}

// Repeat makes repeat whole runs one after another, each a Run of o per
// sync setting of syncs, and judges each run's targets; with more than
// one run, the series has the tally of the targets over them. line, when
// not nil, shows each Run's progress and is cleared after it. The first
// error stops the series.
func Repeat(ctx context.Context, o Options, syncs []bool, repeat int, line *Line) (Series, error) {
	var series Series
	for k := range repeat {
		report := Report{Machine: Describe()}
		for _, s := range syncs {
			o.Sync = s
			o.Progress = nil
			if line != nil {
				line.Sync = SyncName(s)
				if repeat > 1 {
					line.Sync = fmt.Sprintf("%s, run %d of %d", SyncName(s), k+1, repeat)
				}
				o.Progress = line.Show
			}
			res, err := Run(ctx, o)
			if line != nil {
				line.Clear()
			}
			if err != nil {
				return series, err
			}
			report.Runs = append(report.Runs, res)
		}
		report.Targets = Targets(report.Runs)
		series.Repeats = append(series.Repeats, report)
	}
	if repeat > 1 {
		verdicts := make([][]Verdict, len(series.Repeats))
		for k, r := range series.Repeats {
			verdicts[k] = r.Targets
		}
		series.Tally = TallyTargets(verdicts)
	}
	return series, nil
}
