package tor_test

import (
	"errors"
	"testing"

	"github.com/campaign-journal/journal/rules/tor"
)

func TestMadnessTriggered(t *testing.T) {
	tests := []struct {
		name                    string
		hope, shadow, permanent int
		feat                    int
		want                    bool
	}{
		{"eye, hope below shadow", 2, 3, 0, 11, true},
		{"eye, hope below shadow with permanent", 2, 1, 2, 11, true},
		{"eye, only permanent shadow", 0, 0, 1, 11, true},
		{"eye, hope equal to shadow", 3, 2, 1, 11, false},
		{"eye, hope above shadow", 5, 2, 1, 11, false},
		{"no eye", 0, 5, 5, 10, false},
		{"rune", 0, 5, 5, 12, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := lodin()
			c.Hope, c.Shadow, c.PermanentShadow = tt.hope, tt.shadow, tt.permanent
			res := roll(t, 14, tt.feat, 6, 6, 6)
			if got := tor.MadnessTriggered(c, res); got != tt.want {
				t.Errorf("MadnessTriggered() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMadnessBout(t *testing.T) {
	c := lodin()
	c.Hope, c.Shadow, c.PermanentShadow = 1, 2, 0
	eye := roll(t, 14, 11, 6, 6, 6) // a success, and still madness
	mad, err := tor.BeginMadness(c, eye)
	if err != nil {
		t.Fatalf("BeginMadness() error = %v", err)
	}
	if !mad.Mad || c.Mad {
		t.Fatalf("mad = %v (original %v), want true (false)", mad.Mad, c.Mad)
	}
	if _, err := tor.BeginMadness(mad, eye); !errors.Is(err, tor.ErrAlreadyMad) {
		t.Errorf("BeginMadness() during a bout error = %v, want ErrAlreadyMad", err)
	}
	if _, err := tor.EndMadness(mad, "  "); !errors.Is(err, tor.ErrOutOfRange) {
		t.Errorf("EndMadness(blank) error = %v, want ErrOutOfRange", err)
	}
	after, err := tor.EndMadness(mad, " Rencoroso ")
	if err != nil {
		t.Fatalf("EndMadness() error = %v", err)
	}
	if after.Mad || after.PermanentShadow != 1 || after.Shadow != 2 || len(after.Flaws) != 1 || after.Flaws[0] != "Rencoroso" {
		t.Errorf("after the bout: mad %v permanent %d shadow %d flaws %q; want false 1 2 [Rencoroso]",
			after.Mad, after.PermanentShadow, after.Shadow, after.Flaws)
	}
	if _, err := tor.EndMadness(after, "Otro"); !errors.Is(err, tor.ErrNoMadness) {
		t.Errorf("EndMadness() with no bout error = %v, want ErrNoMadness", err)
	}
	if _, err := tor.BeginMadness(c, roll(t, 14, 10, 1, 1, 1)); !errors.Is(err, tor.ErrNoMadness) {
		t.Errorf("BeginMadness() without the eye error = %v, want ErrNoMadness", err)
	}
}

func TestGainShadow(t *testing.T) {
	tests := []struct {
		shadow, n, want int
		wantErr         error
	}{
		{0, 1, 1, nil},
		{3, 2, 5, nil},
		{tor.ShadowLimit - 1, 1, tor.ShadowLimit, nil},
		{tor.ShadowLimit, 1, 0, tor.ErrOutOfRange},
		{0, 0, 0, tor.ErrOutOfRange},
		{0, -1, 0, tor.ErrOutOfRange},
	}
	for _, tt := range tests {
		c := lodin()
		c.Shadow = tt.shadow
		got, err := tor.GainShadow(c, tt.n)
		if !errors.Is(err, tt.wantErr) || (err == nil && got.Shadow != tt.want) {
			t.Errorf("GainShadow(%d, %d) = %d, %v; want %d, %v", tt.shadow, tt.n, got.Shadow, err, tt.want, tt.wantErr)
		}
	}
}
