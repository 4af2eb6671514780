package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/tor"
)

// torCommands are The One Ring's own commands:
//
//	hope spend CHAR [ROLL_EVENT_ID]
//	fellowship ask CHAR | vote CHAR VOTER yes|no | take CHAR | withdraw CHAR | show | phase
//	shadow gain CHAR N [--reason R]
//	madness end CHAR --flaw F
//	trait invoke CHAR TRAIT --auto [--skill S] | --roll
//	advancement grant CHAR GROUP|SKILL [--roll EVENT_ID] | show CHAR [--at SEQ]
//	adventure start [TITLE]
func (a *app) torCommands() []*cobra.Command {
	return []*cobra.Command{a.hopeCommand(), a.fellowshipCommand(), a.shadowCommand(), a.madnessCommand(),
		a.traitCommand(), a.advancementCommand(), a.adventureCommand()}
}

func (a *app) hopeCommand() *cobra.Command {
	return a.specGroup("hope", "Spend Hope on a failed roll", []string{"hope-spend"})
}

func (a *app) fellowshipCommand() *cobra.Command {
	var at uint64
	show := &cobra.Command{
		Use:   "show [--at SEQ]",
		Short: "Show the adventure, the fellowship pool, the company and the open request",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.loadTOR(c, at)
			if err != nil {
				return err
			}
			s := camp.TOR
			doc := map[string]any{"pool": s.Pool, "adventure": s.Adventure, "adventures": s.Adventures,
				"fellowship": s.Fellowship(), "request": s.Request}
			return a.emit(doc, func(w iw) { printTORCompany(w, a.language(), camp) })
		},
	}
	show.Flags().Uint64Var(&at, "at", 0, "as of this stream sequence")
	return a.specGroup("fellowship", "The fellowship pool, its vote, and the fellowship phase",
		[]string{"fellowship-ask", "fellowship-vote", "fellowship-take", "fellowship-withdraw", "fellowship-phase"}, show)
}

func (a *app) shadowCommand() *cobra.Command {
	return a.specGroup("shadow", "Shadow", []string{"shadow-gain"})
}

func (a *app) madnessCommand() *cobra.Command {
	return a.specGroup("madness", "Bouts of madness (one begins when a roll shows the Eye while Hope is below Shadow)", []string{"madness-end"})
}

func (a *app) traitCommand() *cobra.Command {
	return a.specGroup("trait", "Traits", []string{"trait-invoke"})
}

func (a *app) advancementCommand() *cobra.Command {
	var at uint64
	show := &cobra.Command{
		Use:   "show CHAR [--at SEQ]",
		Short: "Show a character's advancement boxes and which rolls of the adventure qualify for which box",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			camp, err := a.loadTOR(c, at)
			if err != nil {
				return err
			}
			ch := camp.TOR.Sheet(args[0])
			if ch == nil {
				return noCharacter(camp, args[0], at)
			}
			rep := advancementOf(camp.TOR, ch)
			return a.emit(rep, func(w iw) { printAdvancement(w, a.language(), camp, rep) })
		},
	}
	show.Flags().Uint64Var(&at, "at", 0, "as of this stream sequence")
	return a.specGroup("advancement", "Advancement points (at most 3 per skill group per adventure)", []string{"advancement-grant"}, show)
}

func (a *app) adventureCommand() *cobra.Command {
	return a.specGroup("adventure", "Adventures (the fellowship phase ends one)", []string{"adventure-start"})
}

// loadTOR folds a The One Ring campaign as of sequence at.
func (a *app) loadTOR(c *cobra.Command, at uint64) (*projections.Campaign, error) {
	camp, err := a.load(c, at)
	if err != nil {
		return nil, err
	}
	if camp.TOR == nil {
		return nil, msgerr.Errorf("campaign %s plays %s: this command is for The One Ring (tor)", camp.ID, camp.System)
	}
	return camp, nil
}

// advancementReport is what 'advancement show' prints.
type advancementReport struct {
	Character string             `json:"character"`
	Name      string             `json:"name"`
	Adventure int                `json:"adventure"` // 0: none in progress
	Groups    []groupAdvancement `json:"groups"`
	Points    int                `json:"adventure_points"`
	Total     int                `json:"advancement_total"`
}

type groupAdvancement struct {
	Group    tor.Group      `json:"group"`
	Points   int            `json:"points"`
	Eligible []eligibleRoll `json:"eligible,omitempty"`
}

type eligibleRoll struct {
	Roll   string `json:"roll"`
	Skill  string `json:"skill"`
	Result string `json:"result"`
	Box    int    `json:"box"`
	Reason string `json:"reason"`
	// result names the result in the text's language.
	result tor.Result
}

func advancementOf(s *projections.TORState, ch *projections.TORSheet) advancementReport {
	rep := advancementReport{Character: ch.ID, Name: ch.Name, Points: ch.AdventurePoints(), Total: ch.AdvancementTotal}
	if s.Adventure != nil {
		rep.Adventure = s.Adventure.Number
	}
	rolls := s.AdventureRolls(ch.ID)
	for _, g := range tor.Groups() {
		ga := groupAdvancement{Group: g, Points: ch.Advancement[g]}
		for _, r := range rolls {
			if r.Group != g {
				continue
			}
			if e, err := s.Eligibility(r); err == nil && e.Qualifies {
				ga.Eligible = append(ga.Eligible, eligibleRoll{Roll: r.EventID, Skill: r.Skill, Result: r.Result.Describe(), Box: e.Box, Reason: e.Reason, result: r.Result})
			}
		}
		rep.Groups = append(rep.Groups, ga)
	}
	return rep
}

func printAdvancement(w iw, l i18n.Lang, c *projections.Campaign, rep advancementReport) {
	adv := l.T("torp.no_adventure_short")
	if rep.Adventure > 0 {
		adv = l.T("torp.adventure_n", rep.Adventure)
	}
	fmt.Fprintln(w, l.T("torp.adv_head", rep.Name, rep.Character, adv))
	t := newTable("  ")
	for _, g := range rep.Groups {
		t.add(string(g.Group), boxes(g.Points))
		for _, e := range g.Eligible {
			t.add("", l.T("torp.eligible", e.Roll, e.Skill, torResultName(l, e.result), e.Box, projections.AdvancementReason(l, e.Reason)))
			t.add("", "  "+fmt.Sprintf("journal advancement grant %s %s --roll %s", rep.Character, quoteArg(string(g.Group)), e.Roll))
		}
	}
	t.add(l.T("torp.this_adventure"), l.N("torp.adv_points", rep.Points, rep.Total))
	t.add(l.T("print.as_of"), l.T("print.as_of_seq", c.LastSeq))
	t.write(w)
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

// quoteArg quotes s for a command line to type when it holds a blank.
func quoteArg(s string) string {
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

// showTOR prints a The One Ring character sheet as of sequence at.
func (a *app) showTOR(camp *projections.Campaign, id string, at uint64) error {
	ch := camp.TOR.Sheet(id)
	if ch == nil {
		return noCharacter(camp, id, at)
	}
	return a.emit(ch, func(w iw) { printTORSheet(w, a.language(), camp, ch) })
}

func printTORSheet(w iw, l i18n.Lang, c *projections.Campaign, s *projections.TORSheet) {
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
	t := newTable("  ")
	t.add(l.T("print.attributes"), l.T("torp.attrs", at.Cuerpo.Basic, at.Cuerpo.Favoured, at.Corazon.Basic, at.Corazon.Favoured, at.Mente.Basic, at.Mente.Favoured))
	t.add(l.T("torp.hope"), fmt.Sprintf("%s %d/%d", hpBar(s.Hope, s.MaxHope, 12), s.Hope, s.MaxHope))
	t.add(l.T("torp.shadow"), l.T("torp.shadow_value", s.Shadow, s.PermanentShadow, s.TotalShadow()))
	switch {
	case s.Mad:
		t.add(l.T("torp.madness"), l.T("torp.mad", s.Name))
	case s.MadnessRisk:
		t.add(l.T("torp.madness"), l.T("torp.at_risk", s.Hope, s.TotalShadow()))
	}
	t.add(l.T("torp.traits"), listOrNone(l, quoted(s.Traits)))
	if len(s.Flaws) > 0 {
		t.add(l.T("torp.flaws"), strings.Join(quoted(s.Flaws), ", "))
	}
	if s.PendingTrait != "" {
		t.add(l.T("torp.invoked"), l.T("torp.invoked_value", s.PendingTrait))
	}
	sk := newTable("  ", l.T("torp.skills_fav"), string(tor.Cuerpo), string(tor.Corazon), string(tor.Mente), l.T("torp.advancement"))
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
		sk.add(append(row, boxes(s.Advancement[g]))...)
	}
	adv := l.T("torp.between")
	if c.TOR.Adventure != nil {
		adv = l.T("torp.adventure_n", c.TOR.Adventure.Number)
	}
	t.add(l.T("torp.advancement"), l.N("torp.points", s.AdventurePoints(), adv, s.AdvancementTotal))
	t.add(l.T("print.rolls"), l.T("torp.rolls_value", s.Rolls, s.Successes, s.Eyes, s.Runes))
	if r := s.LastRoll; r != nil {
		hope := ""
		if r.HopeSpent {
			hope = l.T("torp.hope_bonus", r.Result.HopeBonus)
		}
		t.add(l.T("torp.last_roll"), l.T("torp.last_roll_value", r.Skill, r.Result.TN, r.Result.Total, torResultName(l, r.Result), hope, r.EventID))
	}
	t.add(l.T("print.as_of"), l.T("print.as_of_seq", c.LastSeq))
	t.write(w)
	sk.write(w)
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

// printTORRoster lists a The One Ring campaign's characters.
func printTORRoster(w iw, l i18n.Lang, c *projections.Campaign) {
	t := newTable("  ").alignRight(5)
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
		t.add(s.ID, s.Name, who, l.T("torp.hope"), hpBar(s.Hope, s.MaxHope, 12), fraction(s.Hope, s.MaxHope),
			l.T("torp.shadow_short", s.Shadow, s.PermanentShadow), state)
	}
	t.write(w)
}

// printTORCompany prints the adventure, the pool and the open request.
func printTORCompany(w iw, l i18n.Lang, c *projections.Campaign) {
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
