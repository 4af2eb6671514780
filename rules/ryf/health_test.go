package ryf_test

import (
	"errors"
	"testing"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

func TestStatusOf(t *testing.T) {
	tests := []struct {
		hp     int
		want   ryf.Status
		canAct bool
	}{
		{32, ryf.StatusOK, true}, {11, ryf.StatusOK, true},
		{10, ryf.StatusIncapacitated, true}, {7, ryf.StatusIncapacitated, true}, {1, ryf.StatusIncapacitated, true},
		{0, ryf.StatusUnconscious, false}, {-19, ryf.StatusUnconscious, false},
		{-20, ryf.StatusDead, false}, {-100, ryf.StatusDead, false},
	}
	for _, tt := range tests {
		got := ryf.StatusOf(tt.hp)
		if got != tt.want || got.CanAct() != tt.canAct {
			t.Errorf("StatusOf(%d) = %q (can act %v), want %q (%v)", tt.hp, got, got.CanAct(), tt.want, tt.canAct)
		}
	}
}

func TestRestHealing(t *testing.T) {
	tests := []struct {
		hp, max int
		comfort bool
		want    int
	}{
		{10, 32, false, 1}, {10, 32, true, 2}, {31, 32, true, 1}, {32, 32, false, 0}, {32, 32, true, 0},
		{-5, 32, false, 1}, {-20, 32, true, 0}, {-25, 32, false, 0},
	}
	for _, tt := range tests {
		if got := ryf.RestHealing(tt.hp, tt.max, tt.comfort); got != tt.want {
			t.Errorf("RestHealing(%d, %d, %v) = %d, want %d", tt.hp, tt.max, tt.comfort, got, tt.want)
		}
	}
}

func TestHeal(t *testing.T) {
	tests := []struct {
		hp, max, amount int
		want            int
		err             error
	}{
		{10, 32, 5, 5, nil}, {30, 32, 5, 2, nil}, {32, 32, 5, 0, nil}, {-10, 32, 50, 42, nil},
		{10, 32, 0, 0, nil}, {10, 32, -1, 0, ryf.ErrOutOfRange}, {-20, 32, 5, 0, ryf.ErrDead},
	}
	for _, tt := range tests {
		got, err := ryf.Heal(tt.hp, tt.max, tt.amount)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("Heal(%d, %d, %d) = %d, %v; want %d, %v", tt.hp, tt.max, tt.amount, got, err, tt.want, tt.err)
		}
	}
}

func TestAfterCombatHealing(t *testing.T) {
	tests := []struct {
		name         string
		hp, max, dmg int
		face         int
		want         int
		err          error
	}{
		{"heals the die", 20, 32, 10, 4, 4, nil},
		{"at most the damage of this combat", 20, 32, 3, 6, 3, nil},
		{"never past max HP", 30, 32, 10, 5, 2, nil},
		{"wakes the unconscious", -2, 32, 12, 6, 6, nil},
		{"no damage taken", 20, 32, 0, 6, 0, nil},
		{"a 6 does not explode", 10, 40, 30, 6, 6, nil},
		{"dead", -20, 32, 10, 6, 0, ryf.ErrDead},
		{"negative damage", 20, 32, -1, 6, 0, ryf.ErrOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := dice.NewFaces(tt.face)
			got, err := ryf.AfterCombatHealing(tt.hp, tt.max, tt.dmg, src)
			if got.Healed != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("AfterCombatHealing = %+v, %v; want healed %d, %v", got, err, tt.want, tt.err)
			}
			if err == nil && (got.Face != tt.face || src.Remaining() != 0) {
				t.Errorf("face %d, %d left; want %d, 0", got.Face, src.Remaining(), tt.face)
			}
			if err != nil && src.Remaining() != 1 {
				t.Error("drew a die for a refused healing")
			}
		})
	}
}
