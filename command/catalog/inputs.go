package catalog

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Finding a command's inputs again in the events it recorded (Spec.Inputs):
// what a command records names every input it was given, so that a
// reproduction re-runs it with exactly those.

// find decodes the first event of type typ in r.
func find[D any](r []events.Event, typ string) (*D, events.Event, error) {
	for _, e := range r {
		if e.Type != typ {
			continue
		}
		var d D
		if err := e.DecodeData(&d); err != nil {
			return nil, e, err
		}
		return &d, e, nil
	}
	return nil, events.Event{}, msgerr.Errorf("no %s event", shortType(typ))
}

// expect is the inputs of a command without a body that records an
// event of type typ.
func expect(typ string) func(context.Context, *command.Handler, string, []events.Event) (NoBody, error) {
	return func(_ context.Context, _ *command.Handler, _ string, r []events.Event) (NoBody, error) {
		for _, e := range r {
			if e.Type == typ {
				return NoBody{}, nil
			}
		}
		return NoBody{}, msgerr.Errorf("no %s event", shortType(typ))
	}
}

// rollsOf decodes the roll events of r, in order (those that decode).
func rollsOf(r []events.Event) []*events.RollMade {
	var out []*events.RollMade
	for _, e := range r {
		if e.Type != events.TypeRollMade {
			continue
		}
		var d events.RollMade
		if e.DecodeData(&d) == nil {
			out = append(out, &d)
		}
	}
	return out
}

// rollInputs finds a roll's request: a RyF skill or attribute roll, or a
// One Ring roll (whose trait, when it was invoked beforehand, is already
// pending in the state before: naming it again would be refused for a
// character in a bout of madness).
func rollInputs(ctx context.Context, j *command.Handler, campaign string, r []events.Event) (command.RollRequest, error) {
	req, err := rollRequestInputs(ctx, j, campaign, r)
	if err != nil {
		return req, err
	}
	if a, _, err := find[events.CallAnswered](r, events.TypeCallAnswered); err == nil {
		req.Call = a.Call // the roll call it answered
	}
	return req, nil
}

// rollRequestInputs is rollInputs without the roll call.
func rollRequestInputs(ctx context.Context, j *command.Handler, campaign string, r []events.Event) (command.RollRequest, error) {
	if h, _, err := find[events.RollHidden](r, events.TypeRollHidden); err == nil {
		req := command.RollRequest{Character: h.Character, Skill: h.Skill, Modifier: h.Modifier, Entropy: h.Entropy, Secret: true}
		if h.Kind == "attribute" || h.Skill != "" && h.Attribute != "" {
			req.Attribute = h.Attribute
		}
		if h.Difficulty != nil {
			req.Vs = strconv.Itoa(*h.Difficulty)
		}
		return req, nil
	}
	made := rollsOf(r)
	if len(made) == 0 {
		return command.RollRequest{}, msgerr.New("no roll event")
	}
	d := made[0]
	switch d.Kind {
	case "skill", "attribute":
		req := command.RollRequest{Character: d.Character, Skill: d.Skill, Attribute: d.Attribute,
			Modifier: d.Modifier, Token: d.Token, Specialization: d.Specialization, Entropy: d.Entropy}
		if d.Difficulty != nil {
			req.Vs = strconv.Itoa(*d.Difficulty)
		}
		return req, nil
	case rolls.KindTOR:
		req := command.RollRequest{Character: d.Character, Skill: d.Skill, TN: &d.TN, Entropy: d.Entropy}
		if d.Trait != "" {
			pending := false
			if c, err := j.Load(ctx, campaign, 0); err == nil && c.TOR != nil {
				if ch := c.TOR.Characters[d.Character]; ch != nil && ch.PendingTrait == d.Trait {
					pending = true
				}
			}
			if !pending {
				req.Trait = d.Trait
			}
		}
		return req, nil
	}
	return command.RollRequest{}, msgerr.Errorf("a %s roll is not a roll command's", d.Kind)
}

// freeRollInputs finds a free roll's request in its roll, or in its
// hidden record for a secret one.
func freeRollInputs(_ context.Context, _ *command.Handler, _ string, r []events.Event) (command.FreeRollRequest, error) {
	if h, _, err := find[events.RollHidden](r, events.TypeRollHidden); err == nil {
		return command.FreeRollRequest{Character: h.Character, Dice: h.Dice, Note: h.Note, Call: h.Call, Entropy: h.Entropy, Secret: true}, nil
	}
	d, _, err := find[events.RollMade](r, events.TypeRollMade)
	if err != nil {
		return command.FreeRollRequest{}, err
	}
	return command.FreeRollRequest{Character: d.Character, Dice: d.Dice, Note: d.Note, Call: d.Call, Entropy: d.Entropy}, nil
}

// contestInputs finds a contest's two sides and the tie it re-rolls.
func contestInputs(_ context.Context, _ *command.Handler, _ string, r []events.Event) (command.ContestRequest, error) {
	c, _, err := find[events.ContestResolved](r, events.TypeContestResolved)
	if err != nil {
		return command.ContestRequest{}, err
	}
	sides := rollsOf(r)
	if len(sides) != 2 {
		return command.ContestRequest{}, msgerr.Errorf("%d rolls, want 2", len(sides))
	}
	a, b := sides[0], sides[1]
	if v := rolls.Version(*a); v != ryf.RulesVersion {
		// A body asks for today's rules only (docs/rules.md part 4).
		return command.ContestRequest{}, msgerr.Errorf("recorded under the rules %s, which no body asks for", v)
	}
	return command.ContestRequest{A: a.Character, SkillA: ContestSide(a), AttrA: ContestAttr(a), ModA: a.Modifier,
		TokenA: a.Token, SpecA: a.Specialization, EntropyA: a.Entropy,
		B: b.Character, SkillB: ContestSide(b), AttrB: ContestAttr(b), ModB: b.Modifier,
		TokenB: b.Token, SpecB: b.Specialization, EntropyB: b.Entropy, Rematch: c.Rematch}, nil
}

// ContestSide is what a contest side names: the skill, or else the
// attribute by its full name (a one-letter code could be a skill's prefix).
func ContestSide(d *events.RollMade) string {
	if d.Skill != "" {
		return d.Skill
	}
	if name := ryf.Attr(d.Attribute).Name(); name != "" {
		return name
	}
	return d.Attribute
}

// ContestAttr is the attribute a contest's skill side rolled with (the
// skill's default or the one the GM named); "" for an attribute side.
func ContestAttr(d *events.RollMade) string {
	if d.Skill == "" {
		return ""
	}
	return d.Attribute
}

// pairsOf writes a map as "K=V,K=V" in key order, as the CLI takes it.
func pairsOf(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.Itoa(m[k])
	}
	return strings.Join(parts, ",")
}

// torAttributes writes One Ring attributes in the CLI's syntax.
func torAttributes(a events.TORAttributes) string {
	return fmt.Sprintf("Cuerpo=%d/%d,Corazón=%d/%d,Mente=%d/%d",
		a.Cuerpo.Basic, a.Cuerpo.Favoured, a.Corazon.Basic, a.Corazon.Favoured, a.Mente.Basic, a.Mente.Favoured)
}

// torSkills writes One Ring skill ratings in the CLI's syntax ("*" favoured).
func torSkills(m map[string]events.TORSkill) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.Itoa(m[k].Rank)
		if m[k].Favoured {
			parts[i] += "*"
		}
	}
	return strings.Join(parts, ",")
}

func shortType(t string) string {
	return strings.TrimSuffix(strings.TrimPrefix(t, "journal."), ".v1")
}

// characterOfPlayer is a character of user's in campaign (the first by
// id), or else the campaign's first (a GM acts for every character): the
// acting character of a device command re-run (its events do not record
// it); "" when the campaign has none.
func characterOfPlayer(ctx context.Context, j *command.Handler, campaign, user string) string {
	c, err := j.Load(ctx, campaign, 0)
	if err != nil {
		return ""
	}
	var own, all []string
	for id, ch := range c.Characters {
		all = append(all, id)
		if ch.Player == user {
			own = append(own, id)
		}
	}
	if c.TOR != nil {
		for id, ch := range c.TOR.Characters {
			all = append(all, id)
			if ch.Player == user {
				own = append(own, id)
			}
		}
	}
	if len(own) == 0 {
		own = all
	}
	if len(own) == 0 {
		return ""
	}
	sort.Strings(own)
	return own[0]
}
