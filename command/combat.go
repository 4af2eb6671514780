package command

import (
	"context"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// StartCombat rolls initiative for every participant and records the order
// (highest first; ties by Destreza, then Percepción, then roll order).
func (j *Handler) StartCombat(ctx context.Context, campaign string, participants []string, entropy string) (Result, error) {
	return j.StartCombatWith(ctx, campaign, CombatStart{Participants: participants, Entropy: entropy})
}

// CombatStart is the request to start a combat.
type CombatStart struct {
	Participants []string `json:"participants" cli:"CHAR..." min:"2" complete:"character"`
	// Entropy is mixed into every initiative roll.
	Entropy string `json:"entropy,omitempty" cli:"--entropy S" help:"entropy for the initiative rolls"`
	// Token lists the participants who spend their token on their
	// initiative roll (one level higher), as before any roll (docs/rules.md 1.7).
	Token []string `json:"token,omitempty" cli:"--token CHAR,..." help:"participants who spend their token on initiative (one level higher), comma-separated" complete:"character"`
}

// StartCombatWith is StartCombat with the players' choices for the
// initiative rolls.
func (j *Handler) StartCombatWith(ctx context.Context, campaign string, req CombatStart) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		sides, err := d.initiativeSides(req)
		if err != nil {
			return err
		}
		results := make([]ryf.Result, len(sides))
		ids := make([]string, len(sides))
		for i, s := range sides {
			if results[i], err = d.roll1o3d10(s.ch.ID, s.check, req.Entropy, nil); err != nil {
				return err
			}
			ids[i] = d.evs[len(d.evs)-1].ID
		}
		d.add(events.KindCampaign, campaign, events.TypeCombatStarted, combatStarted(sides, results, ids))
		return nil
	})
}

// initiativeSide is a participant's initiative check, ready to roll.
type initiativeSide struct {
	ch    *projections.Sheet
	check ryf.Check
}

// initiativeSides checks a combat's start against the rules and the state
// of play and builds every participant's initiative check, in order.
func (d *draft) initiativeSides(req CombatStart) ([]initiativeSide, error) {
	participants := req.Participants
	rules, err := d.ryfRules()
	if err != nil {
		return nil, err
	}
	if d.campaign.Combat != nil {
		return nil, invalid("a combat is already in progress (round %d): end it first", d.campaign.Combat.Round)
	}
	if len(participants) < 2 {
		return nil, invalid("a combat needs at least two participants")
	}
	token := map[string]bool{}
	for _, id := range req.Token {
		if !slices.Contains(participants, id) {
			return nil, invalid("--token %s: not a participant of the combat", id)
		}
		if token[id] {
			return nil, invalid("--token %s: named twice", id)
		}
		token[id] = true
	}
	var sides []initiativeSide
	seen := map[string]bool{}
	for _, id := range participants {
		ch, err := character(d.campaign, id)
		if err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, invalid("%s is named twice", id)
		}
		seen[id] = true
		if err := canAct(ch); err != nil {
			return nil, err
		}
		check, err := rules.InitiativeCheck(ryfCharacter(ch))
		if err != nil {
			return nil, invalidOr(err)
		}
		if err := applyLevel(&check, ch, token[id], false); err != nil {
			return nil, err
		}
		sides = append(sides, initiativeSide{ch: ch, check: check})
	}
	return sides, nil
}

// combatStarted is the order of a combat whose participants (sides)
// rolled results, recorded as roll events ids (highest first; ties by
// Destreza, then Percepción, then roll order).
func combatStarted(sides []initiativeSide, results []ryf.Result, ids []string) events.CombatStarted {
	var inits []ryf.Initiative
	rolled := map[string]string{}
	for i, s := range sides {
		rolled[s.ch.ID] = ids[i]
		inits = append(inits, ryf.Initiative{ID: s.ch.ID, Total: results[i].Total,
			Destreza: s.ch.Attributes[string(ryf.Destreza)], Percepcion: s.ch.Attributes[string(ryf.Percepcion)]})
	}
	var order []string
	totals := map[string]int{}
	for _, in := range ryf.OrderInitiative(inits) {
		order = append(order, in.ID)
		totals[in.ID] = in.Total
	}
	// The sides: a player's character is the party's, an NPC the enemies'.
	sidesOf := map[string]string{}
	for _, s := range sides {
		sidesOf[s.ch.ID] = events.SideParty
		if s.ch.NPC {
			sidesOf[s.ch.ID] = events.SideEnemies
		}
	}
	return events.CombatStarted{Order: order, Initiative: rolled, Totals: totals, Sides: sidesOf}
}

// NextRound starts the next round of the combat in progress.
func (j *Handler) NextRound(ctx context.Context, campaign string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		cb := d.campaign.Combat
		if cb == nil {
			return invalid("no combat in progress")
		}
		d.add(events.KindCampaign, campaign, events.TypeCombatRound, events.CombatRound{Round: cb.Round + 1})
		return nil
	})
}

// EndCombat ends the combat in progress.
func (j *Handler) EndCombat(ctx context.Context, campaign string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if d.campaign.Combat == nil {
			return invalid("no combat in progress")
		}
		d.add(events.KindCampaign, campaign, events.TypeCombatEnded, events.CombatEnded{})
		return nil
	})
}

// AttackRequest is a melee or ranged attack in the combat in progress.
type AttackRequest struct {
	Attacker string `json:"attacker" cli:"CHAR" complete:"character"`
	Target   string `json:"target" cli:"TARGET" complete:"character"`
	// Weapon is the weapon used; empty: the attacker's first weapon, or fists.
	Weapon string `json:"weapon,omitempty" cli:"--weapon NAME" help:"weapon (default: the character's first weapon, or fists)" complete:"weapon"`
	// Range is the band of a ranged attack (corta, media, larga), or Distance in metres.
	Range          string `json:"range,omitempty" cli:"--range corta|media|larga" help:"range band of a ranged attack: corta, media, larga"`
	Distance       int    `json:"distance,omitempty" cli:"--distance M" help:"distance in metres (instead of --range)"`
	Cover          bool   `json:"cover,omitempty" cli:"--cover" help:"the target is in cover: +5 to the range difficulty"`
	Modifier       int    `json:"modifier,omitempty" cli:"--mod N" help:"the GM's modifier"`
	Token          bool   `json:"token,omitempty" cli:"--token" help:"spend the token: one level higher"`
	Specialization bool   `json:"specialization,omitempty" cli:"--spec" help:"use the specialization (once per day)"`
	Entropy        string `json:"entropy,omitempty" cli:"--entropy S" help:"the player's own entropy"`
}

// nextToAct is the first combatant in initiative order who can act and has
// not attacked this round, or "" when the round is over.
func nextToAct(c *projections.Campaign) string {
	for _, id := range c.Combat.Order {
		ch := c.Characters[id]
		if ch != nil && !c.Combat.Attacked[id] && ryf.Status(ch.Status).CanAct() {
			return id
		}
	}
	return ""
}

// Attack rolls an attack in turn order; on a hit it rolls the damage (doubled
// on a critical) and applies it to the target, all in one atomic append.
func (j *Handler) Attack(ctx context.Context, campaign string, req AttackRequest) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		p, err := d.planAttack(req)
		if err != nil {
			return err
		}
		draw := func() (dice.Roller, uint64, error) {
			stream, nonce, err := d.stream(req.Entropy)
			return stream, nonce, err
		}
		return d.resolveAttack(p, draw, func(e *events.RollMade) { e.Entropy = req.Entropy })
	})
}

// attackPlan is an attack judged against the rules and the state: who,
// against whom, with what, and the check its roll is made with.
type attackPlan struct {
	attacker, target *projections.Sheet
	weapon           ryf.Weapon
	band             ryf.Band
	cover            bool
	check            ryf.Check
}

// planAttack judges an attack in the combat in progress (turn order, one
// attack per round, weapon, range, ammunition) and builds its check. It
// draws nothing. req.Entropy is not read.
func (d *draft) planAttack(req AttackRequest) (attackPlan, error) {
	rules, err := d.ryfRules()
	if err != nil {
		return attackPlan{}, err
	}
	cb := d.campaign.Combat
	if cb == nil {
		return attackPlan{}, invalid("no combat in progress: start one with 'journal combat start CHAR...'")
	}
	attacker, err := character(d.campaign, req.Attacker)
	if err != nil {
		return attackPlan{}, err
	}
	target, err := character(d.campaign, req.Target)
	if err != nil {
		return attackPlan{}, err
	}
	if req.Attacker == req.Target {
		return attackPlan{}, invalid("%s cannot attack itself", attacker.Name)
	}
	for _, id := range []string{req.Attacker, req.Target} {
		if !slices.Contains(cb.Order, id) {
			return attackPlan{}, invalid("%s is not in this combat (order: %s)", id, strings.Join(cb.Order, ", "))
		}
	}
	if err := canAct(attacker); err != nil {
		return attackPlan{}, err
	}
	// docs/rules.md: any target of the combat may be attacked, the dead
	// too (the table decides what a blow on the fallen means; the journal
	// records it as it records any attack).
	if cb.Attacked[req.Attacker] {
		return attackPlan{}, invalid("%s has already attacked in round %d: one attack per round", attacker.Name, cb.Round)
	}
	if next := nextToAct(d.campaign); next != req.Attacker {
		return attackPlan{}, invalid("it is %s's turn in round %d, not %s's (initiative order: %s)", next, cb.Round, req.Attacker, strings.Join(cb.Order, ", "))
	}
	weapon, err := chooseWeapon(rules, attacker, req.Weapon)
	if err != nil {
		return attackPlan{}, err
	}
	rc := ryfCharacter(attacker)
	var check ryf.Check
	var band ryf.Band
	if weapon.Ranged() {
		if band, err = rangeBand(weapon, req.Range, req.Distance); err != nil {
			return attackPlan{}, err
		}
		if weapon.Magazine > 0 {
			if _, err := weapon.Fire(weapon.Magazine - attacker.ShotsFired[weapon.Name]); err != nil {
				return attackPlan{}, invalid("%s's %s: %v: reload it with 'journal reload %s'", attacker.Name, weapon.Name, err, attacker.ID)
			}
		}
		check, err = rules.RangedCheck(rc, weapon, band, req.Cover)
	} else {
		if req.Range != "" || req.Distance != 0 || req.Cover {
			return attackPlan{}, invalid("%s is a melee weapon: --range and --cover are for ranged attacks", weapon.Name)
		}
		defense := rules.Defense(ryfCharacter(target), wieldsMelee(rules, target))
		check, err = rules.MeleeCheck(rc, weapon, defense)
	}
	if err != nil {
		return attackPlan{}, invalidOr(err)
	}
	check.Modifier = req.Modifier
	if err := applyLevel(&check, attacker, req.Token, req.Specialization); err != nil {
		return attackPlan{}, err
	}
	return attackPlan{attacker: attacker, target: target, weapon: weapon, band: band, cover: req.Cover, check: check}, nil
}

// resolveAttack rolls a planned attack and, on a hit, its damage, and adds
// the roll events, the damage taken and the attack's resolution in that
// order. draw gives the roller and nonce of each roll in turn (the attack's,
// then the damage's, taken only on a hit); decorate completes each roll
// event once its dice are drawn (v1: the entropy; v2: the request, the
// reveal and the draws).
func (d *draft) resolveAttack(p attackPlan, draw func() (dice.Roller, uint64, error), decorate func(*events.RollMade)) error {
	attacker, target, check := p.attacker, p.target, p.check
	roller, nonce, err := draw()
	if err != nil {
		return err
	}
	res, err := ryf.Roll(check, roller)
	if err != nil {
		return invalidOr(err)
	}
	e := rolls.FromRyF(d.campaign.System, res)
	e.Character, e.Nonce = attacker.ID, nonce
	e.Target, e.Range, e.Cover = target.ID, string(p.band), p.cover
	decorate(&e)
	attackID := d.add(events.KindCharacter, attacker.ID, events.TypeRollMade, e)
	hit := res.Success // success excludes natural 1 and fumble
	out := events.AttackResolved{Attacker: attacker.ID, Target: target.ID, AttackRoll: attackID,
		Against: *check.Difficulty, Total: res.Total, Hit: hit, Critical: hit && res.Critical}
	if hit {
		roller, nonce, err := draw()
		if err != nil {
			return err
		}
		dmg, err := ryf.RollDamage(p.weapon.Damage, res.Critical, roller)
		if err != nil {
			return invalidOr(err)
		}
		e := rolls.FromDamage(d.campaign.System, dmg)
		e.Character, e.Nonce, e.Weapon, e.Target = attacker.ID, nonce, p.weapon.Name, target.ID
		decorate(&e)
		out.DamageRoll = d.add(events.KindCharacter, attacker.ID, events.TypeRollMade, e)
		out.Damage = dmg.Total
		if dmg.Total > 0 {
			d.add(events.KindCharacter, target.ID, events.TypeDamageTaken,
				events.DamageTaken{Character: target.ID, Amount: dmg.Total, Source: attacker.ID})
		}
	}
	d.add(events.KindCharacter, attacker.ID, events.TypeAttackResolved, out)
	return nil
}

// chooseWeapon finds the named weapon, or the character's first one, or fists.
// A named weapon must be one the character carries (docs/rules.md,
// "Decisions where the rule texts are silent"); fists are always at hand.
func chooseWeapon(rules *ryf.Rules, ch *projections.Sheet, name string) (ryf.Weapon, error) {
	if name == "" {
		if len(ch.Weapons) == 0 {
			return ryf.Unarmed(), nil
		}
		name = ch.Weapons[0]
	}
	if u := ryf.Unarmed(); strings.EqualFold(name, u.Name) || strings.EqualFold(name, "pelea") {
		return u, nil
	}
	w, err := rules.LookupWeapon(name)
	if err != nil {
		return ryf.Weapon{}, invalid("--weapon: %v", err)
	}
	for _, carried := range ch.Weapons {
		if c, err := rules.LookupWeapon(carried); err == nil && c.Name == w.Name {
			return w, nil
		}
	}
	if len(ch.Weapons) == 0 {
		return ryf.Weapon{}, invalid("--weapon: %s does not carry %s and carries no weapon (unarmed: Pelea)", ch.Name, w.Name)
	}
	return ryf.Weapon{}, invalid("--weapon: %s does not carry %s; it carries %s (or unarmed: Pelea)", ch.Name, w.Name, strings.Join(ch.Weapons, ", "))
}

// wieldsMelee reports whether a defender wields a melee weapon (its first
// weapon is a melee one), which makes Armas cuerpo a cuerpo its defense skill.
func wieldsMelee(rules *ryf.Rules, ch *projections.Sheet) bool {
	if len(ch.Weapons) == 0 {
		return false
	}
	w, err := rules.LookupWeapon(ch.Weapons[0])
	return err == nil && !w.Ranged()
}

// rangeBand resolves the band of a ranged attack from --range or --distance.
func rangeBand(w ryf.Weapon, name string, metres int) (ryf.Band, error) {
	switch {
	case name != "" && metres != 0:
		return "", invalid("give --range or --distance, not both")
	case name != "":
		b, err := ryf.ParseBand(name)
		if err != nil {
			return "", invalid("--range: %v", err)
		}
		return b, nil
	case metres > 0:
		b, err := w.Band(metres)
		if err != nil {
			return "", invalid("%s at %d m: %v", w.Name, metres, err)
		}
		return b, nil
	}
	return "", invalid("a ranged attack with %s needs --range corta|media|larga or --distance METRES", w.Name)
}
