package bench

import (
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
