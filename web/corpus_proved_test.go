package web

import (
	"slices"

	"github.com/campaign-journal/journal/events"
)

// proved: what a host would do to a suppressed roll's proof
// (journal.roll.proved.v1, docs/design.md §3.3), each with the chain
// re-forged: a face of the roll it would have been, its reveal, who
// cancelled it, or the proof dropped (then only cancelled is flagged).
func (g *corpusGen) proved() {
	idx := g.where(ofType(events.TypeRollProved))
	if len(idx) == 0 {
		return
	}
	i := idx[0]
	g.add("proved-face", "a face of the proved roll changed, in faces and rolls (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
		rolls := l.d["rolls"].([]any)
		r := rolls[0].(map[string]any)
		f := slices.Clone(r["faces"].([]any))
		f[0] = float64(num(f[0])%10 + 1)
		r["faces"] = f
		l.d["faces"] = f
	}))
	g.add("proved-reveal", "the proved reveal changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
		rv := []byte(l.d["reveal"].(string))
		rv[0] = "01"[(rv[0]-'0'+1)%2]
		l.d["reveal"] = string(rv)
	}))
	g.add("proved-by", "who cancelled the proved request changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
		l.d["cancelled_by"] = "ana"
	}))
	out := slices.Delete(slices.Clone(g.base.lines), i, i+1)
	g.add("proved-dropped", "the proof dropped (chain re-forged): "+g.pos(i), rechainLines(g.t, out))
}
