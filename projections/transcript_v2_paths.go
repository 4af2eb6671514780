package projections

import (
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
)

// describePathRequest is the transcript line of a journal-dice-v2 request
// of a contest, a combat start or a healing after a combat.
func describePathRequest(l i18n.Lang, c *Campaign, d *events.RollRequested) (string, bool) {
	side := func(skill, attr string) string {
		if skill == "" {
			return attr
		}
		return skill
	}
	switch d.Kind {
	case "contest":
		return l.T("tr.contest_requested", d.User, short(d.Request), c.name(d.Character), side(d.Skill, d.Attribute),
			c.name(d.B), side(d.SkillB, d.AttributeB), d.Taken(), commitmentOf(l, d)), true
	case "initiative":
		names := make([]string, len(d.Participants))
		for i, p := range d.Participants {
			names[i] = c.name(p)
		}
		return l.T("tr.initiative_requested", d.User, strings.Join(names, ", "), short(d.Request), d.Taken(), commitmentOf(l, d)), true
	case "heal":
		return l.T("tr.heal_requested", d.User, c.name(d.Character), short(d.Request), d.Nonce, commitmentOf(l, d)), true
	}
	return "", false
}

// commitmentOf is a request's commitment as the transcript shows it: a
// GM's request has none (a player's witness, or its beacon round, gives r).
func commitmentOf(l i18n.Lang, d *events.RollRequested) string {
	if d.Commitment == "" {
		return l.T("tr.no_commitment")
	}
	return short(d.Commitment)
}
