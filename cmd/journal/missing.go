package main

import (
	"context"
	"fmt"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
)

// missingStore is a store that says what its streams miss (jetstore).
type missingStore interface {
	Missing(ctx context.Context, filter string) ([]events.Missing, error)
}

// losses is replay.Losses (what the streams a read covers say they miss)
// under the names the command files use; nil when the store cannot say.
type losses struct {
	*replay.Losses
	ms []events.Missing // log.go reads ms[0].Last
}

// losses asks st what the streams of filter miss; nil when st cannot say
// (a store other than the journal's streams).
func (a *app) losses(ctx context.Context, st store, filter string) (*losses, error) {
	m, ok := st.(missingStore)
	if !ok {
		return nil, nil
	}
	ms, err := m.Missing(ctx, filter)
	if err != nil {
		return nil, err
	}
	return &losses{replay.NewLosses(ms, filter), ms}, nil
}

func (l *losses) counts() bool { return l != nil && l.Counts() }

func (l *losses) saw(seq uint64) {
	if l != nil {
		l.Saw(seq)
	}
}

func (l *losses) source(src replay.Source) replay.Source {
	if l == nil {
		return src
	}
	return l.Source(src)
}

// report warns on stderr of every loss and returns how many messages are
// missing (replay.Losses.Report).
func (l *losses) report(a *app, complete bool) uint64 {
	if l == nil {
		return 0
	}
	warnings, n := l.Report(complete)
	for _, w := range warnings {
		fmt.Fprintln(a.stderr, i18n.Render(w, a.language()))
	}
	return n
}

// chainWarnings says, for journal log, where a campaign's chain breaks.
type chainWarnings struct {
	a     *app
	check replay.ChainChecker
}

// event checks r's place in its campaign's chain and warns of a break.
func (w *chainWarnings) event(r events.Recorded) {
	for _, what := range w.check.Check(r) {
		w.a.warnf("warning: the campaign's chain breaks at sequence %d (event %s): %s", r.Seq, r.Event.ID, what)
	}
}
