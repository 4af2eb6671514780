package ryf

import (
	"cmp"
	"slices"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// attr returns a character's attribute, or an error when it has none.
func (c Character) attr(a Attr) (int, error) {
	v, ok := c.Attributes[a]
	if !ok {
		return 0, msgerr.Errorf("%w: the character has no %s (%s)", ErrUnknownAttribute, a, a.Name())
	}
	return v, nil
}

// SkillCheck builds a skill roll: the character's attribute + skill rank.
// skill is looked up as LookupSkill does; attr is the attribute the GM
// names, or "" for the skill's default. Set Difficulty (WithDifficulty),
// Modifier and the level flags on the result as the situation calls for.
func (r *Rules) SkillCheck(c Character, skill string, attr Attr) (Check, error) {
	s, err := r.LookupSkill(skill)
	if err != nil {
		return Check{}, err
	}
	if attr == "" {
		attr = s.Attr
	}
	if !r.hasAttr(attr) {
		return Check{}, msgerr.Errorf("%w %q", ErrUnknownAttribute, clip.Text(attr))
	}
	v, err := c.attr(attr)
	if err != nil {
		return Check{}, err
	}
	return Check{Kind: KindSkill, Attribute: attr, AttributeValue: v, Skill: s.Name, Rank: c.Rank(s.Name)}, nil
}

// AttributeCheck builds an attribute roll: 2 × the attribute.
func (r *Rules) AttributeCheck(c Character, attr Attr) (Check, error) {
	if !r.hasAttr(attr) {
		return Check{}, msgerr.Errorf("%w %q", ErrUnknownAttribute, clip.Text(attr))
	}
	v, err := c.attr(attr)
	if err != nil {
		return Check{}, err
	}
	return Check{Kind: KindAttribute, Attribute: attr, AttributeValue: v}, nil
}

// InitiativeCheck builds an initiative roll: Destreza + Percepción, with no difficulty.
func (r *Rules) InitiativeCheck(c Character) (Check, error) {
	d, err := c.attr(Destreza)
	if err != nil {
		return Check{}, err
	}
	p, err := c.attr(Percepcion)
	if err != nil {
		return Check{}, err
	}
	return Check{Kind: KindInitiative, Attribute: Destreza, AttributeValue: d, Attribute2: Percepcion, Attribute2Value: p}, nil
}

// MeleeCheck builds a melee attack: Fuerza + the weapon's skill (Armas
// cuerpo a cuerpo, or Pelea unarmed) + precision, against the target's
// Defense (see Defense). A ranged weapon gives ErrInvalidWeapon.
func (r *Rules) MeleeCheck(c Character, w Weapon, defense int) (Check, error) {
	if w.Ranged() {
		return Check{}, msgerr.Errorf("%w %q: a ranged weapon cannot make a melee attack", ErrInvalidWeapon, clip.Text(w.Name))
	}
	return r.attack(KindMelee, Fuerza, c, w, defense)
}

// RangedCheck builds a ranged attack: Destreza + the weapon's skill +
// precision, against the range difficulty of band (+5 with cover). A melee
// weapon gives ErrInvalidWeapon. Whether the weapon can fire (its magazine)
// is the caller's to check with Weapon.Fire.
func (r *Rules) RangedCheck(c Character, w Weapon, band Band, cover bool) (Check, error) {
	if !w.Ranged() {
		return Check{}, msgerr.Errorf("%w %q: a melee weapon cannot make a ranged attack", ErrInvalidWeapon, clip.Text(w.Name))
	}
	d, err := RangeDifficulty(band, cover)
	if err != nil {
		return Check{}, err
	}
	return r.attack(KindRanged, Destreza, c, w, d)
}

func (r *Rules) attack(kind Kind, a Attr, c Character, w Weapon, difficulty int) (Check, error) {
	if err := r.ValidateWeapon(w); err != nil {
		return Check{}, err
	}
	v, err := c.attr(a)
	if err != nil {
		return Check{}, err
	}
	chk := Check{
		Kind: kind, Attribute: a, AttributeValue: v, Skill: w.Skill, Rank: c.Rank(w.Skill),
		Weapon: w.Name, Precision: w.Precision,
	}
	return chk.WithDifficulty(difficulty), nil
}

// Defense returns the character's Defense against melee attacks:
// Destreza + (Armas cuerpo a cuerpo when it wields a melee weapon, else
// Pelea) + 5, or + 6 with the hard-defense rule.
func (r *Rules) Defense(c Character, wieldsMelee bool) int {
	skill := skillBrawl
	if wieldsMelee {
		skill = skillMelee
	}
	return c.Attributes[Destreza] + c.Rank(skill) + r.DefenseBonus()
}

// Initiative is one combatant's initiative roll, for ordering.
type Initiative struct {
	ID         string `json:"id"`
	Total      int    `json:"total"`
	Destreza   int    `json:"destreza"`
	Percepcion int    `json:"percepcion"`
}

// OrderInitiative returns the combatants in acting order: higher total
// first; ties go to higher Destreza, then higher Percepción, then to the
// one that rolled first (earlier in the input). The input is not changed.
func OrderInitiative(rolls []Initiative) []Initiative {
	out := slices.Clone(rolls)
	slices.SortStableFunc(out, func(a, b Initiative) int {
		return cmp.Or(
			cmp.Compare(b.Total, a.Total),
			cmp.Compare(b.Destreza, a.Destreza),
			cmp.Compare(b.Percepcion, a.Percepcion),
		)
	})
	return out
}
