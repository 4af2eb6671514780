package projections

import (
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
)

// describeTable is the transcript line of the table's events (table.go):
// roll calls, their answers and closes, void proposals and consents.
func describeTable(l i18n.Lang, c *Campaign, data any) (string, bool) {
	switch d := data.(type) {
	case *events.CallMade:
		names := make([]string, len(d.Characters))
		for i, id := range d.Characters {
			names[i] = c.name(id)
		}
		what := d.Skill
		if what == "" {
			what = d.Attribute
		}
		if d.Vs != "" {
			what += " vs " + d.Vs
		}
		line := l.T("tr.call_made", d.By, d.Call, what, strings.Join(names, ", "))
		if d.Note != "" {
			line += " «" + d.Note + "»"
		}
		return line, true
	case *events.CallClosed:
		if d.Reason != "" {
			return l.T("tr.call_closed_reason", d.By, d.Call, d.Reason), true
		}
		return l.T("tr.call_closed", d.By, d.Call), true
	case *events.CallAnswered:
		return l.T("tr.call_answered", c.name(d.Character), d.Call), true
	case *events.VoidProposed:
		return l.T("tr.void_proposed", d.By, d.Proposal, short(d.EventID), c.name(d.Character), d.Reason, d.Roller), true
	case *events.VoidConsented:
		return l.T("tr.void_consented", d.User, d.Proposal, short(d.EventID)), true
	}
	return "", false
}
