package exportfile

import (
	"fmt"
	"io"
	"time"
)

// Progress draws one line on a terminal while an export is read: passes,
// events, events per second and the share of the file's bytes read. It
// draws at most every 100 ms, and nothing during the first 250 ms, so that
// a small file never shows it; Clear erases it.
type Progress struct {
	w      io.Writer
	now    func() time.Time
	size   int64
	passes int
	pass   int
	read   int64
	events int
	start  time.Time
	last   time.Time
	shown  bool
}

// NewProgress starts a progress line on w for a file of size bytes read
// passes times, timed by now.
func NewProgress(w io.Writer, now func() time.Time, size int64, passes int) *Progress {
	t := now()
	return &Progress{w: w, now: now, size: size, passes: max(passes, 1), start: t, last: t}
}

// NextPass starts the next pass over the file.
func (p *Progress) NextPass() {
	p.pass++
	p.read = 0
}

// Bytes counts n bytes read in this pass.
func (p *Progress) Bytes(n int) {
	p.read += int64(n)
	p.draw()
}

// Event counts an event read.
func (p *Progress) Event() {
	p.events++
	if p.events%64 == 0 {
		p.draw()
	}
}

func (p *Progress) draw() {
	t := p.now()
	if t.Sub(p.last) < 100*time.Millisecond || t.Sub(p.start) < 250*time.Millisecond {
		return
	}
	p.last = t
	done := 1.0
	if p.size > 0 {
		done = float64(min(p.read, p.size)) / float64(p.size)
	}
	pass := min(max(p.pass, 1), p.passes)
	share := (float64(pass-1) + done) / float64(p.passes)
	rate := float64(p.events) / t.Sub(p.start).Seconds()
	fmt.Fprintf(p.w, "\r\033[Kreading export: pass %d/%d, %d events, %.0f events/s, %.0f%%", pass, p.passes, p.events, rate, 100*share)
	p.shown = true
}

// Clear erases the line if it was drawn.
func (p *Progress) Clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
