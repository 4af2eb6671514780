package command

// The table's roll calls (docs/design.md §6): the GM calls characters to
// roll a skill or an attribute; each answers once, with a roll (v1) or a
// roll request (journal-dice-v2) that names the call.
//
// Invariants:
//   - A call names one to MaxCallCharacters characters of the campaign,
//     each once, and a skill or an attribute, which the rules must know:
//     a name they resolve unambiguously is recorded as they name it
//     ("advertir" is recorded "Advertir/Notar", so that every answer's
//     signed action names it as the rules do); an unknown or ambiguous one
//     is refused with the rules' suggestion. Its difficulty, if any, must
//     parse. At most MaxOpenCalls calls are open at once.
//   - Its id is "call-N", N counting the campaign's calls from 1: unique in
//     the campaign, across restarts, short enough to read aloud.
//   - An answer names an open call for its character, with the call's
//     skill (or attribute) and difficulty; a character that answered
//     already is refused (ErrAlreadyAnswered, a conflict), and so is an
//     answer to a closed call (ErrCallClosed). The answer's
//     journal.call.answered.v1 is recorded in the roll's own append.
//   - Only the GM makes and closes calls (the catalogue's role: the
//     permissions of every door).

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// Bounds of the roll calls.
const (
	MaxCallCharacters = 32
	MaxOpenCalls      = 64
)

var (
	// ErrAlreadyAnswered marks an answer to a call its character answered
	// already (a conflict at every door: a double tap, a second device).
	ErrAlreadyAnswered = msgerr.New("already answered")
	// ErrCallClosed marks an answer to a closed call (a conflict).
	ErrCallClosed = msgerr.New("roll call closed")
)

// CallRequest is the GM's roll call: who, what, against which difficulty,
// and a note for the players.
type CallRequest struct {
	Characters []string `json:"characters" cli:"CHAR..." complete:"character"`
	Skill      string   `json:"skill,omitempty" cli:"--skill S" help:"the skill to roll (named as the rules do once recorded)" complete:"skill"`
	Attribute  string   `json:"attribute,omitempty" cli:"--attribute A" help:"the attribute to roll (RyF), or the skill's attribute" complete:"attribute"`
	Vs         string   `json:"vs,omitempty" cli:"--vs D" help:"the difficulty (RyF: a name or a number; The One Ring: the TN)"`
	Note       string   `json:"note,omitempty" cli:"--note N" help:"the GM's note for the players"`
}

// CallClose closes a roll call.
type CallClose struct {
	Call   string `json:"call" cli:"ID"`
	Reason string `json:"reason,omitempty" cli:"--reason R" help:"why the call is closed"`
}

// MakeCall records a roll call (journal.call.made.v1).
func (j *Handler) MakeCall(ctx context.Context, campaign string, req CallRequest) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if len(req.Characters) == 0 || len(req.Characters) > MaxCallCharacters {
			return invalid("characters: name one to %d characters", MaxCallCharacters)
		}
		for i, ch := range req.Characters {
			if err := events.ValidID(ch); err != nil {
				return invalid("character %q: %v", clip.Text(ch), err)
			}
			if err := characterExists(d.campaign, ch); err != nil {
				return err
			}
			if slices.Contains(req.Characters[:i], ch) {
				return invalid("character %s is named twice", ch)
			}
		}
		skill, attr, err := d.callRoll(req.Skill, req.Attribute, req.Vs)
		if err != nil {
			return err
		}
		if len(d.campaign.Calls) >= MaxOpenCalls {
			return invalid("%d roll calls are open: close some first", MaxOpenCalls)
		}
		d.add(events.KindCampaign, campaign, events.TypeCallMade, events.CallMade{
			Call: projections.CallID(d.campaign.CallsMade + 1), Characters: slices.Clone(req.Characters),
			Skill: skill, Attribute: attr, Vs: strings.TrimSpace(req.Vs), Note: strings.TrimSpace(req.Note), By: j.actor,
		})
		return nil
	})
}

// callRoll checks a call's skill, attribute and difficulty against the
// campaign's rules, and returns the skill and attribute as recorded.
func (d *draft) callRoll(skill, attr, vs string) (string, string, error) {
	skill, attr, vs = strings.TrimSpace(skill), strings.TrimSpace(attr), strings.TrimSpace(vs)
	if skill == "" && attr == "" {
		return "", "", invalid("a roll call needs a skill or an attribute")
	}
	if d.campaign.System == SystemTOR {
		if attr != "" {
			return "", "", invalid("a The One Ring roll call names a skill, not an attribute (%q)", clip.Text(attr))
		}
		s, err := tor.LookupSkill(skill)
		if err != nil {
			return "", "", invalidOr(err)
		}
		if vs != "" {
			if tn, err := strconv.Atoi(vs); err != nil || tn < tor.MinTN || tn > tor.MaxTN {
				return "", "", malformed("vs %q: a target number, %d to %d", clip.Text(vs), tor.MinTN, tor.MaxTN)
			}
		}
		return s.Name, "", nil
	}
	rules, err := d.ryfRules()
	if err != nil {
		return "", "", err
	}
	if skill != "" {
		s, err := rules.LookupSkill(skill)
		if err != nil {
			return "", "", invalidOr(err)
		}
		skill = s.Name
	}
	if attr != "" {
		if _, err := rules.LookupAttribute(attr); err != nil {
			return "", "", invalidOr(err)
		}
	}
	if vs != "" {
		if _, err := ryf.ParseDifficulty(vs); err != nil {
			return "", "", invalid("vs: %v", err)
		}
	}
	return skill, attr, nil
}

// CloseCall records the close of an open roll call (journal.call.closed.v1).
func (j *Handler) CloseCall(ctx context.Context, campaign string, req CallClose) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if d.campaign.OpenCall(req.Call) == nil {
			return d.noOpenCall(req.Call)
		}
		d.add(events.KindCampaign, campaign, events.TypeCallClosed, events.CallClosed{
			Call: req.Call, Reason: strings.TrimSpace(req.Reason), By: j.actor})
		return nil
	})
}

// noOpenCall is the refusal of a call id that is not open: closed (a
// conflict), or unknown.
func (d *draft) noOpenCall(id string) error {
	for n := 1; n <= d.campaign.CallsMade; n++ {
		if projections.CallID(n) == id {
			return msgerr.Errorf("%w: roll call %s of campaign %s is closed", ErrCallClosed, id, d.campaign.ID)
		}
	}
	return notFound("no roll call %q in campaign %s", clip.Text(id), d.campaign.ID)
}

// checkAnswer refuses a roll of character naming call id that does not
// answer it: the call must be open, for character, not answered by it yet,
// and the roll must be the call's (skill, or attribute, and difficulty;
// skill and vs as the roll names them). It runs before the roll is drafted.
func (d *draft) checkAnswer(id, character, skill, attr, vs string) error {
	call := d.campaign.OpenCall(id)
	if call == nil {
		return d.noOpenCall(id)
	}
	if !slices.Contains(call.Characters, character) {
		return invalid("roll call %s is for %s, not %s", id, strings.Join(call.Characters, ", "), character)
	}
	if ev, done := call.Answered[character]; done {
		return msgerr.Errorf("%w: %s answered roll call %s already (event %s)", ErrAlreadyAnswered, character, id, ev)
	}
	if call.Skill != "" && d.skillName(skill) != call.Skill {
		return invalid("roll call %s asks for %s, not %q", id, call.Skill, clip.Text(skill))
	}
	if call.Skill == "" && (skill != "" || !d.sameAttribute(attr, call.Attribute)) {
		return invalid("roll call %s asks for the attribute %s", id, call.Attribute)
	}
	if call.Vs != "" && !d.sameDifficulty(vs, call.Vs) {
		return invalid("roll call %s is against %s, not %q", id, call.Vs, clip.Text(vs))
	}
	return nil
}

// skillName is the rules' name of skill ("" when they do not know it).
func (d *draft) skillName(skill string) string {
	if d.campaign.System == SystemTOR {
		s, err := tor.LookupSkill(skill)
		if err != nil {
			return ""
		}
		return s.Name
	}
	rules, err := d.ryfRules()
	if err != nil {
		return ""
	}
	s, err := rules.LookupSkill(skill)
	if err != nil {
		return ""
	}
	return s.Name
}

// sameAttribute reports whether a and b name the same attribute.
func (d *draft) sameAttribute(a, b string) bool {
	rules, err := d.ryfRules()
	if err != nil || d.campaign.System == SystemTOR {
		return false
	}
	x, errA := rules.LookupAttribute(a)
	y, errB := rules.LookupAttribute(b)
	return errA == nil && errB == nil && x == y
}

// sameDifficulty reports whether a and b are the same difficulty (a
// target number in The One Ring).
func (d *draft) sameDifficulty(a, b string) bool {
	if d.campaign.System == SystemTOR {
		x, errA := strconv.Atoi(strings.TrimSpace(a))
		y, errB := strconv.Atoi(strings.TrimSpace(b))
		return errA == nil && errB == nil && x == y
	}
	x, errA := ryf.ParseDifficulty(a)
	y, errB := ryf.ParseDifficulty(b)
	return errA == nil && errB == nil && x == y
}

// answerCall records that the last roll (or roll request) drafted
// answers call id for character (checkAnswer checked it); request is a
// v2 request's id.
func (d *draft) answerCall(id, character, request string) error {
	for i := len(d.evs) - 1; i >= 0; i-- {
		if t := d.evs[i].Type; t == events.TypeRollMade || t == events.TypeRollRequested {
			d.add(events.KindCampaign, d.campaign.ID, events.TypeCallAnswered, events.CallAnswered{
				Call: id, Character: character, Event: d.evs[i].ID, Request: request, By: d.j.actor})
			return nil
		}
	}
	return msgerr.Errorf("command: roll call %s: no roll drafted to answer it", id)
}
