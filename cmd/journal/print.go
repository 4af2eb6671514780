package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/campaign-journal/journal/projections"
)

// iw is the writer text renderers print to.
type iw = io.Writer

// hpBar draws current HP out of max as a bar of width cells.
func hpBar(hp, maxHP, width int) string {
	if maxHP <= 0 {
		return strings.Repeat("░", width)
	}
	n := max(0, min(width, hp*width/maxHP))
	if hp > 0 && n == 0 {
		n = 1
	}
	return strings.Repeat("█", n) + strings.Repeat("░", width-n)
}

func printSheet(w iw, c *projections.Campaign, s *projections.Sheet) {
	kind := "player " + s.Player
	if s.NPC {
		kind = "NPC"
	}
	fmt.Fprintf(w, "%s (%s) — %s, campaign %s (%s)\n", s.Name, s.ID, kind, c.ID, c.System)
	if s.Occupation != "" {
		fmt.Fprintf(w, "  occupation   %s\n", s.Occupation)
	}
	fmt.Fprintf(w, "  HP           %s %d/%d  %s\n", hpBar(s.HP, s.MaxHP, 20), s.HP, s.MaxHP, s.Status)
	var attrs []string
	for _, a := range []string{"F", "R", "D", "I", "P", "C"} {
		if v, ok := s.Attributes[a]; ok {
			attrs = append(attrs, fmt.Sprintf("%s %d", a, v))
		}
	}
	fmt.Fprintf(w, "  attributes   %s\n", strings.Join(attrs, "  "))
	names := make([]string, 0, len(s.Skills))
	for k, v := range s.Skills {
		if v > 0 {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	fmt.Fprintf(w, "  skills       ")
	for i, k := range names {
		if i > 0 {
			fmt.Fprint(w, ", ")
		}
		mark := ""
		if k == s.Specialization {
			mark = "*"
		}
		fmt.Fprintf(w, "%s%s %d", k, mark, s.Skills[k])
	}
	fmt.Fprintln(w)
	if s.Specialization != "" {
		used := "available today"
		if s.SpecUsedToday {
			used = "used today"
		}
		fmt.Fprintf(w, "  spec         %s (%s)\n", s.Specialization, used)
	}
	if len(s.Weapons) > 0 {
		fmt.Fprintf(w, "  weapons      %s\n", strings.Join(s.Weapons, ", "))
	}
	fmt.Fprintf(w, "  XP           %d to spend (%d earned)\n", s.XP, s.XPTotal)
	if s.Token != "" {
		note := ""
		if s.TokenJustReturned {
			note = " (just returned: next roll one level lower)"
		}
		fmt.Fprintf(w, "  token        held by the %s%s\n", s.Token, note)
	}
	fmt.Fprintf(w, "  rolls        %d\n", s.Rolls)
	fmt.Fprintf(w, "  as of        sequence %d\n", c.LastSeq)
}

func printRoster(w iw, c *projections.Campaign) {
	if c.TOR != nil {
		printTORRoster(w, c)
		return
	}
	for _, id := range c.Roster {
		s := c.Characters[id]
		who := s.Player
		if s.NPC {
			who = "NPC"
		}
		fmt.Fprintf(w, "  %-12s %-16s %-8s %s %3d/%-3d %s\n", s.ID, s.Name, who, hpBar(s.HP, s.MaxHP, 12), s.HP, s.MaxHP, s.Status)
	}
}

func printCombat(w iw, c *projections.Campaign) {
	cb := c.Combat
	fmt.Fprintf(w, "Combat, round %d — initiative order:\n", cb.Round)
	for i, id := range cb.Order {
		s := c.Characters[id]
		mark := " "
		if cb.Attacked[id] {
			mark = "✓"
		}
		fmt.Fprintf(w, "  %d. %s %-16s %s %3d/%-3d %-13s damage taken %d\n", i+1, mark, s.Name, hpBar(s.HP, s.MaxHP, 12), s.HP, s.MaxHP, s.Status, cb.DamageTaken[id])
	}
}

func printCampaign(w iw, c *projections.Campaign) {
	opts := []string{}
	if c.Carisma {
		opts = append(opts, "carisma")
	}
	if c.HardDefense {
		opts = append(opts, "hard-defense")
	}
	fmt.Fprintf(w, "Campaign %s «%s», system %s", c.ID, c.Name, c.System)
	if len(opts) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(opts, ", "))
	}
	fmt.Fprintf(w, ", %d events, day %d\n", c.Events, c.Day+1)
	fmt.Fprintln(w, "Characters:")
	printRoster(w, c)
	if len(c.Sessions) > 0 {
		fmt.Fprintln(w, "Sessions:")
		for _, s := range slices.Backward(c.Sessions) {
			state := "in progress"
			if s.Ended {
				state = "ended, seed revealed"
			}
			fmt.Fprintf(w, "  %-8s %-24s %d rolls, %s\n", s.ID, s.Title, s.NextNonce, state)
		}
	}
	if c.Combat != nil {
		printCombat(w, c)
	}
	if c.TOR != nil {
		printTORCompany(w, c)
	}
}
