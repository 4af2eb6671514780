package ryf_test

import (
	"errors"
	"testing"

	"github.com/campaign-journal/journal/rules/ryf"
)

func TestRaise(t *testing.T) {
	tests := []struct {
		name          string
		rank, xp      int
		newRank, left int
		err           error
	}{
		// "para poder subir cabalgar de 7 a 8 es necesario gastarse 8 puntos de experiencia"
		{"7 to 8 costs 8", 7, 10, 8, 2, nil},
		{"0 to 1 costs 1", 0, 1, 1, 0, nil},
		{"9 to 10 costs 10", 9, 10, 10, 0, nil},
		{"not enough", 7, 7, 7, 7, ryf.ErrNotEnoughXP},
		{"rank 10 is the maximum", 10, 50, 10, 50, ryf.ErrOutOfRange},
		{"negative rank", -1, 50, -1, 50, ryf.ErrOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, left, err := ryf.Raise(tt.rank, tt.xp)
			if r != tt.newRank || left != tt.left || !errors.Is(err, tt.err) {
				t.Errorf("Raise(%d, %d) = %d, %d, %v; want %d, %d, %v", tt.rank, tt.xp, r, left, err, tt.newRank, tt.left, tt.err)
			}
		})
	}
	for rank := 0; rank < 10; rank++ {
		if got, err := ryf.RaiseCost(rank); got != rank+1 || err != nil {
			t.Errorf("RaiseCost(%d) = %d, %v; want %d", rank, got, err, rank+1)
		}
	}
}

func TestValidateXPGrant(t *testing.T) {
	for n := -1; n <= 12; n++ {
		err := ryf.ValidateXPGrant(n)
		if ok := n >= 1 && n <= 10; ok != (err == nil) || (!ok && !errors.Is(err, ryf.ErrOutOfRange)) {
			t.Errorf("ValidateXPGrant(%d) = %v", n, err)
		}
	}
}
