package main

import (
	"io"

	"github.com/campaign-journal/journal/textout"
)

// bar is one row of a text histogram (textout.Bar).
type bar struct {
	label string
	value float64 // what the bar's length shows
	note  string  // printed after the bar
}

// histogram prints rows as a bar chart (textout.Histogram).
func histogram(w io.Writer, rows []bar, width int) {
	bars := make([]textout.Bar, len(rows))
	for i, r := range rows {
		bars[i] = textout.Bar{Label: r.label, Value: r.value, Note: r.note}
	}
	textout.Histogram(w, bars, width)
}
