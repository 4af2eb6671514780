package textout

import (
	"fmt"
	"io"
	"strings"

	"github.com/campaign-journal/journal/i18n"
)

// Bar is one row of a text histogram.
type Bar struct {
	Label string
	Value float64 // what the bar's length shows
	Note  string  // printed after the bar
}

// Histogram prints rows as a compact horizontal bar chart, the longest bar
// width cells wide (on a terminal: as wide as the terminal leaves room
// for, between MinBar and MaxBar cells), with eighth-block resolution.
func Histogram(w io.Writer, rows []Bar, width int) {
	maxV, labelW, noteW := 0.0, 0, 0
	for _, r := range rows {
		maxV = max(maxV, r.Value)
		labelW = max(labelW, i18n.Width(r.Label))
		noteW = max(noteW, i18n.Width(r.Note))
	}
	if cols := TerminalColumns(w); cols > 0 {
		width = min(max(cols-(2+labelW+1+1+noteW)-1, MinBar), MaxBar)
	}
	for _, r := range rows {
		pad := strings.Repeat(" ", labelW-i18n.Width(r.Label))
		fmt.Fprintf(w, "  %s%s %s %s\n", pad, r.Label, barCells(r.Value, maxV, width), r.Note)
	}
}

// The bars' bounds on a terminal, in cells.
const (
	MinBar = 8
	MaxBar = 80
)

var eighths = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// barCells renders v/maxV of width cells, padded to width.
func barCells(v, maxV float64, width int) string {
	if maxV <= 0 || v <= 0 {
		return strings.Repeat(" ", width)
	}
	n := int(v / maxV * float64(width*8))
	if n == 0 {
		n = 1 // a non-zero value always shows
	}
	s := strings.Repeat("█", n/8) + eighths[n%8]
	pad := width - n/8
	if n%8 != 0 {
		pad--
	}
	return s + strings.Repeat(" ", max(pad, 0))
}

// Percent formats a probability as a percentage with sensible precision.
func Percent(p float64) string {
	switch {
	case p == 0:
		return "0%"
	case p < 0.0001:
		return fmt.Sprintf("%.2g%%", p*100)
	default:
		return fmt.Sprintf("%.2f%%", p*100)
	}
}
