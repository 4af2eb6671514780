package rolls_test

import (
	"errors"
	"testing"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

func seed() dice.Seed {
	var s dice.Seed
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// Every kind of roll event built from a rule result is rejudged to itself.
func TestRejudgeAgreesWithRecording(t *testing.T) {
	key := dice.NewKey(seed())
	rules, err := ryf.New(ryf.Options{System: ryf.RyF})
	if err != nil {
		t.Fatal(err)
	}
	ch := ryf.Character{Attributes: map[ryf.Attr]int{"F": 8, "R": 7, "D": 9, "I": 8, "P": 8}, Skills: map[string]int{"Sigilo": 3}}
	var made []events.RollMade
	for n := range uint64(300) {
		s := key.Stream("c", "s", n, "")
		switch n % 5 {
		case 0:
			check, _ := rules.SkillCheck(ch, "Sigilo", "")
			check = check.WithDifficulty(15)
			check.TokenSpent = n%2 == 0
			res, err := ryf.Roll(check, s)
			if err != nil {
				t.Fatal(err)
			}
			made = append(made, rolls.FromRyF("ryf", res))
		case 1:
			check, _ := rules.AttributeCheck(ch, "F")
			res, err := ryf.Roll(check.WithDifficulty(25), s)
			if err != nil {
				t.Fatal(err)
			}
			made = append(made, rolls.FromRyF("ryf", res))
		case 2:
			d, _ := ryf.ParseDamage("2d6")
			dr, err := ryf.RollDamage(d, n%3 == 0, s)
			if err != nil {
				t.Fatal(err)
			}
			made = append(made, rolls.FromDamage("ryf", dr))
		case 3:
			h, err := ryf.AfterCombatHealing(10, 28, 5, s)
			if err != nil {
				t.Fatal(err)
			}
			made = append(made, rolls.FromHeal("ryf", h))
		case 4:
			res, err := tor.Roll(s, int(n%7), 14)
			if err != nil {
				t.Fatal(err)
			}
			made = append(made, rolls.FromTOR(res))
		}
	}
	for i, e := range made {
		want, err := rolls.Rejudge(e)
		if err != nil {
			t.Fatalf("roll %d (%s): %v", i, e.Kind, err)
		}
		if diff := rolls.Diff(e, want); len(diff) > 0 {
			t.Fatalf("roll %d (%s) differs from its rejudging: %v", i, e.Kind, diff)
		}
	}
}

func TestRejudgeCatchesTampering(t *testing.T) {
	res, err := tor.Roll(dice.NewFaces(7, 3, 6, 2), 3, 14)
	if err != nil {
		t.Fatal(err)
	}
	honest := rolls.FromTOR(res)
	tests := []struct {
		name   string
		tamper func(e *events.RollMade)
	}{
		{"dropped success die", func(e *events.RollMade) { e.Faces = e.Faces[:3]; e.Total = 16 }},
		{"total", func(e *events.RollMade) { e.Total = 20 }},
		{"quality", func(e *events.RollMade) { e.Quality = "extraordinary" }},
		{"outcome", func(e *events.RollMade) { e.Outcome = "failure" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := honest
			e.Faces = append([]int(nil), honest.Faces...)
			tt.tamper(&e)
			want, err := rolls.Rejudge(e)
			if err == nil && len(rolls.Diff(e, want)) == 0 {
				t.Fatalf("tampered roll %+v passes", e)
			}
			if err != nil && !errors.Is(err, rolls.ErrMismatch) {
				t.Fatalf("err = %v, want ErrMismatch", err)
			}
		})
	}
	// The heal die is one d6.
	heal := rolls.FromHeal("ryf", ryf.AfterCombat{Face: 4})
	if _, err := rolls.Rejudge(heal); err != nil {
		t.Fatalf("honest heal roll refused: %v", err)
	}
	heal.Faces = []int{4, 2}
	if _, err := rolls.Rejudge(heal); !errors.Is(err, rolls.ErrMismatch) {
		t.Fatalf("two-face heal roll: err = %v", err)
	}
}
