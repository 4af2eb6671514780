package ryf

import (
	"fmt"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Level is the level of a 1o3d10 roll: which of the three dice is kept.
// In JSON it is its name: "low", "mid" or "high".
type Level int

// The levels, lowest first.
const (
	Low  Level = iota // keep the lowest die
	Mid               // keep the median die
	High              // keep the highest die
)

// String returns "low", "mid" or "high".
func (l Level) String() string {
	switch l {
	case Low:
		return "low"
	case Mid:
		return "mid"
	case High:
		return "high"
	}
	return fmt.Sprintf("level(%d)", int(l))
}

// MarshalText encodes the level as its name.
func (l Level) MarshalText() ([]byte, error) {
	if l < Low || l > High {
		return nil, msgerr.Errorf("%w: level %d", ErrOutOfRange, int(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText decodes "low", "mid" or "high".
func (l *Level) UnmarshalText(text []byte) error {
	switch string(text) {
	case "low":
		*l = Low
	case "mid":
		*l = Mid
	case "high":
		*l = High
	default:
		return msgerr.Errorf("%w: level %q, want low, mid or high", ErrSyntax, clip.Text(text))
	}
	return nil
}

// Keep returns the die a level keeps among three faces: the lowest, the
// median or the highest.
func (l Level) Keep(faces [3]int) int {
	a, b, c := faces[0], faces[1], faces[2]
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	switch {
	case l <= Low:
		return a
	case l >= High:
		return c
	}
	return b
}

// LevelInput is what decides the level of a roll (docs/rules.md 1.5).
type LevelInput struct {
	// Specialization: the character uses its specialization on this roll.
	Specialization bool `json:"specialization,omitempty"`
	// RankZero: a skill roll (combat rolls included) with skill rank 0.
	RankZero bool `json:"rank_zero,omitempty"`
	// TokenSpent: the player hands the token to the GM for this roll.
	TokenSpent bool `json:"token_spent,omitempty"`
	// TokenReturned: the GM has just given the token back.
	TokenReturned bool `json:"token_returned,omitempty"`
	// Incapacitated: the character has 10 HP or less.
	Incapacitated bool `json:"incapacitated,omitempty"`
}

// The reasons ComputeLevel gives, in the order it applies them.
const (
	ReasonSpecialization = "base high: specialization"
	ReasonRankZero       = "base low: skill rank 0"
	ReasonBase           = "base mid"
	ReasonTokenSpent     = "+1 level: token spent"
	ReasonTokenReturned  = "-1 level: token just returned"
	ReasonIncapacitated  = "-1 level: incapacitated (HP 10 or less)"
	ReasonClampedLow     = "clamped to low"
	ReasonClampedHigh    = "clamped to high"
)

// ComputeLevel returns the level of a roll and the reasons, as human
// strings in the order applied: the base (high with specialization, else
// low for a skill roll with rank 0, else mid), the shifts (+1 token spent,
// -1 token just returned, -1 incapacitated), then the clamp to low..high.
func ComputeLevel(in LevelInput) (Level, []string) {
	reasons := make([]string, 0, 4)
	var l Level
	switch {
	case in.Specialization:
		l = High
		reasons = append(reasons, ReasonSpecialization)
	case in.RankZero:
		l = Low
		reasons = append(reasons, ReasonRankZero)
	default:
		l = Mid
		reasons = append(reasons, ReasonBase)
	}
	if in.TokenSpent {
		l++
		reasons = append(reasons, ReasonTokenSpent)
	}
	if in.TokenReturned {
		l--
		reasons = append(reasons, ReasonTokenReturned)
	}
	if in.Incapacitated {
		l--
		reasons = append(reasons, ReasonIncapacitated)
	}
	switch {
	case l < Low:
		l = Low
		reasons = append(reasons, ReasonClampedLow)
	case l > High:
		l = High
		reasons = append(reasons, ReasonClampedHigh)
	}
	return l, reasons
}
