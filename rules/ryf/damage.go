package ryf

import (
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
)

// DamageDice are a weapon's damage dice, such as 2d6 or 1d6-2. In JSON they
// are their text ("1d6-2").
type DamageDice struct {
	Count    int `json:"count"`
	Sides    int `json:"sides"`
	Modifier int `json:"modifier"`
}

// Damage dice limits.
const (
	MaxDamageDice     = 20
	MinDamageSides    = 2
	MaxDamageSides    = 100
	MaxDamageModifier = 50
	// MaxExplosions caps the explosions of one damage die (ErrRunaway).
	MaxExplosions = 100
)

// ParseDamage reads damage dice: [count]d sides [+|- modifier], such as
// "1d10", "2d6", "d10", "1d6-2", "1D10 + 1". Count is 1..20 (default 1),
// sides 2..100, modifier -50..50.
func ParseDamage(s string) (DamageDice, error) {
	text := strings.ToLower(strings.Join(strings.Fields(s), ""))
	count, rest, ok := strings.Cut(text, "d")
	if !ok {
		return DamageDice{}, msgerr.Errorf("%w: damage %q: want dice like 1d10 or 1d6-2", ErrSyntax, clip.Text(s))
	}
	d := DamageDice{Count: 1}
	var err error
	if count != "" {
		if d.Count, err = digits(count); err != nil {
			return DamageDice{}, msgerr.Errorf("%w: damage %q: dice count: %w", ErrSyntax, clip.Text(s), err)
		}
	}
	sides, mod := rest, ""
	if i := strings.IndexAny(rest, "+-"); i >= 0 {
		sides, mod = rest[:i], rest[i+1:]
		if mod == "" {
			return DamageDice{}, msgerr.Errorf("%w: damage %q: missing modifier after %q", ErrSyntax, clip.Text(s), clip.Text(rest[i]))
		}
		if d.Modifier, err = digits(mod); err != nil {
			return DamageDice{}, msgerr.Errorf("%w: damage %q: modifier: %w", ErrSyntax, clip.Text(s), err)
		}
		if rest[i] == '-' {
			d.Modifier = -d.Modifier
		}
	}
	if d.Sides, err = digits(sides); err != nil {
		return DamageDice{}, msgerr.Errorf("%w: damage %q: sides: %w", ErrSyntax, clip.Text(s), err)
	}
	if err := d.Validate(); err != nil {
		return DamageDice{}, msgerr.Errorf("damage %q: %w", clip.Text(s), err)
	}
	return d, nil
}

// digits reads a short run of decimal digits (no sign).
func digits(s string) (int, error) {
	if s == "" || len(s) > 6 {
		return 0, msgerr.Errorf("want 1 to 6 digits, got %q", clip.Text(s))
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, msgerr.Errorf("want digits, got %q", clip.Text(s))
		}
	}
	return strconv.Atoi(s)
}

// Validate checks the limits: count 1..20, sides 2..100, modifier -50..50.
func (d DamageDice) Validate() error {
	switch {
	case d.Count < 1 || d.Count > MaxDamageDice:
		return msgerr.Errorf("%w: %d dice, want 1..%d", ErrOutOfRange, d.Count, MaxDamageDice)
	case d.Sides < MinDamageSides || d.Sides > MaxDamageSides:
		return msgerr.Errorf("%w: d%d, want d%d..d%d", ErrOutOfRange, d.Sides, MinDamageSides, MaxDamageSides)
	case d.Modifier < -MaxDamageModifier || d.Modifier > MaxDamageModifier:
		return msgerr.Errorf("%w: modifier %d, want %d..%d", ErrOutOfRange, d.Modifier, -MaxDamageModifier, MaxDamageModifier)
	}
	return nil
}

// String returns the dice as text: "1d10", "1d6-2", "2d6+1"; "" for the zero value.
func (d DamageDice) String() string {
	if d == (DamageDice{}) {
		return ""
	}
	s := strconv.Itoa(d.Count) + "d" + strconv.Itoa(d.Sides)
	switch {
	case d.Modifier > 0:
		s += "+" + strconv.Itoa(d.Modifier)
	case d.Modifier < 0:
		s += strconv.Itoa(d.Modifier)
	}
	return s
}

// MarshalText encodes the dice as their String.
func (d DamageDice) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText decodes dice with ParseDamage; "" gives the zero value.
func (d *DamageDice) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*d = DamageDice{}
		return nil
	}
	v, err := ParseDamage(string(text))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// DamageRoll is a rolled damage: every die's chain of faces (the die, then
// its explosions), the sums, and the final damage.
type DamageRoll struct {
	Dice DamageDice `json:"dice"`
	// Chains holds one list of faces per die, in draw order: a die that
	// shows its maximum is followed by its explosions.
	Chains   [][]int `json:"chains"`
	DiceSum  int     `json:"dice_sum"`
	Raw      int     `json:"raw"` // DiceSum + Modifier; may be negative
	Critical bool    `json:"critical,omitempty"`
	// Total is the damage dealt: Raw floored at 0, doubled on a critical.
	Total int `json:"total"`
}

// RollDamage rolls damage dice left to right. A die that shows its maximum
// explodes: it is rolled again at once and added, while it keeps showing the
// maximum, before the next die is rolled. The modifier is added once;
// negative damage counts as 0 (it does not heal); a critical doubles the
// final damage.
func RollDamage(d DamageDice, critical bool, r dice.Roller) (DamageRoll, error) {
	if err := d.Validate(); err != nil {
		return DamageRoll{}, msgerr.Errorf("damage %s: %w", d, err)
	}
	if r == nil {
		return DamageRoll{}, msgerr.Errorf("%w: no dice roller", ErrInvalidCheck)
	}
	out := DamageRoll{Dice: d, Critical: critical, Chains: make([][]int, 0, d.Count)}
	for i := range d.Count {
		var chain []int
		for {
			if len(chain) > MaxExplosions {
				return DamageRoll{}, msgerr.Errorf("%w: die %d of %s exploded %d times", ErrRunaway, i+1, d, MaxExplosions)
			}
			f, err := rollDie(r, d.Sides)
			if err != nil {
				return DamageRoll{}, msgerr.Errorf("damage %s die %d: %w", d, i+1, err)
			}
			chain = append(chain, f)
			out.DiceSum += f
			if f != d.Sides {
				break
			}
		}
		out.Chains = append(out.Chains, chain)
	}
	out.Raw = out.DiceSum + d.Modifier
	out.Total = max(out.Raw, 0)
	if critical {
		out.Total *= 2
	}
	return out, nil
}

// Faces returns every face of the damage roll in draw order.
func (d DamageRoll) Faces() []int {
	var out []int
	for _, c := range d.Chains {
		out = append(out, c...)
	}
	return out
}

// rollDie draws one die and checks that the roller kept its contract.
func rollDie(r dice.Roller, sides int) (int, error) {
	f, err := r.Roll(sides)
	if err != nil {
		return 0, err
	}
	if f < 1 || f > sides {
		return 0, msgerr.Errorf("%w: %d on d%d", dice.ErrInvalidFace, f, sides)
	}
	return f, nil
}
