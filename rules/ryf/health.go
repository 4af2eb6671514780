package ryf

import (
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
)

// Status is a character's state of health, from its hit points.
type Status string

// The states of health (docs/rules.md 1.9).
const (
	StatusOK            Status = "ok"
	StatusIncapacitated Status = "incapacitated" // HP ≤ 10: the kept die drops one level
	StatusUnconscious   Status = "unconscious"   // HP ≤ 0: cannot act or roll
	StatusDead          Status = "dead"          // HP ≤ -20
)

// Wound thresholds.
const (
	IncapacitatedHP = 10
	UnconsciousHP   = 0
	DeadHP          = -20
)

// StatusOf returns the status of a character with hp hit points.
func StatusOf(hp int) Status {
	switch {
	case hp <= DeadHP:
		return StatusDead
	case hp <= UnconsciousHP:
		return StatusUnconscious
	case hp <= IncapacitatedHP:
		return StatusIncapacitated
	}
	return StatusOK
}

// CanAct reports whether a character in this status can act and roll.
func (s Status) CanAct() bool { return s == StatusOK || s == StatusIncapacitated }

// Healing amounts (docs/rules.md 1.10).
const (
	RestHP        = 1 // a night of proper sleep
	ComfortRestHP = 2 // a night in full comfort
	AfterCombatD  = 6 // after combat: 1d6, no explosion
)

// room returns how many HP can be healed without passing max HP.
func room(hp, maxHP int) int { return max(maxHP-hp, 0) }

// RestHealing returns the HP a night's rest heals: 1, or 2 in full comfort,
// never past max HP; 0 for the dead.
func RestHealing(hp, maxHP int, comfort bool) int {
	if StatusOf(hp) == StatusDead {
		return 0
	}
	n := RestHP
	if comfort {
		n = ComfortRestHP
	}
	return min(n, room(hp, maxHP))
}

// Heal returns the HP that healing amount points actually heals: never past
// max HP. A negative amount gives ErrOutOfRange; a dead character ErrDead.
func Heal(hp, maxHP, amount int) (int, error) {
	if amount < 0 {
		return 0, msgerr.Errorf("%w: healing %d, want 0 or more", ErrOutOfRange, amount)
	}
	if StatusOf(hp) == StatusDead {
		return 0, msgerr.Errorf("%w: the dead do not heal", ErrDead)
	}
	return min(amount, room(hp, maxHP)), nil
}

// AfterCombat is a rolled after-combat healing.
type AfterCombat struct {
	Face   int `json:"face"`   // the d6
	Healed int `json:"healed"` // the HP healed
}

// AfterCombatHealing rolls the healing after a combat: one d6 (no
// explosion), at most the damage taken in that combat, never past max HP.
// It draws the die even when nothing can be healed, so that the rule always
// draws one die. A dead character gives ErrDead and draws nothing;
// negative damage taken gives ErrOutOfRange. Once per combat is the
// caller's to enforce.
func AfterCombatHealing(hp, maxHP, damageTaken int, r dice.Roller) (AfterCombat, error) {
	if damageTaken < 0 {
		return AfterCombat{}, msgerr.Errorf("%w: damage taken %d, want 0 or more", ErrOutOfRange, damageTaken)
	}
	if StatusOf(hp) == StatusDead {
		return AfterCombat{}, msgerr.Errorf("%w: the dead do not heal", ErrDead)
	}
	if r == nil {
		return AfterCombat{}, msgerr.Errorf("%w: no dice roller", ErrInvalidCheck)
	}
	f, err := rollDie(r, AfterCombatD)
	if err != nil {
		return AfterCombat{}, msgerr.Errorf("after-combat healing: %w", err)
	}
	return AfterCombat{Face: f, Healed: min(f, damageTaken, room(hp, maxHP))}, nil
}
