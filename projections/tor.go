package projections

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/tor"
)

// TORState is the state of a The One Ring campaign: its characters (in
// creation order), the fellowship pool, the adventure in progress and its
// rolls, and the pending request for a fellowship point.
//
// The pool is set when an adventure starts (one point per player character,
// plus one per hobbit), grows when a player character joins during an
// adventure, shrinks by one per point spent, and is reset at the fellowship
// phase that ends the adventure.
type TORState struct {
	Characters map[string]*TORSheet `json:"characters"`
	// Roster lists character ids in creation order.
	Roster []string `json:"roster"`
	Pool   int      `json:"pool"`
	// Adventure is the adventure in progress, nil between adventures.
	Adventure *TORAdventure `json:"adventure,omitempty"`
	// Adventures counts the adventures started.
	Adventures int `json:"adventures"`
	// Request is the pending request for a fellowship point, if any.
	Request *TORRequest `json:"request,omitempty"`
	// Rolls are the rolls of the adventure in progress, by event id.
	Rolls map[string]*TORRoll `json:"rolls,omitempty"`
}

// TORAdventure is an adventure in progress.
type TORAdventure struct {
	Number   int       `json:"number"`
	Title    string    `json:"title,omitempty"`
	Started  time.Time `json:"started"`
	StartSeq uint64    `json:"start_seq"`
}

// TORSheet is a The One Ring character sheet folded from its events: the
// rules' Character (attributes, skills, Hope, Shadow, traits, flaws,
// madness, advancement) and what the journal keeps about its play.
type TORSheet struct {
	ID     string `json:"id"`
	Player string `json:"player,omitempty"`
	NPC    bool   `json:"npc,omitempty"`
	tor.Character
	// MadnessRisk: Hope is below total Shadow, so the next Eye on a roll
	// starts a bout of madness.
	MadnessRisk bool `json:"madness_risk,omitempty"`
	// PendingTrait is a trait invoked with the GM's ruling "roll": the
	// character's next roll counts it as invoked.
	PendingTrait string `json:"pending_trait,omitempty"`
	// Points are the advancement points granted in the adventure in
	// progress, in order.
	Points []TORPoint `json:"points,omitempty"`
	// LastRoll is the character's latest roll (Hope is spent on it).
	LastRoll *TORRoll `json:"last_roll,omitempty"`

	Rolls      int    `json:"rolls"`
	Successes  int    `json:"successes"`
	Eyes       int    `json:"eyes"`
	Runes      int    `json:"runes"`
	CreatedSeq uint64 `json:"created_seq"`
}

// TORPoint is one advancement point granted in the current adventure.
type TORPoint struct {
	Group tor.Group `json:"group"`
	Box   int       `json:"box"`
	Roll  string    `json:"roll,omitempty"`
	Skill string    `json:"skill,omitempty"`
}

// TORRoll is one roll of a One Ring character as the journal keeps it:
// the result as judged (with any Hope added), and what came of it.
type TORRoll struct {
	EventID   string    `json:"event_id"`
	Seq       uint64    `json:"seq"`
	Character string    `json:"character"`
	Skill     string    `json:"skill"`
	Group     tor.Group `json:"group,omitempty"`
	Favoured  bool      `json:"favoured,omitempty"`
	Trait     string    `json:"trait,omitempty"`
	// Adventure is the adventure it was made in (0: between adventures).
	Adventure int        `json:"adventure"`
	Result    tor.Result `json:"result"`
	HopeSpent bool       `json:"hope_spent,omitempty"`
	// Madness: the roll showed the Eye while Hope was below total Shadow.
	Madness bool `json:"madness,omitempty"`
	// Box is the advancement box this roll earned (0: none granted).
	Box int `json:"box,omitempty"`
	// Request is a journal-dice-v2 roll's request (empty in a v1 session).
	Request string `json:"request,omitempty"`
}

// TORRequest is a pending request for a fellowship point and its votes.
type TORRequest struct {
	EventID    string       `json:"event_id"`
	Character  string       `json:"character"`
	Fellowship []string     `json:"fellowship"`
	Ballots    []tor.Ballot `json:"ballots"`
	// Tally is set once every other member has voted.
	Tally *tor.Tally `json:"tally,omitempty"`
}

// Vote is the request as the rules count it.
func (r *TORRequest) Vote() tor.Vote {
	return tor.Vote{Requester: r.Character, Fellowship: slices.Clone(r.Fellowship), Ballots: slices.Clone(r.Ballots)}
}

// Waiting lists the members who have not voted yet, in fellowship order.
func (r *TORRequest) Waiting() []string {
	var out []string
	for _, m := range r.Fellowship {
		if m != r.Character && !slices.ContainsFunc(r.Ballots, func(b tor.Ballot) bool { return b.Voter == m }) {
			out = append(out, m)
		}
	}
	return out
}

// Refused reports whether every vote is in and more than half refused: the
// requester may take the point anyway or withdraw.
func (r *TORRequest) Refused() bool { return r.Tally != nil && !r.Tally.Granted }

func newTORState() *TORState {
	return &TORState{Characters: map[string]*TORSheet{}, Rolls: map[string]*TORRoll{}}
}

// Sheet returns a character's sheet, or nil.
func (s *TORState) Sheet(id string) *TORSheet {
	if s == nil {
		return nil
	}
	return s.Characters[id]
}

// Company returns the player characters in creation order.
func (s *TORState) Company() []tor.Character {
	var out []tor.Character
	for _, id := range s.Roster {
		if ch := s.Characters[id]; !ch.NPC {
			out = append(out, ch.Character)
		}
	}
	return out
}

// Fellowship returns the ids of the player characters who can take part in
// a vote now: every player character not in a bout of madness (its player
// has lost control of it), in creation order.
func (s *TORState) Fellowship() []string {
	var out []string
	for _, id := range s.Roster {
		if ch := s.Characters[id]; !ch.NPC && !ch.Mad {
			out = append(out, id)
		}
	}
	return out
}

// AdventureRolls returns a character's rolls in the adventure in progress,
// in stream order.
func (s *TORState) AdventureRolls(char string) []*TORRoll {
	var out []*TORRoll
	for _, r := range s.Rolls {
		if r.Character == char {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *TORRoll) int { return int(a.Seq) - int(b.Seq) })
	return out
}

// Eligibility says whether a roll earns the next advancement point of its
// skill group now: it must be a roll of the adventure in progress that has
// not earned a point yet; the rules judge the box (tor.NextAdvancement).
func (s *TORState) Eligibility(r *TORRoll) (tor.Eligibility, error) {
	ch := s.Characters[r.Character]
	if ch == nil || r.Group == "" {
		return tor.Eligibility{}, msgerr.Errorf("%w: roll %s is not a roll of a common skill", tor.ErrUnknownSkill, r.EventID)
	}
	count := ch.Advancement[r.Group]
	if s.Adventure == nil || r.Adventure != s.Adventure.Number {
		return tor.Eligibility{Box: count + 1, Reason: "the roll was not made in the adventure in progress"}, nil
	}
	if r.Box != 0 {
		return tor.Eligibility{Box: count + 1, Reason: fmt.Sprintf("the roll already earned box %d", r.Box)}, nil
	}
	return tor.NextAdvancement(r.Result, r.Trait != "", count)
}

func (s *TORState) refresh() {
	for _, ch := range s.Characters {
		ch.MadnessRisk = ch.Hope < ch.TotalShadow()
	}
}

// applyTORRoll folds a One Ring roll into its character's sheet.
func (c *Campaign) applyTORRoll(rec events.Recorded, d *events.RollMade) {
	s := c.TOR
	if s == nil || d.System != events.SystemTOR || d.Kind == "free" || len(d.Faces) == 0 {
		return
	}
	ch := s.Characters[d.Character]
	if ch == nil {
		return
	}
	res := tor.Result{
		TN: d.TN, Feat: d.Faces[0], SuccessDice: slices.Clone(d.Faces[1:]), Eye: d.Eye, Rune: d.Rune,
		Total: d.Total, Success: d.Outcome == string(tor.OutcomeSuccess), Quality: tor.Quality(d.Quality),
		Outcome: tor.Outcome(d.Outcome),
	}
	for _, f := range res.SuccessDice {
		if f == tor.SuccessSides {
			res.Sixes++
		}
	}
	r := &TORRoll{
		EventID: rec.Event.ID, Seq: rec.Seq, Character: ch.ID, Skill: d.Skill, Favoured: d.Favoured,
		Trait: d.Trait, Result: res, Madness: tor.MadnessTriggered(ch.Character, res),
		Request: d.Request,
	}
	if sk, err := tor.LookupSkill(d.Skill); err == nil {
		r.Group = sk.Group
	}
	ch.Rolls++
	if res.Success {
		ch.Successes++
	}
	if res.Eye {
		ch.Eyes++
	}
	if res.Rune {
		ch.Runes++
	}
	ch.PendingTrait = ""
	if s.Adventure != nil {
		r.Adventure = s.Adventure.Number
		if s.Rolls == nil {
			s.Rolls = map[string]*TORRoll{}
		}
		s.Rolls[r.EventID] = r
	}
	last := *r
	ch.LastRoll = &last
}

// applyTOR folds The One Ring's events.
func (c *Campaign) applyTOR(rec events.Recorded, data any) {
	s := c.TOR
	if s == nil {
		return
	}
	ev := rec.Event
	switch d := data.(type) {
	case *events.TORCharacterCreated:
		id := characterID(ev)
		ch := &TORSheet{ID: id, Player: d.Player, NPC: d.NPC, CreatedSeq: rec.Seq, Character: characterOf(d)}
		s.Characters[id] = ch
		s.Roster = append(s.Roster, id)
		if s.Adventure != nil && !d.NPC {
			s.Pool += tor.StartingPool([]tor.Character{ch.Character})
		}
	case *events.TORHopeSpent:
		if ch := s.Characters[d.Character]; ch != nil {
			ch.Hope = max(0, ch.Hope-1)
			for _, r := range s.rollsNamed(d.Roll) {
				r.HopeSpent = true
				r.Result.HopeBonus = d.Bonus
				r.Result.Total = d.Total
				r.Result.Outcome = tor.Outcome(d.Outcome)
				r.Result.Success = d.Outcome == string(tor.OutcomeSuccess)
				r.Result.Quality = tor.Quality(d.Quality)
			}
			if d.Outcome == string(tor.OutcomeSuccess) {
				ch.Successes++
			}
		}
	case *events.TORFellowshipRequested:
		s.Request = &TORRequest{EventID: ev.ID, Character: d.Character, Fellowship: slices.Clone(d.Fellowship)}
	case *events.TORFellowshipVoted:
		if r := s.Request; r != nil && r.EventID == d.Request {
			r.Ballots = append(r.Ballots, tor.Ballot{Voter: d.Voter, Agree: d.Agree})
			if t, err := r.Vote().Tally(); err == nil {
				r.Tally = &t
			}
		}
	case *events.TORFellowshipSpent:
		if ch := s.Characters[d.Character]; ch != nil {
			ch.Hope = min(ch.MaxHope, ch.Hope+1)
			if d.Outcome == events.TORFellowshipForced {
				ch.Shadow++
			}
		}
		s.Pool = max(0, s.Pool-1)
		s.Request = nil
	case *events.TORFellowshipWithdrawn:
		s.Request = nil
	case *events.TORShadowGained:
		if ch := s.Characters[d.Character]; ch != nil {
			ch.Shadow += d.Amount
		}
	case *events.TORMadnessBegun:
		if ch := s.Characters[d.Character]; ch != nil {
			ch.Mad = true
		}
	case *events.TORMadnessEnded:
		if ch := s.Characters[d.Character]; ch != nil {
			ch.Mad = false
			ch.PermanentShadow++
			ch.Flaws = append(ch.Flaws, d.Flaw)
		}
	case *events.TORTraitInvoked:
		if ch := s.Characters[d.Character]; ch != nil && !d.Automatic {
			ch.PendingTrait = d.Trait
		}
	case *events.TORAdvancementGranted:
		if ch := s.Characters[d.Character]; ch != nil {
			g := tor.Group(d.Group)
			if ch.Advancement == nil {
				ch.Advancement = map[tor.Group]int{}
			}
			ch.Advancement[g]++
			ch.Points = append(ch.Points, TORPoint{Group: g, Box: d.Box, Roll: d.Roll, Skill: d.Skill})
			for _, r := range s.rollsNamed(d.Roll) {
				r.Box = d.Box
			}
		}
	case *events.TORAdventureStarted:
		s.Adventure = &TORAdventure{Number: d.Number, Title: d.Title, Started: ev.Time, StartSeq: rec.Seq}
		s.Adventures = max(s.Adventures, d.Number)
		s.Pool = d.Pool
		s.Rolls = map[string]*TORRoll{}
	case *events.TORFellowshipPhase:
		for _, ch := range s.Characters {
			ch.Character = ch.Character.FellowshipPhase()
			ch.Points = nil
		}
		s.Pool = d.Pool
		s.Adventure = nil
		s.Request = nil
		s.Rolls = map[string]*TORRoll{}
	default:
		return
	}
	s.refresh()
}

// rollsNamed returns the kept copies of one roll: in the adventure's rolls
// and as its character's last roll.
func (s *TORState) rollsNamed(id string) []*TORRoll {
	if id == "" {
		return nil
	}
	var out []*TORRoll
	if r := s.Rolls[id]; r != nil {
		out = append(out, r)
	}
	for _, ch := range s.Characters {
		if ch.LastRoll != nil && ch.LastRoll.EventID == id {
			out = append(out, ch.LastRoll)
		}
	}
	return out
}

// characterOf is the rules' character an event created.
func characterOf(d *events.TORCharacterCreated) tor.Character {
	score := func(s events.TORScore) tor.Score { return tor.Score{Basic: s.Basic, Favoured: s.Favoured} }
	c := tor.Character{
		Name: d.Name, Culture: d.Culture, Hobbit: d.Hobbit,
		Attributes: tor.Attributes{Cuerpo: score(d.Attributes.Cuerpo), Corazon: score(d.Attributes.Corazon), Mente: score(d.Attributes.Mente)},
		Skills:     tor.Ratings{}, Hope: d.Hope, MaxHope: d.MaxHope, Shadow: d.Shadow, PermanentShadow: d.PermanentShadow,
		Traits: slices.Clone(d.Traits),
	}
	for name, sk := range d.Skills {
		c.Skills[name] = tor.SkillRating{Rank: sk.Rank, Favoured: sk.Favoured}
	}
	return c
}

// torName returns a One Ring character's display name, or its id.
func (c *Campaign) torName(id string) string {
	if ch := c.TOR.Sheet(id); ch != nil && ch.Name != "" {
		return ch.Name
	}
	return c.name(id)
}

// torQuality names the result of a One Ring roll in l.
func torQuality(l i18n.Lang, outcome, quality string) string {
	if outcome != string(tor.OutcomeSuccess) {
		return l.T("tor.failure")
	}
	switch tor.Quality(quality) {
	case tor.QualityGreat:
		return l.T("tor.great")
	case tor.QualityExtraordinary:
		return l.T("tor.extraordinary")
	}
	return l.T("tor.success")
}

// AdvancementReason puts the rules' reason for an advancement point in l
// (the transcript's and the CLI's one translation): "a great success with
// a trait invoked" → "gran éxito con un rasgo invocado"; a reason it does
// not know stays as the rules wrote it.
func AdvancementReason(l i18n.Lang, reason string) string { return torReason(l, reason) }

// torReason is AdvancementReason.
func torReason(l i18n.Lang, reason string) string {
	base, trait := strings.CutSuffix(reason, " with a trait invoked")
	var out string
	switch {
	case strings.HasSuffix(base, "extraordinary success"):
		out = l.T("tor.extraordinary")
	case strings.HasSuffix(base, "great success"):
		out = l.T("tor.great")
	case strings.HasSuffix(base, "success"):
		out = l.T("tor.success")
	default:
		return reason
	}
	if trait {
		out += l.T("tor.with_trait")
	}
	return out
}

// boxName is "1.ª", "2.ª", "3.ª" (Spanish), "box 1"… (English).
func boxName(l i18n.Lang, n int) string { return l.T("tor.box", n) }

// describeTORRoll is the transcript line of a One Ring roll, given the state
// before it: the dice, the verdict, and what the journal notices — the Eye
// that starts a bout of madness, the advancement box a success qualifies
// for, the Hope a failure could spend.
func describeTORRoll(l i18n.Lang, c *Campaign, d *events.RollMade) string {
	var b strings.Builder
	b.WriteString(l.T("tor.rolls", c.torName(d.Character), d.Skill))
	if d.Favoured {
		b.WriteString(l.T("tor.favoured"))
	}
	b.WriteString(l.T("tor.against_tn", d.TN))
	if d.Trait != "" {
		b.WriteString(l.T("tor.invoking", d.Trait))
	}
	b.WriteString(l.T("tor.feat"))
	switch {
	case len(d.Faces) == 0:
		b.WriteString("?")
	case d.Faces[0] == tor.EyeFace:
		b.WriteString(l.T("tor.eye_face"))
	case d.Faces[0] == tor.RuneFace:
		b.WriteString(l.T("tor.rune_face"))
	default:
		fmt.Fprintf(&b, "%d", d.Faces[0])
	}
	if len(d.Faces) > 1 {
		b.WriteString(l.T("tor.success_dice", d.Faces[1:]))
	}
	b.WriteString(l.T("tor.result", d.Total, torQuality(l, d.Outcome, d.Quality), d.Nonce))

	ch := c.TOR.Sheet(d.Character)
	if ch == nil || len(d.Faces) == 0 {
		return b.String()
	}
	madness := d.Eye && ch.Hope < ch.TotalShadow()
	if madness {
		b.WriteString(l.T("tor.madness_risk", ch.Hope, ch.TotalShadow()))
	}
	sk, err := tor.LookupSkill(d.Skill)
	if err != nil {
		return b.String()
	}
	success := d.Outcome == string(tor.OutcomeSuccess)
	if success && c.TOR.Adventure != nil {
		res := tor.Result{Success: true, Quality: tor.Quality(d.Quality)}
		if e, err := tor.NextAdvancement(res, d.Trait != "", ch.Advancement[sk.Group]); err == nil && e.Qualifies {
			b.WriteString(l.T("tor.worth_point", sk.Group, boxName(l, e.Box)))
		}
	}
	if !success && ch.Hope > 0 && !ch.Mad && !madness {
		if bonus, err := ch.HopeBonus(sk); err == nil {
			b.WriteString(l.T("tor.may_spend_hope", bonus, d.Total+bonus))
		}
	}
	return b.String()
}

// describeTOR is the transcript line of a The One Ring event, given the
// state before it.
func describeTOR(l i18n.Lang, c *Campaign, ev events.Event, data any) (string, bool) {
	s := c.TOR
	name := c.torName
	switch d := data.(type) {
	case *events.TORCharacterCreated:
		kind := l.T("tr.pc_of", d.Player)
		if d.NPC {
			kind = l.T("tr.npc")
		}
		if d.Culture != "" {
			kind += ", " + d.Culture
		}
		if d.Hobbit && !strings.Contains(tor.Normalize(d.Culture), "hobbit") {
			kind += l.T("tor.hobbit")
		}
		return l.T("tor.character_created", d.Name, kind, d.Hope, d.MaxHope, d.Shadow+d.PermanentShadow), true
	case *events.TORHopeSpent:
		fav := ""
		if d.Favoured {
			fav = l.T("tor.favoured_attr")
		}
		line := l.T("tor.hope_spent",
			name(d.Character), d.Skill, d.Bonus, d.Attribute, fav, d.Total, d.TN, torQuality(l, d.Outcome, d.Quality), d.Hope+1, d.Hope)
		if d.LastHope {
			line += l.T("tor.last_hope")
		}
		return line, true
	case *events.TORFellowshipRequested:
		var voters []string
		for _, m := range d.Fellowship {
			if m != d.Character {
				voters = append(voters, name(m))
			}
		}
		who := l.T("tor.nobody_else")
		if len(voters) > 0 {
			who = l.T("tor.voters", strings.Join(voters, ", "))
		}
		return l.T("tor.requested", name(d.Character), d.Pool, who), true
	case *events.TORFellowshipVoted:
		vote := l.T("tor.no")
		if d.Agree {
			vote = l.T("tor.yes")
		}
		line := l.T("tor.voted", name(d.Voter), vote, name(d.Character))
		if r := s.Request; r != nil && r.EventID == d.Request {
			r2 := *r
			r2.Ballots = append(slices.Clone(r.Ballots), tor.Ballot{Voter: d.Voter, Agree: d.Agree})
			if t, err := r2.Vote().Tally(); err == nil {
				if t.Granted {
					line += l.T("tor.granted", t.Agree, t.Refuse)
				} else {
					line += l.T("tor.refused", t.Agree, t.Refuse, name(d.Character))
				}
			} else if w := r2.Waiting(); len(w) > 0 {
				names := make([]string, len(w))
				for i, m := range w {
					names[i] = name(m)
				}
				line += l.T("tor.waiting", strings.Join(names, ", "))
			}
		}
		return line, true
	case *events.TORFellowshipSpent:
		if d.Outcome == events.TORFellowshipForced {
			return l.T("tor.forced",
				name(d.Character), d.Agree, d.Refuse, d.Hope-1, d.Hope, d.Shadow-1, d.Shadow, d.Pool+1, d.Pool), true
		}
		return l.T("tor.spent",
			name(d.Character), d.Agree, d.Refuse, d.Hope-1, d.Hope, d.Pool+1, d.Pool), true
	case *events.TORFellowshipWithdrawn:
		return l.T("tor.withdrawn", name(d.Character)), true
	case *events.TORShadowGained:
		reason := ""
		if d.Reason != "" {
			reason = " (" + d.Reason + ")"
		}
		line := l.T("tor.shadow_gained", name(d.Character), d.Amount, reason, d.Shadow-d.Amount, d.Shadow)
		if ch := s.Sheet(d.Character); ch != nil && ch.Hope < d.Shadow+ch.PermanentShadow && ch.Hope >= ch.TotalShadow() {
			line += l.T("tor.shadow_over_hope", ch.Hope, d.Shadow+ch.PermanentShadow)
		}
		return line, true
	case *events.TORMadnessBegun:
		return l.T("tor.madness_begun",
			name(d.Character), d.Hope, d.Shadow+d.PermanentShadow), true
	case *events.TORMadnessEnded:
		return l.T("tor.madness_ended", name(d.Character), d.PermanentShadow, d.Flaw), true
	case *events.TORTraitInvoked:
		if d.Automatic {
			what := ""
			if d.Skill != "" {
				what = l.T("tor.in_skill", d.Skill)
			}
			return l.T("tor.trait_automatic", name(d.Character), d.Trait, what), true
		}
		return l.T("tor.trait_roll", name(d.Character), d.Trait), true
	case *events.TORAdvancementGranted:
		why := l.T("tor.gm_decision")
		if d.Roll != "" {
			why = l.T("tor.for_roll", d.Skill, torReason(l, d.Reason))
		}
		return l.T("tor.advancement", name(d.Character), d.Group, boxName(l, d.Box), why), true
	case *events.TORAdventureStarted:
		title := ""
		if d.Title != "" {
			title = " «" + d.Title + "»"
		}
		return l.T("tor.adventure_started", d.Number, title, d.Pool), true
	case *events.TORFellowshipPhase:
		var parts []string
		for _, id := range s.Roster {
			if n, ok := d.Banked[id]; ok && n > 0 {
				total := n
				if ch := s.Characters[id]; ch != nil {
					total += ch.AdvancementTotal
				}
				parts = append(parts, l.T("tor.banked_one", name(id), n, total))
			}
		}
		banked := l.T("tor.no_points")
		if len(parts) > 0 {
			banked = l.T("tor.points", strings.Join(parts, ", "))
		}
		cleared := ""
		var cs []string
		for _, id := range s.Roster {
			if n := d.ShadowCleared[id]; n > 0 {
				cs = append(cs, fmt.Sprintf("%s %d", name(id), n))
			}
		}
		if len(cs) > 0 {
			cleared = l.T("tor.shadow_cleared", strings.Join(cs, ", "))
		}
		return l.T("tor.fellowship_phase", d.Adventure, banked, cleared, d.Pool), true
	}
	return "", false
}
