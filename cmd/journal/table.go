package main

import (
	"io"

	"github.com/campaign-journal/journal/textout"
)

// table is textout.Table (columns by display width) under the names the
// command files use.
type table struct{ *textout.Table }

// newTable starts a table with a header row (nil: none).
func newTable(indent string, header ...string) *table {
	return &table{textout.NewTable(indent, header...)}
}

// alignRight aligns columns cols to the right.
func (t *table) alignRight(cols ...int) *table {
	t.AlignRight(cols...)
	return t
}

func (t *table) add(cells ...string) { t.Add(cells...) }
func (t *table) write(w io.Writer)   { t.Write(w) }
