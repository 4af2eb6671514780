package projections

import (
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
)

// describeProved is the transcript line of a suppressed roll's proof
// (journal.roll.proved.v1): who proved which request, who cancelled it
// ("" when it was left unrevealed at its session's end), and the roll it
// would have been.
func describeProved(l i18n.Lang, c *Campaign, d *events.RollProved) string {
	faces, outcomes := ProvedText(d.Rolls)
	if d.CancelledBy == "" {
		return l.T("tr.roll_proved_unrevealed", d.User, short(d.Request), c.name(d.Character), faces, outcomes)
	}
	return l.T("tr.roll_proved", d.User, short(d.Request), c.name(d.Character), d.CancelledBy, faces, outcomes)
}

// ProvedText writes a proof's rolls as the transcript and the audit's
// flag say them (web/static/verify.js provedText writes the same): each
// roll's faces joined by ", ", the rolls by "; "; their outcomes (those
// recorded) likewise.
func ProvedText(rolls []events.ProvedRoll) (faces, outcomes string) {
	fs, os := make([]string, len(rolls)), make([]string, 0, len(rolls))
	for i, r := range rolls {
		parts := make([]string, len(r.Faces))
		for j, f := range r.Faces {
			parts[j] = strconv.Itoa(f)
		}
		fs[i] = strings.Join(parts, ", ")
		if r.Outcome != "" {
			os = append(os, r.Outcome)
		}
	}
	return strings.Join(fs, "; "), strings.Join(os, "; ")
}
