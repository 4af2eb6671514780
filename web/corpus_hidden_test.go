package web

import (
	"fmt"
	"slices"

	"github.com/campaign-journal/journal/events"
)

// hidden: the GM's secret rolls (docs/design.md §3.4), each with the chain
// re-forged as the host would: a reveal's faces changed (its total
// recomputed), a reveal's inputs changed after the fact (another
// entropy, another nonce), a reveal dropped (the secret roll never
// revealed: hidden-unrevealed), a secret roll's record dropped (its
// reveal names nothing).
func (g *corpusGen) hidden() {
	reveals := g.where(func(l corpusLine) bool { return l.ev.Type == events.TypeRollMade && l.d["hidden"] != nil })
	hidden := g.where(ofType(events.TypeRollHidden))
	if len(reveals) == 0 {
		return
	}
	for _, i := range g.spread(reveals, 2) {
		g.add(fmt.Sprintf("reveal-faces-%d", i+1), "a secret roll's reveal with its first face changed and its total recomputed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			f := l.d["faces"].([]any)
			sides := 20
			if draws, ok := l.d["draws"].([]any); ok && len(draws) > 0 {
				sides = num(draws[0])
			}
			was := num(f[0])
			f[0] = float64(was%sides + 1)
			l.d["total"] = float64(num(l.d["total"]) - was + num(f[0]))
		}))
		g.add(fmt.Sprintf("reveal-nonce-%d", i+1), "a secret roll's reveal with another nonce (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["nonce"] = float64(num(l.d["nonce"]) + 1)
		}))
		if _, v1 := g.lines[i].d["request"]; !v1 {
			g.add(fmt.Sprintf("reveal-entropy-%d", i+1), "a secret roll's reveal drawn with another entropy, chosen after the fact (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
				l.d["entropy"] = "chosen later"
			}))
		}
		out := rechainLines(g.t, slices.Delete(slices.Clone(g.base.lines), i, i+1))
		g.add(fmt.Sprintf("reveal-dropped-%d", i+1), "a secret roll's reveal dropped, the chain re-forged (the secret roll never revealed): "+g.pos(i), out)
	}
	for _, i := range g.spread(hidden, 1) {
		out := rechainLines(g.t, slices.Delete(slices.Clone(g.base.lines), i, i+1))
		g.add(fmt.Sprintf("hidden-dropped-%d", i+1), "a secret roll's record dropped, the chain re-forged (its reveal names nothing): "+g.pos(i), out)
	}
}
