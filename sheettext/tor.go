package sheettext

import (
	"fmt"
	"io"
	"strings"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/tor"
	"github.com/campaign-journal/journal/textout"
)

// AdvancementReport is what 'advancement show' prints: a character's
// advancement boxes and the rolls of the adventure that qualify for one.
type AdvancementReport struct {
	Character string             `json:"character"`
	Name      string             `json:"name"`
	Adventure int                `json:"adventure"` // 0: none in progress
	Groups    []GroupAdvancement `json:"groups"`
	Points    int                `json:"adventure_points"`
	Total     int                `json:"advancement_total"`
}

// GroupAdvancement is one skill group's points and qualifying rolls.
type GroupAdvancement struct {
	Group    tor.Group      `json:"group"`
	Points   int            `json:"points"`
	Eligible []EligibleRoll `json:"eligible,omitempty"`
}

// EligibleRoll is a roll of the adventure that qualifies for a box.
type EligibleRoll struct {
	Roll   string `json:"roll"`
	Skill  string `json:"skill"`
	Result string `json:"result"`
	Box    int    `json:"box"`
	Reason string `json:"reason"`
	// result names the result in the text's language.
	result tor.Result
}

// AdvancementOf is the advancement report of ch in s: its points in each
// group, in the order of tor.Groups, and the rolls that qualify.
func AdvancementOf(s *projections.TORState, ch *projections.TORSheet) AdvancementReport {
	rep := AdvancementReport{Character: ch.ID, Name: ch.Name, Points: ch.AdventurePoints(), Total: ch.AdvancementTotal}
	if s.Adventure != nil {
		rep.Adventure = s.Adventure.Number
	}
	rolls := s.AdventureRolls(ch.ID)
	for _, g := range tor.Groups() {
		ga := GroupAdvancement{Group: g, Points: ch.Advancement[g]}
		for _, r := range rolls {
			if r.Group != g {
				continue
			}
			if e, err := s.Eligibility(r); err == nil && e.Qualifies {
				ga.Eligible = append(ga.Eligible, EligibleRoll{Roll: r.EventID, Skill: r.Skill, Result: r.Result.Describe(), Box: e.Box, Reason: e.Reason, result: r.Result})
			}
		}
		rep.Groups = append(rep.Groups, ga)
	}
	return rep
}

// Advancement writes rep, of campaign c: each group's boxes, and under
// them the qualifying rolls with the command that grants each.
func Advancement(w io.Writer, l i18n.Lang, c *projections.Campaign, rep AdvancementReport) {
	adv := l.T("torp.no_adventure_short")
	if rep.Adventure > 0 {
		adv = l.T("torp.adventure_n", rep.Adventure)
	}
	fmt.Fprintln(w, l.T("torp.adv_head", rep.Name, rep.Character, adv))
	t := textout.NewTable("  ")
	for _, g := range rep.Groups {
		t.Add(string(g.Group), boxes(g.Points))
		for _, e := range g.Eligible {
			t.Add("", l.T("torp.eligible", e.Roll, e.Skill, torResultName(l, e.result), e.Box, projections.AdvancementReason(l, e.Reason)))
			t.Add("", "  "+fmt.Sprintf("journal advancement grant %s %s --roll %s", rep.Character, QuoteArg(string(g.Group)), e.Roll))
		}
	}
	t.Add(l.T("torp.this_adventure"), l.N("torp.adv_points", rep.Points, rep.Total))
	t.Add(l.T("print.as_of"), l.T("print.as_of_seq", c.LastSeq))
	t.Write(w)
}

// torResultName names a One Ring result in l: failure, success, great or
// extraordinary success.
func torResultName(l i18n.Lang, r tor.Result) string {
	switch {
	case !r.Success:
		return l.T("tor.failure")
	case r.Quality == tor.QualityGreat:
		return l.T("tor.great")
	case r.Quality == tor.QualityExtraordinary:
		return l.T("tor.extraordinary")
	}
	return l.T("tor.success")
}

// QuoteArg quotes s for a command line to type when it holds a blank.
func QuoteArg(s string) string {
	if strings.ContainsAny(s, " \t") {
		return `"` + s + `"`
	}
	return s
}

// boxes draws a group's 3 advancement boxes: ■■□.
func boxes(n int) string {
	n = max(0, min(n, tor.MaxAdvancementPoints))
	return strings.Repeat("■", n) + strings.Repeat("□", tor.MaxAdvancementPoints-n)
}

// TORSheet writes s, a The One Ring character of campaign c: its
// attributes, Hope, Shadow, traits, advancement and last roll, then its
// skills by group.
func TORSheet(w io.Writer, l i18n.Lang, c *projections.Campaign, s *projections.TORSheet) {
	kind := l.T("print.player", s.Player)
	if s.NPC {
		kind = l.T("list.npc")
	}
	if s.Culture != "" {
		kind += ", " + s.Culture
	}
	if s.IsHobbit() {
		kind += " (hobbit)"
	}
	fmt.Fprintln(w, l.T("print.sheet_head", s.Name, s.ID, kind, c.ID, c.System))
	at := s.Attributes
	t := textout.NewTable("  ")
	t.Add(l.T("print.attributes"), l.T("torp.attrs", at.Cuerpo.Basic, at.Cuerpo.Favoured, at.Corazon.Basic, at.Corazon.Favoured, at.Mente.Basic, at.Mente.Favoured))
	t.Add(l.T("torp.hope"), fmt.Sprintf("%s %d/%d", textout.HPBar(s.Hope, s.MaxHope, 12), s.Hope, s.MaxHope))
	t.Add(l.T("torp.shadow"), l.T("torp.shadow_value", s.Shadow, s.PermanentShadow, s.TotalShadow()))
	switch {
	case s.Mad:
		t.Add(l.T("torp.madness"), l.T("torp.mad", s.Name))
	case s.MadnessRisk:
		t.Add(l.T("torp.madness"), l.T("torp.at_risk", s.Hope, s.TotalShadow()))
	}
	t.Add(l.T("torp.traits"), listOrNone(l, quoted(s.Traits)))
	if len(s.Flaws) > 0 {
		t.Add(l.T("torp.flaws"), strings.Join(quoted(s.Flaws), ", "))
	}
	if s.PendingTrait != "" {
		t.Add(l.T("torp.invoked"), l.T("torp.invoked_value", s.PendingTrait))
	}
	sk := textout.NewTable("  ", l.T("torp.skills_fav"), string(tor.Cuerpo), string(tor.Corazon), string(tor.Mente), l.T("torp.advancement"))
	for _, g := range tor.Groups() {
		row := []string{string(g)}
		for _, skill := range g.Skills() {
			r := s.Rating(skill)
			mark := " "
			if r.Favoured {
				mark = "*"
			}
			row = append(row, fmt.Sprintf("%s %d%s", skill.Name, r.Rank, mark))
		}
		sk.Add(append(row, boxes(s.Advancement[g]))...)
	}
	adv := l.T("torp.between")
	if c.TOR.Adventure != nil {
		adv = l.T("torp.adventure_n", c.TOR.Adventure.Number)
	}
	t.Add(l.T("torp.advancement"), l.N("torp.points", s.AdventurePoints(), adv, s.AdvancementTotal))
	t.Add(l.T("print.rolls"), l.T("torp.rolls_value", s.Rolls, s.Successes, s.Eyes, s.Runes))
	if r := s.LastRoll; r != nil {
		hope := ""
		if r.HopeSpent {
			hope = l.T("torp.hope_bonus", r.Result.HopeBonus)
		}
		t.Add(l.T("torp.last_roll"), l.T("torp.last_roll_value", r.Skill, r.Result.TN, r.Result.Total, torResultName(l, r.Result), hope, r.EventID))
	}
	t.Add(l.T("print.as_of"), l.T("print.as_of_seq", c.LastSeq))
	t.Write(w)
	sk.Write(w)
}

// quoted puts each name between «», as the transcript names traits.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "«" + n + "»"
	}
	return out
}

func listOrNone(l i18n.Lang, xs []string) string {
	if len(xs) == 0 {
		return l.T("torp.none")
	}
	return strings.Join(xs, ", ")
}

// torRoster lists a The One Ring campaign's characters.
func torRoster(w io.Writer, l i18n.Lang, c *projections.Campaign) {
	t := textout.NewTable("  ").AlignRight(5)
	for _, id := range c.TOR.Roster {
		s := c.TOR.Characters[id]
		who := s.Player
		if s.NPC {
			who = l.T("list.npc")
		}
		state := ""
		switch {
		case s.Mad:
			state = l.T("torp.state_mad")
		case s.MadnessRisk:
			state = l.T("torp.state_risk")
		}
		t.Add(s.ID, s.Name, who, l.T("torp.hope"), textout.HPBar(s.Hope, s.MaxHope, 12), textout.Fraction(s.Hope, s.MaxHope),
			l.T("torp.shadow_short", s.Shadow, s.PermanentShadow), state)
	}
	t.Write(w)
}

// TORCompany writes the adventure, the pool and the open request of c, a
// The One Ring campaign.
func TORCompany(w io.Writer, l i18n.Lang, c *projections.Campaign) {
	s := c.TOR
	if a := s.Adventure; a != nil {
		title := ""
		if a.Title != "" {
			title = " «" + a.Title + "»"
		}
		fmt.Fprintln(w, l.T("torp.adventure_on", a.Number, title, s.Pool))
	} else {
		fmt.Fprintln(w, l.N("torp.adventure_off", s.Adventures, s.Pool))
	}
	fmt.Fprintln(w, l.T("torp.fellowship", listOrNone(l, s.Fellowship())))
	if r := s.Request; r != nil {
		fmt.Fprint(w, l.T("torp.request", r.Character, r.EventID))
		for _, b := range r.Ballots {
			v := l.T("tor.no")
			if b.Agree {
				v = l.T("tor.yes")
			}
			fmt.Fprintf(w, " %s %s;", b.Voter, v)
		}
		switch {
		case r.Refused():
			// The commands are named as they are typed, in any language.
			fmt.Fprintln(w, l.T("torp.refused", "'fellowship take "+r.Character+"'", "'fellowship withdraw "+r.Character+"'"))
		default:
			fmt.Fprintln(w, l.T("torp.waiting_for", strings.Join(r.Waiting(), ", ")))
		}
	}
}
