package tor_test

import (
	"errors"
	"testing"

	"github.com/campaign-journal/journal/rules/tor"
)

func TestNextAdvancement(t *testing.T) {
	var (
		failure       = []int{1, 2, 2, 2}
		success       = []int{10, 2, 2, 2}
		great         = []int{10, 6, 2, 2}
		extraordinary = []int{10, 6, 6, 2}
	)
	tests := []struct {
		name  string
		faces []int
		trait bool
		count int
		want  bool
	}{
		{"1st: failure", failure, true, 0, false},
		{"1st: success", success, false, 0, true},
		{"1st: great", great, false, 0, true},
		{"2nd: success", success, false, 1, false},
		{"2nd: success with trait", success, true, 1, true},
		{"2nd: great", great, false, 1, true},
		{"2nd: extraordinary", extraordinary, false, 1, true},
		{"2nd: failure with trait", failure, true, 1, false},
		{"3rd: great without trait", great, false, 2, false},
		{"3rd: success with trait", success, true, 2, false},
		{"3rd: great with trait", great, true, 2, true},
		{"3rd: extraordinary with trait", extraordinary, true, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tor.NextAdvancement(roll(t, 14, tt.faces...), tt.trait, tt.count)
			if err != nil {
				t.Fatalf("NextAdvancement() error = %v", err)
			}
			if got.Qualifies != tt.want || got.Box != tt.count+1 || got.Reason == "" {
				t.Errorf("NextAdvancement() = %+v, want qualifies %v for box %d", got, tt.want, tt.count+1)
			}
		})
	}
}

func TestNextAdvancementAfterHope(t *testing.T) {
	c := lodin()
	spend, err := tor.SpendHope(c, skill(t, "Atletismo"), roll(t, 14, 5, 3, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tor.NextAdvancement(spend.Result, false, 0)
	if err != nil || !got.Qualifies {
		t.Errorf("a success after Hope: %+v, %v; want the 1st box", got, err)
	}
}

func TestNextAdvancementErrors(t *testing.T) {
	tests := []struct {
		count   int
		wantErr error
	}{
		{3, tor.ErrGroupFull},
		{4, tor.ErrOutOfRange},
		{-1, tor.ErrOutOfRange},
	}
	for _, tt := range tests {
		if _, err := tor.NextAdvancement(roll(t, 14, 10, 6, 6, 6), true, tt.count); !errors.Is(err, tt.wantErr) {
			t.Errorf("NextAdvancement(count %d) error = %v, want %v", tt.count, err, tt.wantErr)
		}
	}
}

func TestGrantAdvancement(t *testing.T) {
	c := lodin()
	for want := 1; want <= 3; want++ {
		next, err := tor.GrantAdvancement(c, tor.Oficio)
		if err != nil {
			t.Fatalf("grant %d: error = %v", want, err)
		}
		if got := next.Advancement[tor.Oficio]; got != want {
			t.Fatalf("grant %d: Oficio holds %d", want, got)
		}
		if c.Advancement[tor.Oficio] != want-1 {
			t.Fatalf("grant %d changed the original", want)
		}
		c = next
	}
	if _, err := tor.GrantAdvancement(c, tor.Oficio); !errors.Is(err, tor.ErrGroupFull) {
		t.Errorf("4th point error = %v, want ErrGroupFull", err)
	}
	if _, err := tor.GrantAdvancement(c, tor.Movimiento); err != nil {
		t.Errorf("another group error = %v, want nil", err)
	}
	if _, err := tor.GrantAdvancement(c, "Magia"); !errors.Is(err, tor.ErrUnknownGroup) {
		t.Errorf("unknown group error = %v, want ErrUnknownGroup", err)
	}
}

func TestFellowshipPhase(t *testing.T) {
	c := lodin()
	c.Advancement = map[tor.Group]int{tor.Oficio: 3, tor.Movimiento: 1}
	c.AdvancementTotal = 2
	c.Shadow, c.PermanentShadow, c.Hope = 3, 1, 5
	got := c.FellowshipPhase()
	if got.AdvancementTotal != 6 || got.AdventurePoints() != 0 || len(got.Advancement) != 0 {
		t.Errorf("advancement total %d, adventure %d (%v); want 6, 0", got.AdvancementTotal, got.AdventurePoints(), got.Advancement)
	}
	if got.Shadow != 0 || got.PermanentShadow != 1 || got.Hope != 5 {
		t.Errorf("shadow %d permanent %d hope %d; want 0 1 5", got.Shadow, got.PermanentShadow, got.Hope)
	}
	if c.Shadow != 3 || c.Advancement[tor.Oficio] != 3 {
		t.Errorf("the original changed: %+v", c)
	}
	if _, err := tor.GrantAdvancement(got, tor.Oficio); err != nil {
		t.Errorf("a new adventure's 1st point: %v", err)
	}
}

func TestCompanyFellowshipPhase(t *testing.T) {
	bilba := tor.Character{Culture: "hobbit", Shadow: 2, Advancement: map[tor.Group]int{tor.Costumbre: 2}}
	company := []tor.Character{lodin(), bilba}
	company[0].Shadow = 1
	got, pool := tor.FellowshipPhase(company)
	if pool != 3 {
		t.Errorf("pool = %d, want 3 (two characters, one hobbit)", pool)
	}
	if len(got) != 2 || got[0].Shadow != 0 || got[1].Shadow != 0 || got[1].AdvancementTotal != 2 {
		t.Errorf("company after the phase = %+v", got)
	}
	if company[1].Shadow != 2 || company[1].Advancement[tor.Costumbre] != 2 {
		t.Errorf("the input company changed: %+v", company[1])
	}
}
