// Package sheettext writes the text of a campaign's read models
// (package projections) for the command line, in the output's language:
// a RyF or Galaxia character's sheet, a The One Ring character's sheet,
// advancement and company (tor.go), the roster, the combat, the campaign
// with its head and sessions, and the tables of the list verbs (lists.go).
//
// Invariants:
//   - It only reads the projections it is given; every label is the
//     catalogue's (i18n) in the language given, every name as recorded.
//   - Output is the same from run to run for the same campaign: maps are
//     printed in a fixed order (attributes F R D I P C, skills by name).
package sheettext

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/textout"
)

// Sheet writes s, a character of campaign c.
func Sheet(w io.Writer, l i18n.Lang, c *projections.Campaign, s *projections.Sheet) {
	kind := l.T("print.player", s.Player)
	if s.NPC {
		kind = l.T("list.npc")
	}
	fmt.Fprintln(w, l.T("print.sheet_head", s.Name, s.ID, kind, c.ID, c.System))
	t := textout.NewTable("  ")
	if s.Occupation != "" {
		t.Add(l.T("print.occupation"), s.Occupation)
	}
	t.Add(l.T("print.hp"), fmt.Sprintf("%s %d/%d  %s", textout.HPBar(s.HP, s.MaxHP, 20), s.HP, s.MaxHP, projections.StatusName(l, s.Status)))
	var attrs []string
	for _, a := range []string{"F", "R", "D", "I", "P", "C"} {
		if v, ok := s.Attributes[a]; ok {
			attrs = append(attrs, fmt.Sprintf("%s %d", a, v))
		}
	}
	t.Add(l.T("print.attributes"), strings.Join(attrs, "  "))
	names := make([]string, 0, len(s.Skills))
	for k, v := range s.Skills {
		if v > 0 {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	skills := make([]string, len(names))
	for i, k := range names {
		mark := ""
		if k == s.Specialization {
			mark = "*"
		}
		skills[i] = fmt.Sprintf("%s%s %d", k, mark, s.Skills[k])
	}
	t.Add(l.T("print.skills"), strings.Join(skills, ", "))
	if s.Specialization != "" {
		used := l.T("print.spec_available")
		if s.SpecUsedToday {
			used = l.T("print.spec_used")
		}
		t.Add(l.T("print.spec"), fmt.Sprintf("%s (%s)", s.Specialization, used))
	}
	if len(s.Weapons) > 0 {
		t.Add(l.T("print.weapons"), strings.Join(s.Weapons, ", "))
	}
	t.Add(l.T("print.xp"), l.T("print.xp_value", s.XP, s.XPTotal))
	if s.Token != "" {
		note := ""
		if s.TokenJustReturned {
			note = l.T("print.token_returned")
		}
		holder := l.T("print.token_player")
		if s.Token == "gm" {
			holder = l.T("print.token_gm")
		}
		t.Add(l.T("print.token"), l.T("print.token_held", holder, note))
	}
	t.Add(l.T("print.rolls"), strconv.Itoa(s.Rolls))
	t.Add(l.T("print.as_of"), l.T("print.as_of_seq", c.LastSeq))
	t.Write(w)
}

// Roster writes the roster: The One Ring's (tor.go), or RyF's.
func Roster(w io.Writer, l i18n.Lang, c *projections.Campaign) {
	if c.TOR != nil {
		torRoster(w, l, c)
		return
	}
	ryfRoster(w, l, c)
}

// Campaign writes c: its head, roster and sessions, its combat if one is
// on, and The One Ring's company.
func Campaign(w io.Writer, l i18n.Lang, c *projections.Campaign) {
	CampaignHead(w, l, c)
	Roster(w, l, c)
	Sessions(w, l, c)
	if c.Combat != nil {
		Combat(w, l, c)
	}
	if c.TOR != nil {
		TORCompany(w, l, c)
	}
}

// ryfRoster writes the characters of a RyF or Galaxia campaign, one a line.
func ryfRoster(w io.Writer, l i18n.Lang, c *projections.Campaign) {
	t := textout.NewTable("  ").AlignRight(4)
	for _, id := range c.Roster {
		s := c.Characters[id]
		who := s.Player
		if s.NPC {
			who = l.T("list.npc")
		}
		t.Add(s.ID, s.Name, who, textout.HPBar(s.HP, s.MaxHP, 12), textout.Fraction(s.HP, s.MaxHP), projections.StatusName(l, s.Status))
	}
	t.Write(w)
}

// Combat writes c's combat: the round, and each fighter in order.
func Combat(w io.Writer, l i18n.Lang, c *projections.Campaign) {
	cb := c.Combat
	fmt.Fprintln(w, l.T("print.combat", cb.Round))
	t := textout.NewTable("  ").AlignRight(0, 4)
	for i, id := range cb.Order {
		s := c.Characters[id]
		mark := " "
		if cb.Attacked[id] {
			mark = "✓"
		}
		t.Add(strconv.Itoa(i+1)+".", mark, s.Name, textout.HPBar(s.HP, s.MaxHP, 12), textout.Fraction(s.HP, s.MaxHP),
			projections.StatusName(l, s.Status), l.T("print.damage_taken", cb.DamageTaken[id]))
	}
	t.Write(w)
}

// CampaignHead writes c's first lines: its id, name, system and options,
// its events and day, and the heading of its characters.
func CampaignHead(w io.Writer, l i18n.Lang, c *projections.Campaign) {
	opts := []string{}
	if c.Carisma {
		opts = append(opts, "carisma")
	}
	if c.HardDefense {
		opts = append(opts, "hard-defense")
	}
	fmt.Fprint(w, l.T("print.campaign", c.ID, c.Name, c.System))
	if len(opts) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(opts, ", "))
	}
	fmt.Fprintln(w, l.N("print.events_day", c.Events, c.Day+1))
	fmt.Fprintln(w, l.T("print.characters"))
}

// Sessions writes c's sessions, the last first; nothing when it has none.
func Sessions(w io.Writer, l i18n.Lang, c *projections.Campaign) {
	if len(c.Sessions) == 0 {
		return
	}
	fmt.Fprintln(w, l.T("print.sessions"))
	t := textout.NewTable("  ")
	for _, s := range slices.Backward(c.Sessions) {
		t.Add(s.ID, s.Title, l.N("print.session_row", int(s.NextNonce), SessionState(l, s.Ended)))
	}
	t.Write(w)
}

// SessionState names a session's state.
func SessionState(l i18n.Lang, ended bool) string {
	if ended {
		return l.T("list.ended")
	}
	return l.T("list.in_progress")
}
