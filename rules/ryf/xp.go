package ryf

import "github.com/campaign-journal/journal/internal/msgerr"

// Experience grants (docs/rules.md 1.4).
const (
	MinXPGrant = 1
	MaxXPGrant = 10
)

// ValidateXPGrant checks an end-of-session grant: 1..10 XP.
func ValidateXPGrant(n int) error {
	if n < MinXPGrant || n > MaxXPGrant {
		return msgerr.Errorf("%w: xp grant %d, want %d..%d", ErrOutOfRange, n, MinXPGrant, MaxXPGrant)
	}
	return nil
}

// RaiseCost returns the XP that raising a skill from rank to rank+1 costs:
// the new rank. A rank already at 10 (or outside 0..9) gives ErrOutOfRange.
func RaiseCost(rank int) (int, error) {
	if rank >= MaxRank {
		return 0, msgerr.Errorf("%w: rank %d is the maximum", ErrOutOfRange, MaxRank)
	}
	if rank < MinRank {
		return 0, msgerr.Errorf("%w: rank %d, want %d..%d", ErrOutOfRange, rank, MinRank, MaxRank)
	}
	return rank + 1, nil
}

// Raise raises a skill by one rank with xp available and returns the new
// rank and the XP left. Not enough XP gives ErrNotEnoughXP.
func Raise(rank, xp int) (newRank, xpLeft int, err error) {
	cost, err := RaiseCost(rank)
	if err != nil {
		return rank, xp, err
	}
	if xp < cost {
		return rank, xp, msgerr.Errorf("%w: rank %d costs %d xp, have %d", ErrNotEnoughXP, rank+1, cost, xp)
	}
	return rank + 1, xp - cost, nil
}
