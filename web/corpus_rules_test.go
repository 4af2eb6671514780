package web

import (
	"fmt"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
)

// rulesVersions: the rules version a roll records (docs/rules.md "Rules
// versions"), each with the chain re-forged as the host would: a roll
// claiming a version no verifier knows (flagged unknown-rules, never
// judged by today's rules), every roll's version removed as the journal
// recorded them before it named one (the same verdict as the genuine
// file: read as version 1, a side flagged opposed as ryf/2), and a contest
// side flagged opposed claiming ryf/1, which has no opposed rolls (a
// mismatch). In a few files only: the corpus stays small (the first in
// v1-ryf, v1-tor and v2-ryf, the others in v1-ryf).
func (g *corpusGen) rulesVersions() {
	if !slices.Contains([]string{"v1-ryf", "v1-tor", "v2-ryf"}, g.base.name) {
		return
	}
	plain := g.where(func(l corpusLine) bool {
		return l.ev.Type == events.TypeRollMade && l.d["opposed"] == nil && l.d["hidden"] == nil
	})
	for _, i := range g.spread(plain, 1) {
		g.add("rules-unknown", "a roll claiming a rules version no verifier knows (chain re-forged): flagged unknown-rules, never judged by today's rules (in a journal-dice-v2 session the devices' receipts also catch the rewrite): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			engine, _, _ := strings.Cut(fmt.Sprint(l.d["rules"]), "/")
			if l.d["rules"] == nil {
				engine = map[any]string{"tor": "tor", "free": "dice"}[l.d["kind"]]
				if engine == "" {
					engine = "ryf"
				}
			}
			l.d["rules"] = engine + "/99"
		}))
	}
	if g.base.name != "v1-ryf" {
		return // in a journal-dice-v2 session the devices' receipts catch any rewrite
	}
	named := g.where(func(l corpusLine) bool {
		return (l.ev.Type == events.TypeRollMade || l.ev.Type == events.TypeRollHidden) && l.d["rules"] != nil
	})
	if len(named) > 0 {
		out := slices.Clone(g.base.lines)
		for _, i := range named {
			l := decodeLine(g.t, g.base.lines[i])
			delete(l.d, "rules")
			out[i] = l.encode(g.t)
		}
		g.add("rules-absent", "every roll's rules version removed, as recorded before rolls named one (chain re-forged): the genuine file's verdict", rechainLines(g.t, out))
	}
	opposed := g.where(func(l corpusLine) bool { return l.ev.Type == events.TypeRollMade && l.d["opposed"] == true })
	for _, i := range g.spread(opposed, 1) {
		g.add("rules-v1-opposed", "a contest side flagged opposed claiming rules ryf/1, which have no opposed rolls (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["rules"] = "ryf/1"
		}))
	}
}
