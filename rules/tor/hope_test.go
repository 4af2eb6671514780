package tor_test

import (
	"errors"
	"testing"

	"github.com/campaign-journal/journal/rules/tor"
)

func TestSpendHope(t *testing.T) {
	tests := []struct {
		name     string
		favoured bool
		hope     int
		faces    []int
		bonus    int
		total    int
		success  bool
		quality  tor.Quality
		hopeLeft int
		last     bool
	}{
		// The seed: Lodin fails Atletismo with 12; Cuerpo 4 makes it 16.
		{"basic cuerpo", false, 8, []int{5, 3, 2, 2}, 4, 16, true, tor.QualitySuccess, 7, false},
		// Atletismo favoured: the favoured Cuerpo 6 makes it 18.
		{"favoured cuerpo", true, 8, []int{5, 3, 2, 2}, 6, 18, true, tor.QualitySuccess, 7, false},
		{"last point", false, 1, []int{5, 3, 2, 2}, 4, 16, true, tor.QualitySuccess, 0, true},
		{"still a failure", false, 3, []int{11, 1, 1, 1}, 4, 7, false, tor.QualityNone, 2, false},
		{"quality from the sixes", false, 3, []int{1, 6, 2, 1}, 4, 14, true, tor.QualityGreat, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := lodin().Clone()
			c.Hope = tt.hope
			c.Skills["Atletismo"] = tor.SkillRating{Rank: 3, Favoured: tt.favoured}
			res := roll(t, 14, tt.faces...)
			got, err := tor.SpendHope(c, skill(t, "Atletismo"), res)
			if err != nil {
				t.Fatalf("SpendHope() error = %v", err)
			}
			if got.Bonus != tt.bonus || got.Result.Total != tt.total || got.Result.Success != tt.success || got.Result.Quality != tt.quality {
				t.Errorf("bonus %d total %d success %v quality %q; want %d %d %v %q",
					got.Bonus, got.Result.Total, got.Result.Success, got.Result.Quality, tt.bonus, tt.total, tt.success, tt.quality)
			}
			if got.Hope != tt.hopeLeft || got.LastHope != tt.last {
				t.Errorf("hope %d last %v, want %d %v", got.Hope, got.LastHope, tt.hopeLeft, tt.last)
			}
			if got.Skill != "Atletismo" || got.Attribute != tor.Cuerpo || got.Favoured != tt.favoured || got.Result.HopeBonus != tt.bonus {
				t.Errorf("spend = %+v", got)
			}
			if c.Hope != tt.hope || res.HopeBonus != 0 || res.Total != tt.total-tt.bonus {
				t.Errorf("SpendHope changed its arguments: hope %d, result %+v", c.Hope, res)
			}
		})
	}
}

func TestSpendHopeErrors(t *testing.T) {
	failed := func(t *testing.T) tor.Result { return roll(t, 14, 5, 3, 2, 2) }
	tests := []struct {
		name    string
		hope    int
		skill   tor.Skill
		res     func(*testing.T) tor.Result
		wantErr error
	}{
		{"no hope", 0, tor.Skills()[3], failed, tor.ErrNoHope},
		{"negative hope", -2, tor.Skills()[3], failed, tor.ErrNoHope},
		{"roll succeeded", 5, tor.Skills()[3], func(t *testing.T) tor.Result { return roll(t, 14, 7, 3, 6, 2) }, tor.ErrAlreadySucceeded},
		{"rune succeeded", 5, tor.Skills()[3], func(t *testing.T) tor.Result { return roll(t, 14, 12, 1, 1, 1) }, tor.ErrAlreadySucceeded},
		{"unknown skill", 5, tor.Skill{Name: "Volar"}, failed, tor.ErrUnknownSkill},
		{"zero result", 5, tor.Skills()[3], func(*testing.T) tor.Result { return tor.Result{} }, tor.ErrInvalidRoll},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := lodin()
			c.Hope = tt.hope
			if _, err := tor.SpendHope(c, tt.skill, tt.res(t)); !errors.Is(err, tt.wantErr) {
				t.Errorf("SpendHope() error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestSpendHopeTwiceOnOneRoll(t *testing.T) {
	c := lodin()
	first, err := tor.SpendHope(c, skill(t, "Atletismo"), roll(t, 20, 1, 1, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if first.Result.Success {
		t.Fatalf("want a roll that still fails, got %v", first.Result)
	}
	c.Hope = first.Hope
	if _, err := tor.SpendHope(c, skill(t, "Atletismo"), first.Result); !errors.Is(err, tor.ErrHopeSpent) {
		t.Errorf("second SpendHope() error = %v, want ErrHopeSpent", err)
	}
}
