package command

import (
	"context"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

// RollRequest is a RyF or Galaxia skill or attribute roll.
type RollRequest struct {
	Character string `json:"character"`
	// Skill is the skill rolled; empty for an attribute roll.
	Skill string `json:"skill,omitempty"`
	// Attribute is the attribute the GM names for a skill roll (empty: the
	// skill's default), or the attribute of an attribute roll.
	Attribute string `json:"attribute,omitempty"`
	// Vs is the difficulty: a name (fácil … imposible) or a number; empty for none.
	Vs             string `json:"vs,omitempty"`
	Modifier       int    `json:"modifier,omitempty"`
	Token          bool   `json:"token,omitempty"`
	Specialization bool   `json:"specialization,omitempty"`
	Entropy        string `json:"entropy,omitempty"`
	// TN is The One Ring's target number (0: the default 14).
	TN int `json:"tn,omitempty"`
	// Trait is a trait of a The One Ring character invoked before the roll.
	Trait string `json:"trait,omitempty"`
}

// Roll makes one roll from the session's dice stream: a RyF or Galaxia skill
// or attribute roll, or a The One Ring skill roll, by the campaign's system.
func (j *Journal) Roll(ctx context.Context, campaign string, req RollRequest) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if d.campaign.System == SystemTOR {
			return d.rollTOR(req)
		}
		if req.TN != 0 || req.Trait != "" {
			return invalid("--tn and --trait are for The One Ring; campaign %s plays %s", d.campaign.ID, orNone(d.campaign.System))
		}
		rules, err := d.ryfRules()
		if err != nil {
			return err
		}
		_, err = d.rollRyF(rules, req)
		return err
	})
}

// buildCheck turns a request into a check for the character, applying the
// state of play: token, returned token, specialization, wounds.
func buildCheck(c *projections.Campaign, rules *ryf.Rules, ch *projections.Sheet, req RollRequest) (ryf.Check, error) {
	rc := ryfCharacter(ch)
	var check ryf.Check
	var err error
	if req.Skill == "" {
		if req.Attribute == "" {
			return check, invalid("name a skill, or an attribute with --attribute")
		}
		a, err := rules.LookupAttribute(req.Attribute)
		if err != nil {
			return check, invalid("%v", err)
		}
		if check, err = rules.AttributeCheck(rc, a); err != nil {
			return check, invalid("%v", err)
		}
	} else {
		var a ryf.Attr
		if req.Attribute != "" {
			if a, err = rules.LookupAttribute(req.Attribute); err != nil {
				return check, invalid("--attr: %v", err)
			}
		}
		if check, err = rules.SkillCheck(rc, req.Skill, a); err != nil {
			return check, invalid("%v", err)
		}
	}
	if req.Vs != "" {
		diff, err := ryf.ParseDifficulty(req.Vs)
		if err != nil {
			return check, invalid("--vs: %v", err)
		}
		check = check.WithDifficulty(diff)
	}
	check.Modifier = req.Modifier
	if err := applyLevel(&check, ch, req.Token, req.Specialization); err != nil {
		return check, err
	}
	return check, check.Validate()
}

// applyLevel sets the level conditions of a check from the sheet and the
// player's choices, refusing what the state of play forbids.
func applyLevel(check *ryf.Check, ch *projections.Sheet, token, spec bool) error {
	if token {
		if ch.NPC {
			return invalid("%s is a non-player character and has no token", ch.Name)
		}
		if ch.Token != projections.TokenWithPlayer {
			return invalid("the GM holds %s's token: it cannot be spent until it is returned", ch.Name)
		}
		check.TokenSpent = true
	}
	if spec {
		if check.Skill == "" || check.Skill != ch.Specialization {
			return invalid("%s's specialization is %s, not this roll's skill", ch.Name, orNone(ch.Specialization))
		}
		if ch.SpecUsedToday {
			return invalid("%s has already used the specialization today (a night's rest or 'journal day new' starts a new day)", ch.Name)
		}
		check.Specialization = true
	}
	check.TokenReturned = ch.TokenJustReturned
	check.Incapacitated = ryf.Status(ch.Status) == ryf.StatusIncapacitated
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// rollRyF validates, rolls and drafts one skill or attribute roll event.
func (d *draft) rollRyF(rules *ryf.Rules, req RollRequest) (ryf.Result, error) {
	ch, err := character(d.campaign, req.Character)
	if err != nil {
		return ryf.Result{}, err
	}
	if err := canAct(ch); err != nil {
		return ryf.Result{}, err
	}
	check, err := buildCheck(d.campaign, rules, ch, req)
	if err != nil {
		return ryf.Result{}, invalidOr(err)
	}
	return d.roll1o3d10(ch.ID, check, req.Entropy, func(e *events.RollMade) {
		if req.Vs != "" && check.Difficulty != nil {
			e.DifficultyName = ryf.DifficultyName(*check.Difficulty)
		}
	})
}

// roll1o3d10 draws a check from the next nonce and drafts its roll event.
func (d *draft) roll1o3d10(char string, check ryf.Check, entropy string, decorate func(*events.RollMade)) (ryf.Result, error) {
	stream, nonce, err := d.stream(entropy)
	if err != nil {
		return ryf.Result{}, err
	}
	res, err := ryf.Roll(check, stream)
	if err != nil {
		return ryf.Result{}, invalidOr(err)
	}
	e := rolls.FromRyF(d.campaign.System, res)
	e.Character, e.Nonce, e.Entropy = char, nonce, entropy
	if decorate != nil {
		decorate(&e)
	}
	d.add(events.KindCharacter, char, events.TypeRollMade, e)
	return res, nil
}

// ContestRequest is an opposed roll: each side a skill or an attribute.
type ContestRequest struct {
	A, SkillA string
	B, SkillB string
	EntropyA  string
	EntropyB  string
	// Rematch names the tied contest this one re-rolls.
	Rematch string
}

// Contest makes both rolls of an opposed roll and records the verdict.
func (j *Journal) Contest(ctx context.Context, campaign string, req ContestRequest) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		rules, err := d.ryfRules()
		if err != nil {
			return err
		}
		if req.A == req.B {
			return invalid("a contest needs two different characters")
		}
		sides := [2]RollRequest{
			sideRequest(rules, req.A, req.SkillA, req.EntropyA),
			sideRequest(rules, req.B, req.SkillB, req.EntropyB),
		}
		var results [2]ryf.Result
		var ids [2]string
		for i, s := range sides {
			if results[i], err = d.rollRyF(rules, s); err != nil {
				return err
			}
			ids[i] = d.evs[len(d.evs)-1].ID
		}
		v := ryf.Contest(results[0], results[1])
		out := events.ContestResolved{RollA: ids[0], RollB: ids[1], A: req.A, B: req.B, Reason: v.Reason, Rematch: req.Rematch}
		switch v.Winner {
		case 1:
			out.Winner = req.A
		case 2:
			out.Winner = req.B
		default:
			out.Tie = true
		}
		d.add(events.KindCharacter, req.A, events.TypeContestResolved, out)
		return nil
	})
}

// sideRequest reads a contest side's SKILL as a skill, or else as an attribute.
func sideRequest(rules *ryf.Rules, char, what, entropy string) RollRequest {
	if _, err := rules.LookupSkill(what); err != nil {
		if _, aerr := rules.LookupAttribute(what); aerr == nil {
			return RollRequest{Character: char, Attribute: what, Entropy: entropy}
		}
	}
	return RollRequest{Character: char, Skill: what, Entropy: entropy}
}
