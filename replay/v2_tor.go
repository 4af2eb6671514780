package replay

// Verification of The One Ring's rolls in journal-dice-v2 sessions (the
// command layer's v2_tor.go), by default:
//   - a TOR roll's request: the signed action (command "tor-roll", read
//     strictly: character, skill, tn, trait, seed commitment) equals the
//     recorded request's fields;
//   - its roll: the inputs equal the request's (nonce, character, kind,
//     skill, TN, trait), the skill's attribute column, the rank and the
//     favoured mark are the sheet's (as folded so far); the draws are a d12
//     then one d6 per rank, the faces re-derive from the session key and the
//     reveal, and feat, Eye, rune, total, outcome and quality re-judge;
//   - the bout of madness: recorded right for a roll that shows the Eye
//     while Hope is below total Shadow (the character not mad already),
//     and for no other v2 roll;
//   - Hope spent in a v2 session: from the roller's signed request (command
//     "tor-hope", no commitment, its own id recorded once), naming the
//     request of the character's latest roll, a v2 roll of the session not
//     re-judged yet; bonus, Hope left, last Hope, TN, total, outcome and
//     quality re-derived by the rules from the sheet before the spend.
// Which path a roll of a v2 session takes is the campaign's system.

import (
	"fmt"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/tor"
	"github.com/campaign-journal/journal/signed"
)

// torSystem is The One Ring's system name.
const torSystem = events.SystemTOR

// torRollAction is command.TORRollAction; torHopeAction command.TORHopeAction.
type torRollAction struct {
	Command        string `json:"command"`
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
	Skill          string `json:"skill"`
	TN             int    `json:"tn"`
	Trait          string `json:"trait"`
	Call           string `json:"call,omitempty"`
}

type torHopeAction struct {
	Command        string `json:"command"`
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
	RollRequest    string `json:"roll_request"`
}

// v2TOR is what the verifier keeps of a v2 session's TOR rolls.
type v2TOR struct {
	rolls map[string]bool   // event ids of the session's v2 TOR rolls
	hope  map[string]string // Hope requests' ids -> their event ids
	due   *torMadness       // the bout of madness the last roll starts, not recorded yet
}

type torMadness struct {
	m               Mismatch // the roll's
	roll, character string
	hope, shadow    int
	permanent       int
}

func (s *v2Session) tor() *v2TOR {
	if s.torState == nil {
		s.torState = &v2TOR{rolls: map[string]bool{}, hope: map[string]string{}}
	}
	return s.torState
}

func strictJSON(b []byte, v any) error { return signed.DecodeAction(b, v) }

// torRequestDiff compares a TOR roll request with its signed action.
func torRequestDiff(s *session, d *events.RollRequested, action []byte) []string {
	var a torRollAction
	if err := strictJSON(action, &a); err != nil {
		return []string{"the signed action: " + err.Error()}
	}
	var diff []string
	eq := func(what string, got, want any) {
		if got != want {
			diff = append(diff, fmt.Sprintf("%s: recorded %v, signed %v", what, got, want))
		}
	}
	eq("command", "tor-roll", a.Command)
	eq("seed commitment (the session's)", s.commitment, a.SeedCommitment)
	eq("character", d.Character, a.Character)
	eq("kind", d.Kind, torSystem)
	eq("skill", d.Skill, a.Skill)
	eq("tn", d.TN, a.TN)
	eq("trait", d.Trait, a.Trait)
	eq("attribute", d.Attribute, "")
	eq("vs", d.Vs, "")
	eq("modifier", d.Modifier, 0)
	eq("token", d.Token, false)
	eq("specialization", d.Specialization, false)
	if d.Target != "" {
		diff = append(diff, "a The One Ring roll names no target")
	}
	return diff
}

// torRoll compares a TOR roll of a v2 session with its request and the
// character's sheet, and notes the bout of madness it must start.
func (v *Verifier) torRoll(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollMade, r *v2Request, eq func(string, any, any), add func(string)) {
	st := s.v2.tor()
	v.torMadnessMissing(s)
	st.rolls[ev.ID] = true
	eq("nonce", d.Nonce, r.d.Nonce)
	eq("character", d.Character, r.d.Character)
	eq("kind", d.Kind, torSystem)
	eq("skill", d.Skill, r.d.Skill)
	eq("tn", d.TN, r.d.TN)
	eq("trait", d.Trait, r.d.Trait)
	sk, err := tor.LookupSkill(d.Skill)
	if err != nil {
		add(fmt.Sprintf("skill %q: %v", d.Skill, err))
		return
	}
	eq("attribute (the skill's column)", d.Attribute, string(sk.Attribute))
	ch := c.fold.TOR.Sheet(d.Character)
	if ch == nil {
		add(fmt.Sprintf("no character %s in the campaign", d.Character))
		return
	}
	rating := ch.Rating(sk)
	eq("rank (the sheet's)", d.Rank, rating.Rank)
	eq("favoured (the sheet's)", d.Favoured, rating.Favoured)
	if len(d.Faces) == 0 {
		return // the rules' check says so
	}
	res, err := tor.Judge(d.TN, d.Faces[0], d.Faces[1:])
	if err != nil {
		return // the rules' check says so
	}
	// The fold has read the roll, which changes neither Hope, Shadow nor
	// madness: the sheet is the one the roll was made with.
	if !ch.Mad && tor.MadnessTriggered(ch.Character, res) {
		st.due = &torMadness{m: m, roll: ev.ID, character: ch.ID, hope: ch.Hope, shadow: ch.Shadow, permanent: ch.PermanentShadow}
	}
}

// torMadnessMissing records the bout of madness due and not recorded.
func (v *Verifier) torMadnessMissing(s *session) {
	if m := s.torUnstartedMadness(); m != nil {
		v.record(s, *m)
		s.v2.torState.due = nil
	}
}

// torUnstartedMadness is the mismatch of a bout of madness a roll starts
// that is not recorded (nil: none).
func (s *session) torUnstartedMadness() *Mismatch {
	if s.v2 == nil || s.v2.torState == nil || s.v2.torState.due == nil {
		return nil
	}
	due := s.v2.torState.due
	m := due.m
	m.Kind, m.What = MismatchRules, fmt.Sprintf("roll %s shows the Eye while %s's Hope %d is below its Shadow %d: no bout of madness is recorded for it",
		due.roll, due.character, due.hope, due.shadow+due.permanent)
	return &m
}

// torEvent checks, before the fold reads it, a TOR event of a v2 session
// that a roll's rules decide: a bout of madness, Hope spent.
func (v *Verifier) torEvent(c *campaign, m Mismatch, ev events.Event, data any) {
	if c.fold.System != torSystem || !v.inSession(ev) {
		return
	}
	s := v.sessionOf(ev)
	if s == nil || s.v2 == nil {
		return
	}
	switch d := data.(type) {
	case *events.TORMadnessBegun:
		st := s.v2.tor()
		due := st.due
		switch {
		case due != nil && d.Roll == due.roll:
			st.due = nil
			if d.Character != due.character || d.Hope != due.hope || d.Shadow != due.shadow || d.PermanentShadow != due.permanent {
				m.Kind, m.What = MismatchRules, fmt.Sprintf("bout of madness for roll %s: recorded %s with Hope %d, Shadow %d+%d; the sheet says %s with %d, %d+%d",
					d.Roll, d.Character, d.Hope, d.Shadow, d.PermanentShadow, due.character, due.hope, due.shadow, due.permanent)
				v.record(s, m)
			}
		case st.rolls[d.Roll]:
			m.Kind, m.What = MismatchRules, fmt.Sprintf("a bout of madness for roll %s, which does not start one (no Eye, Hope not below Shadow, or already mad)", d.Roll)
			v.record(s, m)
		default:
			m.Kind, m.What = MismatchRules, fmt.Sprintf("a bout of madness for %s names roll %q, which is not a roll of this journal-dice-v2 session just made", d.Character, clip(d.Roll, 40))
			v.record(s, m)
		}
	case *events.TORHopeSpent:
		if diff := v.torHope(s, c, m, ev, d); diff != "" {
			m.Kind, m.What = MismatchRules, "Hope spent: "+diff
			v.record(s, m)
		}
	}
}

// torHope checks Hope spent in a v2 session (before the fold reads it); it
// records signature mismatches itself and returns what else is wrong.
func (v *Verifier) torHope(s *session, c *campaign, m Mismatch, ev events.Event, d *events.TORHopeSpent) string {
	if d.Signed == "" {
		return "without its roller's signed request: in a journal-dice-v2 session Hope is spent by a roll.request of the roller"
	}
	msg := v.open(s, m, c.fold, ev, d.User, d.Signed, d.Signature)
	if msg == nil {
		return ""
	}
	req, ok := msg.(*signed.Request)
	if !ok {
		m.Kind, m.What = MismatchSignature, fmt.Sprintf("the signed message is a %s, not a roll.request", msg.Kind())
		v.record(s, m)
		return ""
	}
	var a torHopeAction
	var diff []string
	eq := func(what string, got, want any) {
		if got != want {
			diff = append(diff, fmt.Sprintf("%s: recorded %v, signed %v", what, got, want))
		}
	}
	if err := strictJSON(req.Action, &a); err != nil {
		diff = append(diff, "the signed action: "+err.Error())
	} else {
		eq("command", "tor-hope", a.Command)
		eq("seed commitment (the session's)", s.commitment, a.SeedCommitment)
		eq("character", d.Character, a.Character)
		eq("roll request", d.RollRequest, a.RollRequest)
	}
	eq("request", d.Request, req.Request)
	if !req.Commitment.IsZero() || req.BeaconRound != 0 {
		diff = append(diff, "the signed request has a commitment or a beacon round: Hope draws nothing")
	}
	if len(diff) > 0 {
		m.Kind, m.What = MismatchSignature, "the event's fields are not the signed ones: "+strings.Join(diff, "; ")
		v.record(s, m)
		return ""
	}
	st := s.v2.tor()
	if prev, ok := st.hope[d.Request]; ok {
		m.Kind, m.What = MismatchRequest, fmt.Sprintf("Hope request %s recorded again (first by event %s): a replayed request", d.Request, prev)
		v.record(s, m)
		return ""
	}
	if s.v2.requests[d.Request] != nil {
		m.Kind, m.What = MismatchRequest, fmt.Sprintf("Hope request %s reuses a roll request's id", d.Request)
		v.record(s, m)
		return ""
	}
	st.hope[d.Request] = ev.ID
	ch := c.fold.TOR.Sheet(d.Character)
	q := s.v2.requests[d.RollRequest]
	switch {
	case ch == nil:
		return fmt.Sprintf("no character %s", d.Character)
	case q == nil || q.state != projections.RequestMade || !st.rolls[d.Roll]:
		return fmt.Sprintf("roll request %s (roll %s) is not a The One Ring roll made in this session", d.RollRequest, clip(d.Roll, 40))
	case q.d.User != d.User:
		return fmt.Sprintf("signed by %s, the roll is %s's: only its roller spends Hope on it", d.User, q.d.User)
	case ch.Mad:
		return fmt.Sprintf("%s is in a bout of madness: the GM controls it, its player cannot spend Hope", ch.ID)
	case ch.LastRoll == nil || ch.LastRoll.EventID != d.Roll || ch.LastRoll.Request != d.RollRequest:
		return fmt.Sprintf("roll %s (request %s) is not %s's latest roll", clip(d.Roll, 40), d.RollRequest, d.Character)
	case ch.LastRoll.HopeSpent:
		return fmt.Sprintf("roll %s already had its Hope", d.Roll)
	}
	sk, err := tor.LookupSkill(ch.LastRoll.Skill)
	if err != nil {
		return err.Error()
	}
	sp, err := tor.SpendHope(ch.Character, sk, ch.LastRoll.Result)
	if err != nil {
		return fmt.Sprintf("the rules refuse it: %v", err)
	}
	diff = nil
	rule := func(what string, got, want any) {
		if got != want {
			diff = append(diff, fmt.Sprintf("%s: recorded %v, rules say %v", what, got, want))
		}
	}
	rule("skill", d.Skill, sk.Name)
	rule("attribute", d.Attribute, string(sp.Attribute))
	rule("favoured", d.Favoured, sp.Favoured)
	rule("bonus", d.Bonus, sp.Bonus)
	rule("hope left", d.Hope, sp.Hope)
	rule("last hope", d.LastHope, sp.LastHope)
	rule("tn", d.TN, sp.Result.TN)
	rule("total", d.Total, sp.Result.Total)
	rule("outcome", d.Outcome, string(sp.Result.Outcome))
	rule("quality", d.Quality, string(sp.Result.Quality))
	return strings.Join(diff, "; ")
}

// V2TORSteps is what explain adds for a The One Ring v2 roll: the inputs
// its signed request named, and the Hope spent on it (nil: none).
type V2TORSteps struct {
	Skill string     `json:"skill"`
	TN    int        `json:"tn"`
	Trait string     `json:"trait"`
	Hope  *V2TORHope `json:"hope,omitempty"`
}

// V2TORHope is Hope spent on a v2 roll: the roller's signed request
// re-judges the roll without drawing.
type V2TORHope struct {
	EventID string `json:"event_id"`
	Seq     uint64 `json:"seq"`
	By      string `json:"by"`
	Request string `json:"request"`
	Bonus   int    `json:"bonus"`
	Total   int    `json:"total"`
	TN      int    `json:"tn"`
	Outcome string `json:"outcome"`
	Quality string `json:"quality,omitempty"`
	Hope    int    `json:"hope"`
}

// noteHope keeps the first Hope spent on each roll.
func (c *v2Context) noteHope(r events.Recorded) {
	var d events.TORHopeSpent
	if r.Event.DecodeData(&d) != nil {
		return
	}
	if c.hope == nil {
		c.hope = map[string]events.Recorded{}
	}
	if _, ok := c.hope[d.Roll]; !ok {
		c.hope[d.Roll] = r
	}
}

// torSteps are the TOR steps of roll, answering request q (nil when q is
// not a The One Ring roll's).
func (c *v2Context) torSteps(q events.RollRequested, roll string) *V2TORSteps {
	if q.Kind != torSystem {
		return nil
	}
	st := &V2TORSteps{Skill: q.Skill, TN: q.TN, Trait: q.Trait}
	if r, ok := c.hope[roll]; ok {
		var d events.TORHopeSpent
		if r.Event.DecodeData(&d) == nil {
			st.Hope = &V2TORHope{EventID: r.Event.ID, Seq: r.Seq, By: d.User, Request: d.Request, Bonus: d.Bonus,
				Total: d.Total, TN: d.TN, Outcome: d.Outcome, Quality: d.Quality, Hope: d.Hope}
		}
	}
	return st
}

// writeTOR writes a The One Ring v2 roll's own steps.
func (v *V2Steps) writeTOR(l i18n.Lang, p func(string)) {
	if v.TOR == nil {
		return
	}
	trait := v.TOR.Trait
	if trait == "" {
		trait = l.T("x2t.no_trait")
	}
	p(l.T("x2t.request", v.TOR.Skill, v.TOR.TN, trait))
	if h := v.TOR.Hope; h != nil {
		by := h.By
		if by == "" {
			by = "?"
		}
		p(l.T("x2t.hope", h.EventID, h.Seq, by, h.Request, h.Bonus, h.Total, h.TN, h.Outcome, h.Hope))
	}
}
