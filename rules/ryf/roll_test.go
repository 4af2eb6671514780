package ryf_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// The text's example: 1o3d10 showing 4, 8 and 3 keeps 3 (low), 4 (mid) or 8 (high).
func TestKeepLevels(t *testing.T) {
	faces := [3]int{4, 8, 3}
	for _, tt := range []struct {
		level ryf.Level
		want  int
	}{{ryf.Low, 3}, {ryf.Mid, 4}, {ryf.High, 8}} {
		if got := tt.level.Keep(faces); got != tt.want {
			t.Errorf("%v.Keep(%v) = %d, want %d", tt.level, faces, got, tt.want)
		}
	}
	// Every permutation keeps the same dice.
	perms := [][3]int{{4, 8, 3}, {4, 3, 8}, {8, 4, 3}, {8, 3, 4}, {3, 4, 8}, {3, 8, 4}}
	for _, p := range perms {
		if lo, mid, hi := ryf.Low.Keep(p), ryf.Mid.Keep(p), ryf.High.Keep(p); lo != 3 || mid != 4 || hi != 8 {
			t.Errorf("Keep(%v) = %d/%d/%d, want 3/4/8", p, lo, mid, hi)
		}
	}
}

func TestComputeLevel(t *testing.T) {
	tests := []struct {
		name    string
		in      ryf.LevelInput
		want    ryf.Level
		reasons []string
	}{
		{"base mid", ryf.LevelInput{}, ryf.Mid, []string{ryf.ReasonBase}},
		{"specialization", ryf.LevelInput{Specialization: true}, ryf.High, []string{ryf.ReasonSpecialization}},
		{"rank 0", ryf.LevelInput{RankZero: true}, ryf.Low, []string{ryf.ReasonRankZero}},
		{"specialization beats rank 0", ryf.LevelInput{Specialization: true, RankZero: true}, ryf.High, []string{ryf.ReasonSpecialization}},
		{"token spent", ryf.LevelInput{TokenSpent: true}, ryf.High, []string{ryf.ReasonBase, ryf.ReasonTokenSpent}},
		{"token returned", ryf.LevelInput{TokenReturned: true}, ryf.Low, []string{ryf.ReasonBase, ryf.ReasonTokenReturned}},
		{"incapacitated", ryf.LevelInput{Incapacitated: true}, ryf.Low, []string{ryf.ReasonBase, ryf.ReasonIncapacitated}},
		{"incapacitated with token", ryf.LevelInput{Incapacitated: true, TokenSpent: true}, ryf.Mid,
			[]string{ryf.ReasonBase, ryf.ReasonTokenSpent, ryf.ReasonIncapacitated}},
		{"spent and returned cancel", ryf.LevelInput{TokenSpent: true, TokenReturned: true}, ryf.Mid,
			[]string{ryf.ReasonBase, ryf.ReasonTokenSpent, ryf.ReasonTokenReturned}},
		{"clamped high", ryf.LevelInput{Specialization: true, TokenSpent: true}, ryf.High,
			[]string{ryf.ReasonSpecialization, ryf.ReasonTokenSpent, ryf.ReasonClampedHigh}},
		{"clamped low", ryf.LevelInput{RankZero: true, TokenReturned: true, Incapacitated: true}, ryf.Low,
			[]string{ryf.ReasonRankZero, ryf.ReasonTokenReturned, ryf.ReasonIncapacitated, ryf.ReasonClampedLow}},
		{"clamp counts all shifts", ryf.LevelInput{RankZero: true, TokenReturned: true, Incapacitated: true, TokenSpent: true}, ryf.Low,
			[]string{ryf.ReasonRankZero, ryf.ReasonTokenSpent, ryf.ReasonTokenReturned, ryf.ReasonIncapacitated, ryf.ReasonClampedLow}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reasons := ryf.ComputeLevel(tt.in)
			if got != tt.want {
				t.Errorf("level = %v, want %v", got, tt.want)
			}
			if !slices.Equal(reasons, tt.reasons) {
				t.Errorf("reasons = %q, want %q", reasons, tt.reasons)
			}
		})
	}
}

// rollCase is one roll with exact faces and what it must give.
type rollCase struct {
	name     string
	check    ryf.Check
	faces    []int
	level    ryf.Level
	kept     []int
	diePart  int
	total    int
	outcome  ryf.Outcome
	natural1 bool
	fumble   bool
}

func runRollCases(t *testing.T, tests []rollCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := dice.NewFaces(tt.faces...)
			res, err := ryf.Roll(tt.check, src)
			if err != nil {
				t.Fatalf("Roll: %v", err)
			}
			if src.Remaining() != 0 {
				t.Errorf("%d faces left unused", src.Remaining())
			}
			if res.Level != tt.level {
				t.Errorf("level = %v, want %v", res.Level, tt.level)
			}
			if got := res.Kept(); !intsEqual(got, tt.kept) {
				t.Errorf("kept = %v, want %v", got, tt.kept)
			}
			if got := res.Faces(); !intsEqual(got, tt.faces) {
				t.Errorf("faces = %v, want %v", got, tt.faces)
			}
			if res.DiePart != tt.diePart {
				t.Errorf("die part = %d, want %d", res.DiePart, tt.diePart)
			}
			if res.Total != tt.total {
				t.Errorf("total = %d, want %d", res.Total, tt.total)
			}
			if res.Outcome != tt.outcome {
				t.Errorf("outcome = %q, want %q", res.Outcome, tt.outcome)
			}
			if res.Natural1 != tt.natural1 || res.Fumble != tt.fumble {
				t.Errorf("natural1, fumble = %v, %v; want %v, %v", res.Natural1, res.Fumble, tt.natural1, tt.fumble)
			}
			if res.Exploded != (len(tt.kept) > 1) {
				t.Errorf("exploded = %v with %d rounds", res.Exploded, len(tt.kept))
			}
			wantSuccess := tt.outcome == ryf.OutcomeSuccess || tt.outcome == ryf.OutcomeCritical
			if res.Success != wantSuccess || res.Critical != (tt.outcome == ryf.OutcomeCritical) {
				t.Errorf("success, critical = %v, %v for outcome %q", res.Success, res.Critical, tt.outcome)
			}
		})
	}
}

func TestRollTextExamples(t *testing.T) {
	fuerza8 := ryf.Check{Kind: ryf.KindAttribute, Attribute: ryf.Fuerza, AttributeValue: 8}.WithDifficulty(ryf.Insolito)
	runRollCases(t, []rollCase{
		{
			// "sacamos un 10 (3,10,10), tiramos de nuevo y sacamos un 4 (3,4,7). El resultado final sería 14."
			name:  "explosion 3,10,10 then 3,4,7 is 14",
			check: skillCheck(8, 4).WithDifficulty(ryf.Dificil),
			faces: []int{3, 10, 10, 3, 4, 7}, level: ryf.Mid, kept: []int{10, 4}, diePart: 14, total: 26,
			outcome: ryf.OutcomeSuccess,
		},
		{
			// Fuerza 8 (16) breaks the handcuffs (difficulty 25) with 9 or more on the kept die.
			name: "Fuerza 8 vs 25 with kept 9", check: fuerza8,
			faces: []int{2, 9, 9}, level: ryf.Mid, kept: []int{9}, diePart: 9, total: 25, outcome: ryf.OutcomeSuccess,
		},
		{
			name: "Fuerza 8 vs 25 with kept 8", check: fuerza8,
			faces: []int{8, 9, 3}, level: ryf.Mid, kept: []int{8}, diePart: 8, total: 24, outcome: ryf.OutcomeFailure,
		},
		{
			name: "attribute rolls do not explode", check: fuerza8,
			faces: []int{10, 10, 1}, level: ryf.Mid, kept: []int{10}, diePart: 10, total: 26, outcome: ryf.OutcomeSuccess,
		},
		{
			// Ruiseñor hands over the token and rolls (3,4,8): the kept die is 8.
			name:  "Ruiseñor token spent",
			check: func() ryf.Check { c := skillCheck(8, 3); c.TokenSpent = true; return c }(),
			faces: []int{3, 4, 8}, level: ryf.High, kept: []int{8}, diePart: 8, total: 19, outcome: ryf.OutcomeRolled,
		},
		{
			// The GM returns the token before the roll: (4,10,10) keeps a miserable 4.
			name:  "Ruiseñor token returned",
			check: func() ryf.Check { c := skillCheck(8, 3); c.TokenReturned = true; return c }(),
			faces: []int{4, 10, 10}, level: ryf.Low, kept: []int{4}, diePart: 4, total: 15, outcome: ryf.OutcomeRolled,
		},
		{
			// A wounded player with 7 HP rolls 3,5,6: the result is 3, the lowest.
			name: "wounded HP 7",
			check: func() ryf.Check {
				c := skillCheck(7, 3)
				c.Incapacitated = ryf.StatusOf(7) == ryf.StatusIncapacitated
				return c
			}(),
			faces: []int{3, 5, 6}, level: ryf.Low, kept: []int{3}, diePart: 3, total: 13, outcome: ryf.OutcomeRolled,
		},
		{
			// With the token (one level up) it would be 5.
			name: "wounded HP 7 with token",
			check: func() ryf.Check {
				c := skillCheck(7, 3)
				c.Incapacitated, c.TokenSpent = ryf.StatusOf(7) == ryf.StatusIncapacitated, true
				return c
			}(),
			faces: []int{3, 5, 6}, level: ryf.Mid, kept: []int{5}, diePart: 5, total: 15, outcome: ryf.OutcomeRolled,
		},
		{
			// Fuerza + Combate = 19 vs Defense 24: (7,10,10) explodes, then (6,6,8): 35, a critical.
			name: "critical 35",
			check: ryf.Check{Kind: ryf.KindMelee, Attribute: ryf.Fuerza, AttributeValue: 10,
				Skill: "Armas cuerpo a cuerpo", Rank: 9, Weapon: "Espada"}.WithDifficulty(24),
			faces: []int{7, 10, 10, 6, 6, 8}, level: ryf.Mid, kept: []int{10, 6}, diePart: 16, total: 35,
			outcome: ryf.OutcomeCritical,
		},
		{
			// No points in the skill: the lowest of (4,8,3).
			name: "rank 0 keeps the lowest", check: skillCheck(8, 0).WithDifficulty(ryf.Media),
			faces: []int{4, 8, 3}, level: ryf.Low, kept: []int{3}, diePart: 3, total: 11, outcome: ryf.OutcomeFailure,
		},
		{
			name:  "specialization keeps the highest",
			check: func() ryf.Check { c := skillCheck(8, 0); c.Specialization = true; return c.WithDifficulty(ryf.Media) }(),
			faces: []int{4, 8, 3}, level: ryf.High, kept: []int{8}, diePart: 8, total: 16, outcome: ryf.OutcomeSuccess,
		},
	})
}

func TestRollSpecialResults(t *testing.T) {
	attr := ryf.Check{Kind: ryf.KindAttribute, Attribute: ryf.Fuerza, AttributeValue: 10}
	runRollCases(t, []rollCase{
		{
			name: "fumble fails whatever the total", check: skillCheck(10, 10).WithDifficulty(ryf.Facil),
			faces: []int{1, 1, 1}, level: ryf.Mid, kept: []int{1}, diePart: 1, total: 21,
			outcome: ryf.OutcomeFumble, natural1: true, fumble: true,
		},
		{
			name: "fumble in an attribute roll", check: attr.WithDifficulty(ryf.Facil),
			faces: []int{1, 1, 1}, level: ryf.Mid, kept: []int{1}, diePart: 1, total: 21,
			outcome: ryf.OutcomeFumble, fumble: true,
		},
		{
			name: "fumble without difficulty", check: skillCheck(5, 5),
			faces: []int{1, 1, 1}, level: ryf.Mid, kept: []int{1}, diePart: 1, total: 11,
			outcome: ryf.OutcomeFumble, natural1: true, fumble: true,
		},
		{
			name: "natural 1 fails whatever the total", check: skillCheck(10, 10).WithDifficulty(ryf.Facil),
			faces: []int{1, 1, 9}, level: ryf.Mid, kept: []int{1}, diePart: 1, total: 21,
			outcome: ryf.OutcomeNatural1, natural1: true,
		},
		{
			name: "natural 1 at low level", check: skillCheck(10, 0).WithDifficulty(ryf.Facil),
			faces: []int{1, 7, 9}, level: ryf.Low, kept: []int{1}, diePart: 1, total: 11,
			outcome: ryf.OutcomeNatural1, natural1: true,
		},
		{
			name: "a 1 not kept is no natural 1", check: skillCheck(5, 5).WithDifficulty(ryf.Media),
			faces: []int{1, 7, 9}, level: ryf.Mid, kept: []int{7}, diePart: 7, total: 17, outcome: ryf.OutcomeSuccess,
		},
		{
			name: "no natural 1 in attribute rolls", check: attr.WithDifficulty(ryf.Dificil),
			faces: []int{1, 1, 9}, level: ryf.Mid, kept: []int{1}, diePart: 1, total: 21, outcome: ryf.OutcomeSuccess,
		},
		{
			name:  "an opposed attribute roll has a natural 1",
			check: func() ryf.Check { c := attr; c.Opposed = true; return c }(),
			faces: []int{1, 1, 9}, level: ryf.Mid, kept: []int{1}, diePart: 1, total: 21,
			outcome: ryf.OutcomeNatural1, natural1: true,
		},
		{
			name:  "an opposed attribute roll explodes",
			check: func() ryf.Check { c := attr; c.Opposed = true; return c }(),
			faces: []int{10, 10, 2, 3, 4, 5}, level: ryf.Mid, kept: []int{10, 4}, diePart: 14, total: 34,
			outcome: ryf.OutcomeRolled,
		},
		{
			name: "an attribute roll does not explode", check: attr,
			faces: []int{10, 10, 2}, level: ryf.Mid, kept: []int{10}, diePart: 10, total: 30,
			outcome: ryf.OutcomeRolled,
		},
		{
			name: "a kept 1 after an explosion is no natural 1", check: skillCheck(5, 5).WithDifficulty(ryf.Dificil),
			faces: []int{10, 10, 2, 1, 1, 1}, level: ryf.Mid, kept: []int{10, 1}, diePart: 11, total: 21,
			outcome: ryf.OutcomeSuccess,
		},
		{
			name: "explosion chain", check: skillCheck(5, 5).WithDifficulty(ryf.Imposible),
			faces: []int{10, 10, 10, 2, 10, 10, 9, 10, 10, 3, 4, 5}, level: ryf.Mid, kept: []int{10, 10, 10, 4},
			diePart: 34, total: 44, outcome: ryf.OutcomeCritical,
		},
		{
			name:  "high level explodes on one 10",
			check: func() ryf.Check { c := skillCheck(5, 5); c.TokenSpent = true; return c.WithDifficulty(ryf.Imposible) }(),
			faces: []int{2, 3, 10, 1, 2, 3}, level: ryf.High, kept: []int{10, 3}, diePart: 13, total: 23,
			outcome: ryf.OutcomeFailure,
		},
		{
			name: "low level explodes only on three 10s", check: skillCheck(5, 0).WithDifficulty(ryf.Media),
			faces: []int{10, 10, 9}, level: ryf.Low, kept: []int{9}, diePart: 9, total: 14, outcome: ryf.OutcomeFailure,
		},
		{
			name: "success at exactly the difficulty", check: skillCheck(5, 5).WithDifficulty(ryf.Dificil),
			faces: []int{2, 10, 10, 5, 5, 5}, level: ryf.Mid, kept: []int{10, 5}, diePart: 15, total: 25,
			outcome: ryf.OutcomeSuccess,
		},
		{
			name: "total 30 is critical", check: skillCheck(10, 10).WithDifficulty(ryf.Imposible),
			faces: []int{10, 10, 1, 1, 1, 1}, level: ryf.Mid, kept: []int{10, 1}, diePart: 11, total: 31,
			outcome: ryf.OutcomeCritical,
		},
		{
			name: "30 or more but failed is no critical", check: skillCheck(10, 10).WithDifficulty(40),
			faces: []int{10, 10, 1, 5, 5, 5}, level: ryf.Mid, kept: []int{10, 5}, diePart: 15, total: 35,
			outcome: ryf.OutcomeFailure,
		},
		{
			name: "initiative has no difficulty",
			check: ryf.Check{Kind: ryf.KindInitiative, Attribute: ryf.Destreza, AttributeValue: 9,
				Attribute2: ryf.Percepcion, Attribute2Value: 8},
			faces: []int{10, 10, 3, 6, 2, 7}, level: ryf.Mid, kept: []int{10, 6}, diePart: 16, total: 33,
			outcome: ryf.OutcomeRolled,
		},
		{
			name:  "modifier adds",
			check: func() ryf.Check { c := skillCheck(5, 5); c.Modifier = -3; return c.WithDifficulty(ryf.Media) }(),
			faces: []int{4, 5, 6}, level: ryf.Mid, kept: []int{5}, diePart: 5, total: 12, outcome: ryf.OutcomeFailure,
		},
	})
}

func TestRollErrors(t *testing.T) {
	tests := []struct {
		name  string
		check ryf.Check
		faces []int
		want  error
	}{
		{"unknown kind", ryf.Check{Kind: "dance", Attribute: ryf.Fuerza, AttributeValue: 5}, []int{1, 2, 3}, ryf.ErrInvalidCheck},
		{"attribute out of range", skillCheck(11, 3), []int{1, 2, 3}, ryf.ErrOutOfRange},
		{"rank out of range", skillCheck(5, 11), []int{1, 2, 3}, ryf.ErrOutOfRange},
		{"no skill in a skill roll", ryf.Check{Kind: ryf.KindSkill, Attribute: ryf.Fuerza, AttributeValue: 5}, nil, ryf.ErrInvalidCheck},
		{"specialization in an attribute roll",
			ryf.Check{Kind: ryf.KindAttribute, Attribute: ryf.Fuerza, AttributeValue: 5, Specialization: true}, nil, ryf.ErrInvalidCheck},
		{"initiative without Percepción",
			ryf.Check{Kind: ryf.KindInitiative, Attribute: ryf.Destreza, AttributeValue: 5}, nil, ryf.ErrInvalidCheck},
		{"difficulty out of range", skillCheck(5, 5).WithDifficulty(-1), nil, ryf.ErrOutOfRange},
		{"modifier out of range", func() ryf.Check { c := skillCheck(5, 5); c.Modifier = 1000; return c }(), nil, ryf.ErrOutOfRange},
		{"weapon in a skill roll", func() ryf.Check { c := skillCheck(5, 5); c.Weapon = "Espada"; return c }(), nil, ryf.ErrInvalidCheck},
		{"an initiative roll is no side of an opposed roll",
			ryf.Check{Kind: ryf.KindInitiative, Attribute: ryf.Destreza, AttributeValue: 5, Attribute2: ryf.Percepcion, Attribute2Value: 5, Opposed: true},
			nil, ryf.ErrInvalidCheck},
		{"faces run out", skillCheck(5, 5), []int{3, 10}, dice.ErrExhausted},
		{"faces run out in an explosion", skillCheck(5, 5), []int{3, 10, 10}, dice.ErrExhausted},
		{"face does not fit a d10", skillCheck(5, 5), []int{3, 11, 2}, dice.ErrInvalidFace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ryf.Roll(tt.check, dice.NewFaces(tt.faces...))
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := ryf.Roll(skillCheck(5, 5), nil); !errors.Is(err, ryf.ErrInvalidCheck) {
		t.Errorf("nil roller: err = %v, want ErrInvalidCheck", err)
	}
}

// tens is a broken roller that always shows the maximum.
type tens struct{}

func (tens) Roll(sides int) (int, error) { return sides, nil }

// badRoller returns faces that break the Roller contract.
type badRoller int

func (b badRoller) Roll(int) (int, error) { return int(b), nil }

func TestRollRunaway(t *testing.T) {
	if _, err := ryf.Roll(skillCheck(5, 5), tens{}); !errors.Is(err, ryf.ErrRunaway) {
		t.Errorf("err = %v, want ErrRunaway", err)
	}
	for _, f := range []int{0, -1, 11} {
		if _, err := ryf.Roll(skillCheck(5, 5), badRoller(f)); !errors.Is(err, dice.ErrInvalidFace) {
			t.Errorf("face %d: err = %v, want ErrInvalidFace", f, err)
		}
	}
}

func TestContest(t *testing.T) {
	roll := func(t *testing.T, c ryf.Check, faces ...int) ryf.Result {
		t.Helper()
		res, err := ryf.Roll(c, dice.NewFaces(faces...))
		require.NoError(t, err)
		return res
	}
	attr := ryf.Check{Kind: ryf.KindAttribute, Attribute: ryf.Inteligencia, AttributeValue: 5}
	tests := []struct {
		name     string
		a, b     ryf.Result
		winner   int
		reason   string
		critical bool
	}{
		{"higher total wins", roll(t, skillCheck(5, 5), 4, 5, 6), roll(t, skillCheck(5, 5), 3, 4, 5), 1, ryf.ContestHigher, false},
		{"second wins", roll(t, skillCheck(5, 3), 4, 5, 6), roll(t, skillCheck(5, 5), 3, 4, 5), 2, ryf.ContestHigher, false},
		{"equal totals tie", roll(t, skillCheck(5, 5), 4, 5, 6), roll(t, skillCheck(6, 4), 4, 5, 6), 0, ryf.ContestEqual, false},
		{"natural 1 loses to a lower total", roll(t, skillCheck(10, 10), 1, 1, 5), roll(t, skillCheck(2, 1), 2, 2, 2), 2, ryf.ContestOneFailed, false},
		{"fumble loses", roll(t, skillCheck(2, 1), 2, 2, 2), roll(t, skillCheck(10, 10), 1, 1, 1), 1, ryf.ContestOneFailed, false},
		{"both natural 1 tie", roll(t, skillCheck(10, 10), 1, 1, 5), roll(t, skillCheck(2, 1), 1, 1, 1), 0, ryf.ContestBothFailed, false},
		{"attribute side has no natural 1", roll(t, attr, 1, 1, 9), roll(t, skillCheck(2, 1), 2, 2, 2), 1, ryf.ContestHigher, false},
		{"critical winner", roll(t, skillCheck(10, 10), 10, 10, 2, 5, 5, 5), roll(t, skillCheck(5, 5), 4, 5, 6), 1, ryf.ContestHigher, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ryf.Contest(tt.a, tt.b)
			if got.Winner != tt.winner || got.Reason != tt.reason || got.Critical != tt.critical {
				t.Errorf("Contest = %+v, want winner %d, reason %q, critical %v", got, tt.winner, tt.reason, tt.critical)
			}
		})
	}
}

func TestResultJSON(t *testing.T) {
	res, err := ryf.Roll(skillCheck(8, 4).WithDifficulty(20), dice.NewFaces(3, 10, 10, 3, 4, 7))
	require.NoError(t, err)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	for key, want := range map[string]any{
		"level": "mid", "total": 26.0, "die_part": 14.0, "base": 12.0, "outcome": "success", "exploded": true,
	} {
		if m[key] != want {
			t.Errorf("json %s = %v, want %v", key, m[key], want)
		}
	}
	var back ryf.Result
	require.NoError(t, json.Unmarshal(b, &back))
	if back.Total != res.Total || back.Level != res.Level || !intsEqual(back.Faces(), res.Faces()) ||
		back.Check.Difficulty == nil || *back.Check.Difficulty != 20 {
		t.Errorf("round trip = %+v, want %+v", back, res)
	}
}

func TestParseDifficulty(t *testing.T) {
	tests := []struct {
		in   string
		want int
		err  error
	}{
		{"fácil", 10, nil}, {"facil", 10, nil}, {"FÁCIL", 10, nil},
		{"media", 15, nil}, {"Media", 15, nil}, {"m", 15, nil},
		{"difícil", 20, nil}, {"dificil", 20, nil}, {"DIFICIL", 20, nil}, {"dif", 20, nil},
		{"insólito", 25, nil}, {"insolito", 25, nil}, {"ins", 25, nil},
		{"imposible", 30, nil}, {"imp", 30, nil},
		{"15", 15, nil}, {" 22 ", 22, nil}, {"0", 0, nil}, {"+7", 7, nil}, {"100", 100, nil},
		{"i", 0, ryf.ErrAmbiguous},
		{"", 0, ryf.ErrUnknownDifficulty},
		{"hard", 0, ryf.ErrUnknownDifficulty},
		{"-5", 0, ryf.ErrOutOfRange},
		{"101", 0, ryf.ErrOutOfRange},
		{"15x", 0, ryf.ErrSyntax},
		{"99999999999999999999999", 0, ryf.ErrSyntax},
	}
	for _, tt := range tests {
		got, err := ryf.ParseDifficulty(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ParseDifficulty(%q) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	for n, want := range map[int]string{10: "fácil", 15: "media", 20: "difícil", 25: "insólito", 30: "imposible", 17: ""} {
		if got := ryf.DifficultyName(n); got != want {
			t.Errorf("DifficultyName(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestLevelText(t *testing.T) {
	for _, l := range []ryf.Level{ryf.Low, ryf.Mid, ryf.High} {
		b, err := l.MarshalText()
		require.NoError(t, err)
		var back ryf.Level
		if err := back.UnmarshalText(b); err != nil || back != l {
			t.Errorf("round trip %v = %v, %v", l, back, err)
		}
	}
	var l ryf.Level
	if err := l.UnmarshalText([]byte("highest")); !errors.Is(err, ryf.ErrSyntax) {
		t.Errorf("UnmarshalText(highest) err = %v, want ErrSyntax", err)
	}
	if _, err := ryf.Level(7).MarshalText(); !errors.Is(err, ryf.ErrOutOfRange) {
		t.Errorf("MarshalText(7) err = %v, want ErrOutOfRange", err)
	}
}

func TestCheckTerms(t *testing.T) {
	c := ryf.Check{Kind: ryf.KindMelee, Attribute: ryf.Fuerza, AttributeValue: 5, Skill: "Armas cuerpo a cuerpo", Rank: 6,
		Weapon: "Hacha", Precision: -1, Modifier: 2}
	want := []ryf.Term{{"Fuerza", 5}, {"Armas cuerpo a cuerpo", 6}, {"precisión Hacha", -1}, {"modificador", 2}}
	if got := c.Terms(); !slices.Equal(got, want) {
		t.Errorf("Terms = %v, want %v", got, want)
	}
	if got := c.Base(); got != 12 {
		t.Errorf("Base = %d, want 12", got)
	}
	a := ryf.Check{Kind: ryf.KindAttribute, Attribute: ryf.Fuerza, AttributeValue: 8}
	if got, want := a.Terms(), []ryf.Term{{"2 × Fuerza", 16}}; !slices.Equal(got, want) {
		t.Errorf("Terms = %v, want %v", got, want)
	}
}
