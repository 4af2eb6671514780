package main

import (
	"io"
	"strings"

	"github.com/campaign-journal/journal/i18n"
)

// table is a text table whose columns line up on a terminal whatever the
// names in it: widths are display widths (an accented letter is one cell,
// a combining mark none, a wide CJK character or emoji two), not bytes.
type table struct {
	indent string
	// right marks the columns aligned to the right (numbers).
	right map[int]bool
	rows  [][]string
}

// newTable starts a table with a header row (nil: none).
func newTable(indent string, header ...string) *table {
	t := &table{indent: indent, right: map[int]bool{}}
	if header != nil {
		t.rows = append(t.rows, header)
	}
	return t
}

// alignRight aligns columns cols to the right.
func (t *table) alignRight(cols ...int) *table {
	for _, c := range cols {
		t.right[c] = true
	}
	return t
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// write prints the table, columns two spaces apart, no trailing spaces.
func (t *table) write(w io.Writer) {
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
