package audit

import (
	"context"
	"fmt"
	"io"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
)

// MissingStore is a store that says what its streams miss (jetstore).
type MissingStore interface {
	Missing(ctx context.Context, filter string) ([]events.Missing, error)
}

// Losses is replay.Losses (what the streams a read covers say they miss)
// for a command: every method takes a nil *Losses, a store that cannot
// say, which counts nothing and reports nothing.
type Losses struct {
	l  *replay.Losses
	ms []events.Missing
}

// Lost asks st what the streams of filter miss; nil when st cannot say
// (a store other than the journal's streams).
func Lost(ctx context.Context, st Store, filter string) (*Losses, error) {
	m, ok := st.(MissingStore)
	if !ok {
		return nil, nil
	}
	ms, err := m.Missing(ctx, filter)
	if err != nil {
		return nil, err
	}
	return &Losses{replay.NewLosses(ms, filter), ms}, nil
}

// Counts reports whether the read's messages are counted (replay.Losses.Counts).
func (l *Losses) Counts() bool { return l != nil && l.l.Counts() }

// Last is the last sequence the count covers: a read up to it is
// complete. 0 when the read is not counted.
func (l *Losses) Last() uint64 {
	if !l.Counts() {
		return 0
	}
	return l.ms[0].Last
}

// Saw counts a message the read got at sequence seq.
func (l *Losses) Saw(seq uint64) {
	if l != nil {
		l.l.Saw(seq)
	}
}

// Source is src counting what each pass reads (replay.Losses.Source).
func (l *Losses) Source(src replay.Source) replay.Source {
	if l == nil {
		return src
	}
	return l.l.Source(src)
}

// Report writes to w, in lang, a warning of every loss and returns how
// many messages are missing (replay.Losses.Report); complete says the
// read went up to the filter's last sequence.
func (l *Losses) Report(w io.Writer, lang i18n.Lang, complete bool) uint64 {
	if l == nil {
		return 0
	}
	warnings, n := l.l.Report(complete)
	for _, e := range warnings {
		fmt.Fprintln(w, i18n.Render(e, lang))
	}
	return n
}

// ChainWarnings says, for journal log, where a campaign's chain breaks:
// Warn (a format and its arguments, in English) is told of each break.
type ChainWarnings struct {
	Warn  func(format string, args ...any)
	check replay.ChainChecker
}

// Event checks r's place in its campaign's chain and warns of a break.
func (w *ChainWarnings) Event(r events.Recorded) {
	for _, what := range w.check.Check(r) {
		w.Warn("warning: the campaign's chain breaks at sequence %d (event %s): %s", r.Seq, r.Event.ID, what)
	}
}
