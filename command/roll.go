package command

import (
	"context"
	"strconv"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

// RollRequest is a RyF or Galaxia skill or attribute roll.
type RollRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	// Skill is the skill rolled; empty for an attribute roll.
	Skill string `json:"skill,omitempty" cli:"[SKILL]" complete:"skill"`
	// Attribute is the attribute the GM names for a skill roll (empty: the
	// skill's default), or the attribute of an attribute roll (the CLI's
	// --attribute, its form's flag).
	Attribute string `json:"attribute,omitempty" cli:"--with-attr X" alias:"attr" help:"skill roll: another attribute the GM names (default: the skill's)" complete:"attribute"`
	// Vs is the difficulty: a name (fácil … imposible) or a number; empty for none.
	Vs             string `json:"vs,omitempty" cli:"--vs DIFFICULTY" help:"difficulty: fácil, media, difícil, insólito, imposible or a number" complete:"difficulty"`
	Modifier       int    `json:"modifier,omitempty" cli:"--mod N" help:"the GM's modifier"`
	Token          bool   `json:"token,omitempty" help:"spend the token: one level higher"`
	Specialization bool   `json:"specialization,omitempty" cli:"--spec" help:"use the specialization (once per day): keep the highest die"`
	Entropy        string `json:"entropy,omitempty" cli:"--entropy S" help:"the player's own entropy, so not even the GM can know the roll before"`
	// TN is The One Ring's target number: nil (not given) for the default
	// 14; a TN given is one of tor.MinTN..tor.MaxTN (0 is refused, never
	// read as the default).
	TN *int `json:"tn,omitempty" cli:"--tn N" default:"14" help:"The One Ring: target number"`
	// Trait is a trait of a The One Ring character invoked before the roll.
	Trait string `json:"trait,omitempty" cli:"--trait T" help:"The One Ring: a trait invoked before the roll"`
	// Call is the GM's roll call this roll answers (calls.go), "" for none.
	Call string `json:"call,omitempty" cli:"--call ID" help:"the GM's roll call this roll answers ('journal call list')"`
	// Secret is the GM's secret roll (free.go): recorded without its
	// outcome until it is revealed.
	Secret bool `json:"secret,omitempty" help:"the GM's secret roll: its outcome is recorded when revealed or when the session ends"`
}

// Roll makes one roll from the session's dice stream: a RyF or Galaxia skill
// or attribute roll, or a The One Ring skill roll, by the campaign's system.
func (j *Handler) Roll(ctx context.Context, campaign string, req RollRequest) (Result, error) {
	res, err := j.execute(ctx, campaign, func(d *draft) error {
		if req.Call != "" {
			if err := d.checkAnswer(req.Call, req.Character, req.Skill, req.Attribute, rollVs(d.campaign, req)); err != nil {
				return err
			}
		}
		if req.Secret {
			if req.Call != "" {
				return invalid("a secret roll answers no roll call (the call's answer is public)")
			}
			return d.rollSecret(req) // free.go
		}
		if err := d.roll(req); err != nil {
			return err
		}
		if req.Call != "" {
			return d.answerCall(req.Call, req.Character, "") // calls.go
		}
		return nil
	})
	return j.withSecrets(ctx, campaign, res, err)
}

// roll drafts Roll's roll.
func (d *draft) roll(req RollRequest) error {
	if d.campaign.System == SystemTOR {
		return d.rollTOR(req)
	}
	if req.TN != nil || req.Trait != "" {
		return invalid("--tn and --trait are for The One Ring; campaign %s plays %s", d.campaign.ID, orNone(d.campaign.System))
	}
	rules, err := d.ryfRules()
	if err != nil {
		return err
	}
	_, err = d.rollRyF(rules, req)
	return err
}

// rollVs is a roll's difficulty as a call names it: RyF's vs, or The One
// Ring's target number (14 when not given).
func rollVs(c *projections.Campaign, req RollRequest) string {
	if c.System != SystemTOR {
		return req.Vs
	}
	if req.TN == nil {
		return "14"
	}
	return strconv.Itoa(*req.TN)
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
				return check, invalid("--with-attr: %v", err)
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
	d.add(events.KindCharacter, char, events.TypeRollMade, &e) // a pointer: New copies it, once
	return res, nil
}

// ContestRequest is an opposed roll: each side a skill or an attribute
// roll of its character (SkillA, SkillB: a skill, or an attribute's letter
// or name, which always means the attribute), with everything any roll may
// use (docs/rules.md 1.5): the attribute the GM names for a skill side, the GM's
// modifier, the token, the specialization, the player's entropy.
type ContestRequest struct {
	A      string `json:"a" cli:"A" complete:"character"`
	SkillA string `json:"skill_a" cli:"SKILL_A" complete:"skill"`
	B      string `json:"b" cli:"B" complete:"character"`
	SkillB string `json:"skill_b" cli:"SKILL_B" complete:"skill"`
	// AttrA and AttrB: the attribute the GM names for a skill side (empty:
	// the skill's default). An attribute side names its attribute instead.
	// Each side's inputs are the signed action's (ContestSideAction), by
	// the same names with the side's letter after them.
	AttrA    string `json:"attribute_a,omitempty" cli:"--with-attr-a X" alias:"attr-a" help:"another attribute the GM names for A's skill (default: the skill's)" complete:"attribute"`
	AttrB    string `json:"attribute_b,omitempty" cli:"--with-attr-b X" alias:"attr-b" help:"another attribute the GM names for B's skill (default: the skill's)" complete:"attribute"`
	ModA     int    `json:"modifier_a,omitempty" cli:"--mod-a N" help:"the GM's modifier to A's roll"`
	ModB     int    `json:"modifier_b,omitempty" cli:"--mod-b N" help:"the GM's modifier to B's roll"`
	TokenA   bool   `json:"token_a,omitempty" cli:"--token-a" help:"A spends the token: one level higher"`
	TokenB   bool   `json:"token_b,omitempty" cli:"--token-b" help:"B spends the token: one level higher"`
	SpecA    bool   `json:"specialization_a,omitempty" cli:"--spec-a" help:"A uses the specialization (once per day)"`
	SpecB    bool   `json:"specialization_b,omitempty" cli:"--spec-b" help:"B uses the specialization (once per day)"`
	EntropyA string `json:"entropy_a,omitempty" cli:"--entropy-a S" help:"A's player's own entropy"`
	EntropyB string `json:"entropy_b,omitempty" cli:"--entropy-b S" help:"B's player's own entropy"`
	// Rematch names the tied contest this one re-rolls: it must be a tie
	// between the same two characters, not re-rolled before, and each side
	// rolls the same skill (with the same attribute) or attribute again.
	Rematch string `json:"rematch,omitempty" cli:"--rematch ID" resolve:"event" help:"the tied contest (event id) this one re-rolls"`
	// Rules is the rules version the contest is judged and recorded under:
	// "" for today's (ryf.RulesVersion), or ryf.RulesV1 to re-run a contest
	// recorded under it (before docs/rules.md 1.5 decided opposed rolls: its
	// sides are not flagged Opposed, so an attribute side neither explodes
	// nor has a natural 1). Only the reproduction of a recorded contest
	// sets it; no command body has it.
	Rules string `json:"-" cli:"-"`
}

// stampRules returns the decoration of a roll recorded under rules
// (today's when ""; rolls.FromRyF has stamped those).
func stampRules(rules string) func(*events.RollMade) {
	if rules == "" {
		return nil
	}
	return func(e *events.RollMade) { e.Rules = rules }
}

// contestSide is one side of a contest, checked and ready to roll.
type contestSide struct {
	char    string
	check   ryf.Check
	entropy string
}

// describeSide names what a side rolls, for messages.
func describeSide(c ryf.Check) string {
	if c.Skill == "" {
		return "the attribute " + c.Attribute.Name()
	}
	return c.Skill + " (" + c.Attribute.Name() + ")"
}

// Contest makes both rolls of an opposed roll and records the verdict.
func (j *Handler) Contest(ctx context.Context, campaign string, req ContestRequest) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		rules, err := d.ryfRules()
		if err != nil {
			return err
		}
		if req.Rules != "" && req.Rules != ryf.RulesV1 && req.Rules != ryf.RulesVersion {
			return invalid("a contest is judged under rules %s or %s, not %q", ryf.RulesV1, ryf.RulesVersion, req.Rules)
		}
		sides, err := d.contestSides(rules, req)
		if err != nil {
			return err
		}
		if req.Rematch != "" {
			if err := d.checkRematch(ctx, req.Rematch, sides); err != nil {
				return err
			}
		}
		var results [2]ryf.Result
		var ids [2]string
		for i, s := range sides {
			if results[i], err = d.roll1o3d10(s.char, s.check, s.entropy, stampRules(req.Rules)); err != nil {
				return err
			}
			ids[i] = d.evs[len(d.evs)-1].ID
		}
		d.add(events.KindCharacter, req.A, events.TypeContestResolved, contestResolved(req, results, ids))
		return nil
	})
}

// contestSides checks both sides of a contest against the rules and the
// state of play (not its rematch: checkRematch) and builds their checks.
func (d *draft) contestSides(rules *ryf.Rules, req ContestRequest) ([2]contestSide, error) {
	var sides [2]contestSide
	if req.A == req.B {
		return sides, invalid("a contest needs two different characters")
	}
	for i, s := range []struct {
		char, what, attr string
		mod              int
		token, spec      bool
		entropy, flag    string
	}{
		{req.A, req.SkillA, req.AttrA, req.ModA, req.TokenA, req.SpecA, req.EntropyA, "a"},
		{req.B, req.SkillB, req.AttrB, req.ModB, req.TokenB, req.SpecB, req.EntropyB, "b"},
	} {
		ch, err := character(d.campaign, s.char)
		if err != nil {
			return sides, err
		}
		if err := canAct(ch); err != nil {
			return sides, err
		}
		side, err := rules.LookupSide(s.what)
		if err != nil {
			return sides, invalid("side %s (%s): %v", s.flag, s.char, err)
		}
		var attr ryf.Attr
		if s.attr != "" {
			if attr, err = rules.LookupAttribute(s.attr); err != nil {
				return sides, invalid("--with-attr-%s: %v", s.flag, err)
			}
		}
		check, err := rules.SideCheck(ryfCharacter(ch), side, attr)
		if err != nil {
			return sides, invalid("side %s (%s): %v", s.flag, s.char, err)
		}
		check.Modifier = s.mod
		if err := applyLevel(&check, ch, s.token, s.spec); err != nil {
			return sides, err
		}
		if req.Rules == ryf.RulesV1 {
			check.Opposed = false // ryf/1 has no opposed rolls
		}
		if err := check.Validate(); err != nil {
			return sides, invalid("side %s (%s): %v", s.flag, s.char, err)
		}
		sides[i] = contestSide{char: s.char, check: check, entropy: s.entropy}
	}
	return sides, nil
}

// contestResolved is the verdict of a contest whose sides rolled results,
// recorded as roll events ids.
func contestResolved(req ContestRequest, results [2]ryf.Result, ids [2]string) events.ContestResolved {
	v := ryf.Contest(results[0], results[1])
	out := events.ContestResolved{RollA: ids[0], RollB: ids[1], A: req.A, B: req.B, Reason: v.Reason, Rematch: req.Rematch,
		Critical: v.Critical}
	switch v.Winner {
	case 1:
		out.Winner = req.A
	case 2:
		out.Winner = req.B
	default:
		out.Tie = true
	}
	return out
}

// checkRematch refuses a re-roll of contest id unless it is a tie, between
// the same two characters, not voided nor re-rolled before, and each
// character rolls the same skill (with the same attribute) or attribute as
// in it (docs/rules.md 1.5). It reads the campaign's rolls and contests up to
// the folded state: an append conditional on that state records the
// re-roll, so two re-rolls of one tie cannot both be recorded.
func (d *draft) checkRematch(ctx context.Context, id string, sides [2]contestSide) error {
	filter, err := events.CampaignFilter(d.campaign.ID)
	if err != nil {
		return invalid("campaign %q: %v", d.campaign.ID, err)
	}
	var (
		target  *events.ContestResolved
		rolls   = map[string]events.Event{}
		rerolls []string
		isRoll  bool
	)
	q := events.Query{Subject: filter, To: d.campaign.LastSeq, Types: []string{events.TypeRollMade, events.TypeContestResolved}}
	err = d.j.store.Read(ctx, q, func(r events.Recorded) error {
		e := r.Event
		if e.Type == events.TypeRollMade {
			rolls[e.ID] = e
			isRoll = isRoll || e.ID == id
			return nil
		}
		var c events.ContestResolved
		if err := e.DecodeData(&c); err != nil {
			return nil // not a contest the journal can read: not the one sought
		}
		if _, voided := d.campaign.Voided[e.ID]; voided {
			return nil
		}
		if e.ID == id {
			target = &c
		}
		if c.Rematch == id {
			rerolls = append(rerolls, e.ID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if target == nil {
		if isRoll {
			return invalid("--rematch %s: that event is a roll, not a contest", id)
		}
		if why, voided := d.campaign.Voided[id]; voided {
			return invalid("--rematch %s: that contest is voided (%s)", id, why)
		}
		return notFound("--rematch %s: no contest %s in campaign %s", id, id, d.campaign.ID)
	}
	if !target.Tie {
		return invalid("--rematch %s: that contest was not a tie (%s won): only a tied contest may be re-rolled", id, target.Winner)
	}
	if len(rerolls) > 0 {
		return invalid("--rematch %s: that tie was already re-rolled by contest %s", id, rerolls[0])
	}
	was := map[string]string{target.A: target.RollA, target.B: target.RollB}
	for _, s := range sides {
		rollID, ok := was[s.char]
		if !ok {
			return invalid("--rematch %s: that contest was between %s and %s, not %s", id, target.A, target.B, s.char)
		}
		var before events.RollMade
		if e, ok := rolls[rollID]; !ok || e.DecodeData(&before) != nil {
			return invalid("--rematch %s: its roll %s is not in campaign %s", id, rollID, d.campaign.ID)
		}
		prev := ryf.Check{Skill: before.Skill, Attribute: ryf.Attr(before.Attribute)}
		if prev.Skill != s.check.Skill || prev.Attribute != s.check.Attribute {
			return invalid("--rematch %s: a re-roll uses the same skills or attributes: %s rolled %s, not %s",
				id, s.char, describeSide(prev), describeSide(s.check))
		}
	}
	return nil
}
