// Package textout lays out the command line's text for a terminal: tables
// whose columns line up by display width, horizontal bar charts, HP bars
// and percentages, and times in the user's zone. It knows nothing of the journal's data: the renderers
// of odds, sheets and the log (oddstext, sheettext, logtext) are built on it.
//
// Invariants:
//   - Widths are display widths (i18n.Width: an accented letter is one
//     cell, a combining mark none, a wide character two), never bytes.
//   - No line ends in spaces; every line ends in "\n".
//   - Output that is not a terminal is the same from run to run: only on
//     a terminal (TerminalColumns > 0) does a chart take the terminal's
//     width.
package textout

import (
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/campaign-journal/journal/i18n"
)

// Table is a text table whose columns line up on a terminal whatever the
// names in it.
type Table struct {
	indent string
	// right marks the columns aligned to the right (numbers).
	right map[int]bool
	rows  [][]string
}

// NewTable starts a table with a header row (nil: none), each line
// starting with indent.
func NewTable(indent string, header ...string) *Table {
	t := &Table{indent: indent, right: map[int]bool{}}
	if header != nil {
		t.rows = append(t.rows, header)
	}
	return t
}

// AlignRight aligns columns cols to the right.
func (t *Table) AlignRight(cols ...int) *Table {
	for _, c := range cols {
		t.right[c] = true
	}
	return t
}

// Add adds a row.
func (t *Table) Add(cells ...string) { t.rows = append(t.rows, cells) }

// Write prints the table, columns two spaces apart, no trailing spaces.
func (t *Table) Write(w io.Writer) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], i18n.Width(c))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		b.Reset()
		b.WriteString(t.indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-i18n.Width(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if t.right[i] {
				b.WriteString(pad + c)
			} else if i < len(r)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
		}
		io.WriteString(w, strings.TrimRight(b.String(), " ")+"\n")
	}
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// TerminalColumns is the width of the terminal w is, 0 when it is none
// (a pipe, a file: output that stays the same from run to run).
func TerminalColumns(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return cols
}

// HPBar draws current HP out of max as a bar of width cells: a living
// character's bar is never empty.
func HPBar(hp, maxHP, width int) string {
	if maxHP <= 0 {
		return strings.Repeat("░", width)
	}
	n := max(0, min(width, hp*width/maxHP))
	if hp > 0 && n == 0 {
		n = 1
	}
	return strings.Repeat("█", n) + strings.Repeat("░", width-n)
}

// Fraction is "n/of".
func Fraction(n, of int) string { return strconv.Itoa(n) + "/" + strconv.Itoa(of) }

// OrDash is "-" for "": an empty cell of a table.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// LocalTime formats t in the user's time zone (time.Local, which honours
// $TZ), with the zone's name.
func LocalTime(t time.Time) string { return t.In(time.Local).Format("2006-01-02 15:04:05 MST") }

// Emit prints v to w as indented JSON when asJSON (a command's --json),
// else calls text to print it for people.
func Emit(w io.Writer, asJSON bool, v any, text func(w io.Writer)) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	text(w)
	return nil
}
