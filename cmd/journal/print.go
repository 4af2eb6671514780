package main

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

// iw is the writer text renderers print to.
type iw = io.Writer

// hpBar and fraction are textout's HP bar and "hp/max".
var (
	hpBar    = textout.HPBar
	fraction = textout.Fraction
)

func printSheet(w iw, l i18n.Lang, c *projections.Campaign, s *projections.Sheet) {
	kind := l.T("print.player", s.Player)
	if s.NPC {
		kind = l.T("list.npc")
	}
	fmt.Fprintln(w, l.T("print.sheet_head", s.Name, s.ID, kind, c.ID, c.System))
	t := newTable("  ")
	if s.Occupation != "" {
		t.add(l.T("print.occupation"), s.Occupation)
	}
	t.add(l.T("print.hp"), fmt.Sprintf("%s %d/%d  %s", hpBar(s.HP, s.MaxHP, 20), s.HP, s.MaxHP, projections.StatusName(l, s.Status)))
	var attrs []string
	for _, a := range []string{"F", "R", "D", "I", "P", "C"} {
		if v, ok := s.Attributes[a]; ok {
			attrs = append(attrs, fmt.Sprintf("%s %d", a, v))
		}
	}
	t.add(l.T("print.attributes"), strings.Join(attrs, "  "))
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
	t.add(l.T("print.skills"), strings.Join(skills, ", "))
	if s.Specialization != "" {
		used := l.T("print.spec_available")
		if s.SpecUsedToday {
			used = l.T("print.spec_used")
		}
		t.add(l.T("print.spec"), fmt.Sprintf("%s (%s)", s.Specialization, used))
	}
	if len(s.Weapons) > 0 {
		t.add(l.T("print.weapons"), strings.Join(s.Weapons, ", "))
	}
	t.add(l.T("print.xp"), l.T("print.xp_value", s.XP, s.XPTotal))
	if s.Token != "" {
		note := ""
		if s.TokenJustReturned {
			note = l.T("print.token_returned")
		}
		holder := l.T("print.token_player")
		if s.Token == "gm" {
			holder = l.T("print.token_gm")
		}
		t.add(l.T("print.token"), l.T("print.token_held", holder, note))
	}
	t.add(l.T("print.rolls"), strconv.Itoa(s.Rolls))
	t.add(l.T("print.as_of"), l.T("print.as_of_seq", c.LastSeq))
	t.write(w)
}

func printRoster(w iw, l i18n.Lang, c *projections.Campaign) {
	if c.TOR != nil {
		printTORRoster(w, l, c)
		return
	}
	t := newTable("  ").alignRight(4)
	for _, id := range c.Roster {
		s := c.Characters[id]
		who := s.Player
		if s.NPC {
			who = l.T("list.npc")
		}
		t.add(s.ID, s.Name, who, hpBar(s.HP, s.MaxHP, 12), fraction(s.HP, s.MaxHP), projections.StatusName(l, s.Status))
	}
	t.write(w)
}

func printCombat(w iw, l i18n.Lang, c *projections.Campaign) {
	cb := c.Combat
	fmt.Fprintln(w, l.T("print.combat", cb.Round))
	t := newTable("  ").alignRight(0, 4)
	for i, id := range cb.Order {
		s := c.Characters[id]
		mark := " "
		if cb.Attacked[id] {
			mark = "✓"
		}
		t.add(strconv.Itoa(i+1)+".", mark, s.Name, hpBar(s.HP, s.MaxHP, 12), fraction(s.HP, s.MaxHP),
			projections.StatusName(l, s.Status), l.T("print.damage_taken", cb.DamageTaken[id]))
	}
	t.write(w)
}

func printCampaign(w iw, l i18n.Lang, c *projections.Campaign) {
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
	printRoster(w, l, c)
	if len(c.Sessions) > 0 {
		fmt.Fprintln(w, l.T("print.sessions"))
		t := newTable("  ")
		for _, s := range slices.Backward(c.Sessions) {
			t.add(s.ID, s.Title, l.N("print.session_row", int(s.NextNonce), sessionState(l, s.Ended)))
		}
		t.write(w)
	}
	if c.Combat != nil {
		printCombat(w, l, c)
	}
	if c.TOR != nil {
		printTORCompany(w, l, c)
	}
}

// sessionState names a session's state.
func sessionState(l i18n.Lang, ended bool) string {
	if ended {
		return l.T("list.ended")
	}
	return l.T("list.in_progress")
}
