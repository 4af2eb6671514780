package command

// journal-dice-v2 rolls of The One Ring (docs/rules.md §2): the skill roll
// (feat die and success dice) and Hope spent on it.
//
// Invariants:
//   - A TOR roll's signed roll.request names every input (TORRollAction:
//     character, the skill as the rules name it, the TN, the trait counted
//     as invoked, "" for none); it is judged by the v1 roll's rules
//     (planTOR) and recorded with one nonce. The trait named must be the
//     one the roll will count: the trait the GM ruled "roll" for
//     (invoked before, pending), or one invoked with the roll.
//   - The reveal (or whoever gives r: drawV2 does not care) draws the feat
//     die then the success dice from StreamV2(K, campaign, session, nonce, r)
//     with the v1 roll's rules and consequences (addTOR): the roll and, when
//     it shows the Eye while Hope is below total Shadow, the bout of
//     madness, in one append. Rank and favoured are the sheet's at the draw.
//   - Hope re-judges a roll without drawing. It is spent by a signed
//     roll.request of the roll's roller (the user that requested it) whose
//     action (TORHopeAction, command "tor-hope") names the character and
//     the request of the roll it re-judges, which must be the character's
//     latest roll, a v2 roll of the open session. The request has no
//     commitment and takes no nonce: nothing is drawn, nothing is revealed;
//     the journal records journal.tor.hope_spent.v1 at once with the
//     signed string, its signature and user, and its own request id. A
//     retried request is refused (the roll already had its Hope); so is
//     Hope spent without a signed request in a v2 session (SpendHope).
//   - A character has at most one TOR roll request pending, so that a trait
//     invoked before is counted by one roll.
//   - In a v2 session, a TOR roll is "tor-roll": command "roll" (RyF's
//     action) is refused in a TOR campaign, and "tor-roll" in a RyF one.

import (
	"context"
	"strconv"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// Commands of The One Ring's v2 actions.
const (
	CommandTORRoll = "tor-roll"
	CommandTORHope = "tor-hope"
)

// TORRollAction is the action of a v2 The One Ring skill roll. Every member
// is written, zeros and empty strings included, and none other is
// accepted. Skill is the skill as the rules name it; TN the target number
// (the CLI writes 14 when none is given); Trait the trait counted as
// invoked, as the sheet spells it ("" for none).
type TORRollAction struct {
	Command        string `json:"command"` // "tor-roll"
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
	Skill          string `json:"skill"`
	TN             int    `json:"tn"`
	Trait          string `json:"trait"`
	// Call is the GM's roll call the roll answers (calls.go); absent for
	// none.
	Call string `json:"call,omitempty"`
}

// TORHopeAction is the action of Hope spent on a v2 roll: RollRequest is
// the request of the roll it re-judges (the character's latest).
type TORHopeAction struct {
	Command        string `json:"command"` // "tor-hope"
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
	RollRequest    string `json:"roll_request"`
}

// parseStrict reads an action into v strictly: no unknown member, nothing
// after the object, the command want.
func parseStrict(action []byte, v any, command func() string, want string) error {
	if err := decodeAction(action, v); err != nil {
		return err
	}
	if got := command(); got != want {
		return invalid("action: command %q, want %q", clip.Text(got), want)
	}
	return nil
}

// ParseTORRollAction reads a TOR roll's action strictly.
func ParseTORRollAction(action []byte) (TORRollAction, error) {
	var a TORRollAction
	return a, parseStrict(action, &a, func() string { return a.Command }, CommandTORRoll)
}

// ParseTORHopeAction reads a Hope spend's action strictly.
func ParseTORHopeAction(action []byte) (TORHopeAction, error) {
	var a TORHopeAction
	return a, parseStrict(action, &a, func() string { return a.Command }, CommandTORHope)
}

// checkScope checks what every v2 action names besides its own inputs:
// the session's seed commitment and the character the request is sent for.
func checkScope(s *projections.Session, msg RollRequestSigned, seedCommitment, character string) error {
	if seedCommitment != s.Commitment {
		return invalid("the request names seed commitment %q, session %s's is %s", clip.Text(seedCommitment), s.ID, s.Commitment)
	}
	if msg.Character != "" && msg.Character != character {
		return invalid("the request is for %s, the signed action for %s", msg.Character, character)
	}
	return nil
}

// planTORV2 judges a TOR roll action: planTOR's rules, with every input
// named as the rules and the sheet name it.
func (d *draft) planTORV2(a TORRollAction) (torPlan, error) {
	if a.TN == 0 {
		return torPlan{}, invalid("action: tn 0: a The One Ring roll names its target number (every input is explicit; the default is 14)")
	}
	req := RollRequest{Character: a.Character, Skill: a.Skill, TN: &a.TN, Trait: a.Trait}
	if ch, err := torCharacter(d.campaign, a.Character); err == nil && a.Trait != "" && a.Trait == ch.PendingTrait {
		req.Trait = "" // invoked before (also before a bout of madness): planTOR counts it
	}
	p, err := d.planTOR(req)
	if err != nil {
		return p, err
	}
	if p.skill.Name != a.Skill {
		return p, invalid("action: skill %q: name it as the rules do, %q", clip.Text(a.Skill), p.skill.Name)
	}
	if p.trait != a.Trait {
		if a.Trait == "" {
			return p, invalid("action: trait \"\": %s has invoked «%s» for this roll: name it", p.ch.Name, p.trait)
		}
		return p, invalid("action: trait %q: name it as the sheet does, %q", clip.Text(a.Trait), p.trait)
	}
	return p, nil
}

// requestTORV2 records a TOR roll's signed request (RequestRoll has checked
// the signature, the requester and the request's id).
func (j *Handler) requestTORV2(d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error {
	a, err := ParseTORRollAction(r.Action)
	if err != nil {
		return err
	}
	if err := checkScope(s, msg, a.SeedCommitment, a.Character); err != nil {
		return err
	}
	p, err := d.planTORV2(a)
	if err != nil {
		return err
	}
	for id, q := range s.Requests {
		if q.State == projections.RequestPending && q.Requested.Character == a.Character {
			return invalid("%s already has a roll request pending (%s): reveal it, or the GM cancels it", a.Character, id)
		}
	}
	if a.Call != "" {
		if err := d.checkAnswer(a.Call, a.Character, a.Skill, "", strconv.Itoa(a.TN)); err != nil {
			return err
		}
	}
	d.add(events.KindCharacter, a.Character, events.TypeRollRequested, events.RollRequested{
		User: j.actor, Signed: msg.Signed, Signature: msg.Signature, Request: r.Request,
		Commitment: r.Commitment.String(), Nonce: d.nonce,
		Character: a.Character, Kind: torKind, Skill: p.skill.Name, TN: p.tn, Trait: p.trait,
	})
	d.nonce++
	if a.Call != "" {
		return d.answerCall(a.Call, a.Character, r.Request) // calls.go
	}
	return nil
}

// torKind is the kind of a TOR roll (rolls.KindTOR).
const torKind = rolls.KindTOR

// drawTORV2 draws a TOR roll's request with src's r.
func (d *draft) drawTORV2(s *projections.Session, key dice.KeyV2, q events.RollRequested, src v2Source) error {
	p, err := d.planTORV2(TORRollAction{Character: q.Character, Skill: q.Skill, TN: q.TN, Trait: q.Trait})
	if err != nil {
		return err
	}
	rec := &sidesRecorder{r: key.Stream(d.campaign.ID, s.ID, q.Nonce, src.R)}
	return d.addTOR(p, rec, func(e *events.RollMade) {
		e.Nonce = q.Nonce
		src.stamp(e, q.Request, rec.sides)
	})
}

// hopeTORV2 records Hope spent on a v2 roll from the roller's signed
// request: it re-judges the roll and draws nothing.
func (j *Handler) hopeTORV2(d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error {
	a, err := ParseTORHopeAction(r.Action)
	if err != nil {
		return err
	}
	if err := checkScope(s, msg, a.SeedCommitment, a.Character); err != nil {
		return err
	}
	if !r.Commitment.IsZero() || r.BeaconRound != 0 {
		return invalid("request %s: Hope draws nothing: its request has no commitment and no beacon round", r.Request)
	}
	if s.Requests[r.Request] != nil {
		return invalid("request %s is already recorded as a roll request", r.Request)
	}
	ch, err := torCharacter(d.campaign, a.Character)
	if err != nil {
		return err
	}
	if err := playerControls(ch, "spend Hope"); err != nil {
		return err
	}
	q := s.Requests[a.RollRequest]
	if q == nil || q.Requested.Character != ch.ID {
		return notFound("no roll request %s of %s in session %s", a.RollRequest, ch.Name, s.ID)
	}
	if q.State != projections.RequestMade {
		return invalid("request %s is %s: Hope is spent on a roll made", a.RollRequest, q.State)
	}
	last := ch.LastRoll
	if last == nil || last.Request != a.RollRequest {
		return invalid("Hope is spent on %s's latest roll, and request %s's is not it", ch.Name, a.RollRequest)
	}
	if q.Requested.User != j.actor {
		return invalid("roll %s is %s's: only its roller spends Hope on it", last.EventID, q.Requested.User)
	}
	e, err := hopeSpent(ch, last)
	if err != nil {
		return err
	}
	e.User, e.Signed, e.Signature, e.Request, e.RollRequest = j.actor, msg.Signed, msg.Signature, r.Request, a.RollRequest
	d.addCaused(events.KindCharacter, ch.ID, events.TypeTORHopeSpent, last.EventID, e)
	return nil
}

// TORRollActionFor is the action a device signs for req (a TOR roll) in the
// campaign's state now, every input explicit: the skill as the rules name
// it, the TN (14 when req.TN is nil), the trait counted as invoked (req.Trait
// as the sheet spells it, or the one invoked before). It records nothing.
func (j *Handler) TORRollActionFor(ctx context.Context, campaign string, req RollRequest) (TORRollAction, error) {
	camp, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return TORRollAction{}, err
	}
	d := &draft{j: j, campaign: camp}
	s, err := d.openV2()
	if err != nil {
		return TORRollAction{}, err
	}
	p, err := d.planTOR(RollRequest{Character: req.Character, Skill: req.Skill, Attribute: req.Attribute, Vs: req.Vs,
		Modifier: req.Modifier, Token: req.Token, Specialization: req.Specialization, TN: req.TN, Trait: req.Trait})
	if err != nil {
		return TORRollAction{}, err
	}
	return TORRollAction{Command: CommandTORRoll, SeedCommitment: s.Commitment, Character: p.ch.ID,
		Skill: p.skill.Name, TN: p.tn, Trait: p.trait, Call: req.Call}, nil
}

// TORHopeActionFor is the action a device signs to spend Hope on
// character's latest roll, a v2 roll of the open session.
func (j *Handler) TORHopeActionFor(ctx context.Context, campaign, character string) (TORHopeAction, error) {
	camp, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return TORHopeAction{}, err
	}
	d := &draft{j: j, campaign: camp}
	s, err := d.openV2()
	if err != nil {
		return TORHopeAction{}, err
	}
	ch, err := torCharacter(camp, character)
	if err != nil {
		return TORHopeAction{}, err
	}
	if ch.LastRoll == nil || ch.LastRoll.Request == "" {
		return TORHopeAction{}, invalid("%s has made no journal-dice-v2 roll to spend Hope on", ch.Name)
	}
	return TORHopeAction{Command: CommandTORHope, SeedCommitment: s.Commitment, Character: ch.ID,
		RollRequest: ch.LastRoll.Request}, nil
}

// characterExists checks that the campaign has the character, of its
// system: a RyF sheet or a The One Ring one.
func characterExists(c *projections.Campaign, id string) error {
	if c.System == SystemTOR {
		_, err := torCharacter(c, id)
		return err
	}
	_, err := character(c, id)
	return err
}
