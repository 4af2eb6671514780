package command

// journal-dice-v2 contests (opposed rolls, docs/rules.md 1.5).
//
// Invariants:
//   - A contest's signed roll.request names both sides, every input of each
//     explicit (ContestAction), and the tied contest it re-rolls ("" for
//     none). It is judged by the v1 contest's rules (contestSides and, for
//     a re-roll, checkRematch) and recorded with two nonces, Nonces =
//     [n, n+1]: side A's roll and side B's, both drawn at the reveal with
//     the same r, from StreamV2(K, campaign, session, n, r) and (…, n+1, r).
//   - The reveal records what the v1 contest records, in one append: side
//     A's roll, side B's roll, the contest resolved with its verdict
//     (contestResolved).
//   - Who may request a contest: the GM, or the player of one side. The
//     request's acting character (RollRequestSigned.Character, which the
//     permissions check is the player's own) must be side A or side B.
//     A player may spend a token or the specialization only for a side
//     it plays (the acting character, or a character whose player is the
//     requester): the other side's token and specialization are its own
//     player's choices, so a player's request leaves them false. The
//     modifiers and the attribute named for a skill side are written in
//     the request, where everyone sees them before anything is drawn.
//   - A re-roll names a tie not re-rolled before nor asked for by a
//     pending request; only one pending contest request may name a tie.

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/signed"
)

// CommandContest is the command of a contest's action.
const CommandContest = "contest"

// ContestSideAction is one side of a v2 contest. Skill is the skill as
// the rules name it, "" for an attribute side; Attribute is the letter of
// an attribute side's attribute, or of the attribute the GM names for a
// skill side ("" for the skill's default).
type ContestSideAction struct {
	Character      string `json:"character"`
	Skill          string `json:"skill"`
	Attribute      string `json:"attribute"`
	Modifier       int    `json:"modifier"`
	Token          bool   `json:"token"`
	Specialization bool   `json:"specialization"`
}

// ContestAction is the action of a v2 contest: the object in a
// roll.request's action whose command is "contest". Every member is
// written, zeros, empty strings and false included, and none other is
// accepted. Rematch is the id of the tied contest it re-rolls, "" for none.
type ContestAction struct {
	Command        string            `json:"command"` // "contest"
	SeedCommitment string            `json:"seed_commitment"`
	A              ContestSideAction `json:"a"`
	B              ContestSideAction `json:"b"`
	Rematch        string            `json:"rematch"`
}

// parseExplicit decodes one JSON object into v, refusing unknown members,
// a missing one (every input is explicit: v's json names, and those of
// the objects named in nested) and anything after the object.
func parseExplicit(action []byte, v any, nested ...string) error {
	if err := explicitMembers(action, reflect.TypeOf(v).Elem(), nested, "action"); err != nil {
		return err
	}
	return decodeAction(action, v)
}

// decodeAction reads an action strictly (signed.DecodeAction), its error
// the journal's one clear refusal.
func decodeAction(action []byte, v any) error {
	if err := signed.DecodeAction(action, v); err != nil {
		return invalid("action: %v", err)
	}
	return nil
}

// explicitMembers refuses an object (b) that lacks a member of struct t,
// or whose members named in nested (objects of struct type) lack one of
// theirs; where names the object in messages.
func explicitMembers(b []byte, t reflect.Type, nested []string, where string) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return invalid("%s: %v", where, err)
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		raw, ok := obj[name]
		if !ok {
			return invalid("%s: no member %q (every input is explicit, zeros and empty strings included)", where, clip.Text(name))
		}
		if slices.Contains(nested, name) {
			if err := explicitMembers(raw, f.Type, nil, where+"."+name); err != nil {
				return err
			}
		}
	}
	return nil
}

// ParseContestAction reads a contest's action strictly.
func ParseContestAction(action []byte) (ContestAction, error) {
	var a ContestAction
	if err := parseExplicit(action, &a, "a", "b"); err != nil {
		return a, err
	}
	if a.Command != CommandContest {
		return a, invalid("action: command %q, want %q", clip.Text(a.Command), CommandContest)
	}
	return a, nil
}

// sideName is what ContestRequest reads for a side: its skill, or its
// attribute for an attribute side.
func (s ContestSideAction) sideName() (what, attr string) {
	if s.Skill == "" {
		return s.Attribute, ""
	}
	return s.Skill, s.Attribute
}

func (a ContestAction) request() ContestRequest {
	wa, aa := a.A.sideName()
	wb, ab := a.B.sideName()
	return ContestRequest{A: a.A.Character, SkillA: wa, AttrA: aa, B: a.B.Character, SkillB: wb, AttrB: ab,
		ModA: a.A.Modifier, ModB: a.B.Modifier, TokenA: a.A.Token, TokenB: a.B.Token,
		SpecA: a.A.Specialization, SpecB: a.B.Specialization, Rematch: a.Rematch}
}

// contestRequestOf is the contest a recorded request asks for.
func contestRequestOf(q events.RollRequested) ContestRequest {
	return ContestAction{Command: CommandContest,
		A: ContestSideAction{Character: q.Character, Skill: q.Skill, Attribute: q.Attribute, Modifier: q.Modifier,
			Token: q.Token, Specialization: q.Specialization},
		B: ContestSideAction{Character: q.B, Skill: q.SkillB, Attribute: q.AttributeB, Modifier: q.ModifierB,
			Token: q.TokenB, Specialization: q.SpecializationB},
		Rematch: q.Rematch}.request()
}

// explicitSide refuses a side whose skill or attribute is not written as
// the rules name it (every input is explicit).
func explicitSide(flag string, s ContestSideAction, c ryf.Check) error {
	if s.Skill != c.Skill {
		return invalid("action: side %s: skill %q: name it as the rules do, %q", flag, clip.Text(s.Skill), c.Skill)
	}
	if s.Attribute != "" && s.Attribute != string(c.Attribute) {
		return invalid("action: side %s: attribute %q: name it by its letter, %q", flag, clip.Text(s.Attribute), c.Attribute)
	}
	if s.Skill == "" && s.Attribute == "" {
		return invalid("action: side %s names neither a skill nor an attribute", flag)
	}
	return nil
}

// playsSide reports whether the requester may make a side's own choices
// (token, specialization): the GM, or the player of the acting character
// or of the side's character.
func (j *Handler) playsSide(d *draft, acting, char string) bool {
	if j.isGM(d.campaign) || char == acting {
		return true
	}
	ch := d.campaign.Characters[char]
	return ch != nil && ch.Player != "" && strings.EqualFold(ch.Player, j.actor)
}

// requestContestV2 records a contest's signed request (RequestRoll has
// checked the signature, the requester and the request's id).
func (j *Handler) requestContestV2(d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error {
	a, err := ParseContestAction(r.Action)
	if err != nil {
		return err
	}
	if a.SeedCommitment != s.Commitment {
		return invalid("the request names seed commitment %q, session %s's is %s", clip.Text(a.SeedCommitment), s.ID, s.Commitment)
	}
	if msg.Character != "" && msg.Character != a.A.Character && msg.Character != a.B.Character {
		return invalid("the request is for %s, the signed contest is between %s and %s", msg.Character, a.A.Character, a.B.Character)
	}
	if d.campaign.System == SystemTOR {
		return msgerr.Errorf("%w: The One Ring has no opposed rolls", ErrV2NotWired)
	}
	rules, err := d.ryfRules()
	if err != nil {
		return err
	}
	req := a.request()
	sides, err := d.contestSides(rules, req)
	if err != nil {
		return err
	}
	for i, side := range []ContestSideAction{a.A, a.B} {
		flag := []string{"a", "b"}[i]
		if err := explicitSide(flag, side, sides[i].check); err != nil {
			return err
		}
		if (side.Token || side.Specialization) && !j.playsSide(d, msg.Character, side.Character) {
			return invalid("side %s (%s): its token and specialization are its player's to spend, not %s's", flag, side.Character, j.actor)
		}
	}
	if a.Rematch != "" {
		ctx := d.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		if err := d.checkRematch(ctx, a.Rematch, sides); err != nil {
			return err
		}
	}
	for id, q := range s.Requests {
		if q.State != projections.RequestPending || q.Requested.Kind != KindContest {
			continue
		}
		if a.Rematch != "" && q.Requested.Rematch == a.Rematch {
			return invalid("--rematch %s: request %s already re-rolls that tie: reveal it, or the GM cancels it", a.Rematch, id)
		}
	}
	n := d.nonce
	d.add(events.KindCharacter, a.A.Character, events.TypeRollRequested, events.RollRequested{
		User: j.actor, Signed: msg.Signed, Signature: msg.Signature, Request: r.Request,
		Commitment: r.Commitment.String(), Nonce: n, Nonces: []int{int(n), int(n) + 1},
		Character: a.A.Character, Kind: KindContest, Skill: a.A.Skill, Attribute: a.A.Attribute,
		Modifier: a.A.Modifier, Token: a.A.Token, Specialization: a.A.Specialization,
		B: a.B.Character, SkillB: a.B.Skill, AttributeB: a.B.Attribute, ModifierB: a.B.Modifier,
		TokenB: a.B.Token, SpecializationB: a.B.Specialization, Rematch: a.Rematch,
	})
	d.nonce += 2
	return nil
}

// KindContest is the kind of a contest's request.
const KindContest = "contest"

// drawContestV2 draws a contest request's two rolls with src's r, and
// records the verdict.
func (d *draft) drawContestV2(s *projections.Session, key dice.KeyV2, q events.RollRequested, src v2Source) error {
	nonces := q.Taken()
	if len(nonces) != 2 {
		return invalid("request %s is a contest with %d nonces, want 2", q.Request, len(nonces))
	}
	rules, err := d.ryfRules()
	if err != nil {
		return err
	}
	req := contestRequestOf(q)
	sides, err := d.contestSides(rules, req)
	if err != nil {
		return err
	}
	if why, voided := d.campaign.Voided[req.Rematch]; req.Rematch != "" && voided {
		return invalid("--rematch %s: that contest was voided since the request (%s)", req.Rematch, why)
	}
	var results [2]ryf.Result
	var ids [2]string
	for i, side := range sides {
		rec := &sidesRecorder{r: key.Stream(d.campaign.ID, s.ID, nonces[i], src.R)}
		if results[i], err = ryf.Roll(side.check, rec); err != nil {
			return invalidOr(err)
		}
		e := rolls.FromRyF(d.campaign.System, results[i])
		e.Character, e.Nonce = side.char, nonces[i]
		src.stamp(&e, q.Request, rec.sides)
		ids[i] = d.add(events.KindCharacter, side.char, events.TypeRollMade, e)
	}
	d.add(events.KindCharacter, req.A, events.TypeContestResolved, contestResolved(req, results, ids))
	return nil
}

// ContestActionFor is the action a device signs for req in the campaign's
// state now, every input explicit: each side's skill as the rules name it
// ("" for an attribute side) and its attribute's letter. It records
// nothing; the request is judged again when it is recorded. req's entropy
// is not read.
func (j *Handler) ContestActionFor(ctx context.Context, campaign string, req ContestRequest) (ContestAction, error) {
	camp, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return ContestAction{}, err
	}
	d := &draft{ctx: ctx, j: j, campaign: camp}
	s, err := d.openV2()
	if err != nil {
		return ContestAction{}, err
	}
	rules, err := d.ryfRules()
	if err != nil {
		return ContestAction{}, err
	}
	sides, err := d.contestSides(rules, req)
	if err != nil {
		return ContestAction{}, err
	}
	side := func(c contestSide, attrNamed string, mod int, token, spec bool) ContestSideAction {
		out := ContestSideAction{Character: c.char, Skill: c.check.Skill, Modifier: mod, Token: token, Specialization: spec}
		if c.check.Skill == "" || attrNamed != "" {
			out.Attribute = string(c.check.Attribute)
		}
		return out
	}
	return ContestAction{Command: CommandContest, SeedCommitment: s.Commitment,
		A:       side(sides[0], req.AttrA, req.ModA, req.TokenA, req.SpecA),
		B:       side(sides[1], req.AttrB, req.ModB, req.TokenB, req.SpecB),
		Rematch: req.Rematch}, nil
}
