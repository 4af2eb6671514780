package web

import (
	"fmt"

	"github.com/campaign-journal/journal/signed"
)

// receipts: the host rewrites an event before a player's signed message
// and re-forges the chain (docs/design.md §3.3, "Receipts"). Every check of
// the file alone holds but the message's seen, the hash of the event its
// device had received when it signed, which is no longer in the history:
// replay and verify.js both find it (replay/v2_seen.go, seenStep). Only
// in files whose messages carry seen (exports made since devices send it).
func (g *corpusGen) receipts() {
	first := -1 // the first line whose message carries seen
	for i, l := range g.lines {
		s, _ := l.d["signed"].(string)
		if m, err := signed.Parse(s); s != "" && err == nil && m.Head().Seen != nil {
			first = i
			break
		}
	}
	if first < 1 {
		return
	}
	// The earliest event with a name in its data (a campaign's or a
	// character's): renaming it changes no roll, only the history.
	for i := range first {
		if _, ok := g.lines[i].d["name"].(string); ok {
			g.add(fmt.Sprintf("rewritten-before-seen-%d", i+1), "an event before a player's message rewritten, the chain re-forged; the message's seen is not in the history: "+g.pos(i),
				g.editAt(i, true, func(l *corpusLine) { l.d["name"] = l.d["name"].(string) + " (rewritten)" }))
			return
		}
	}
}
