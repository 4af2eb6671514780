package command_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
)

// contestRolls returns the two roll events and the verdict of a contest.
func contestRolls(t *testing.T, res command.Result) (a, b *events.RollMade, v *events.ContestResolved) {
	t.Helper()
	require.Len(t, res.Events, 3)
	return payload[*events.RollMade](t, res.Events[0]), payload[*events.RollMade](t, res.Events[1]),
		payload[*events.ContestResolved](t, res.Events[2])
}

// A contest side names a skill or an attribute: attribute letters are the
// attribute (D is Destreza, not Diagnosis; R Resistencia, not Rastrear).
// Every side is flagged opposed, and the rules agree with what is recorded.
func TestContestSidesReadAttributesFirst(t *testing.T) {
	j := newJournal(t, memstore.New(memstore.Options{}))
	setup(t, j)
	ctx := context.Background()
	for _, tt := range []struct {
		skillA, skillB string
		kindA, kindB   string
		attrA, attrB   string
		skill          string
	}{
		{"D", "D", "attribute", "attribute", "D", "D", ""},
		{"R", "r", "attribute", "attribute", "R", "R", ""},
		{"F", "Fuerza", "attribute", "attribute", "F", "F", ""},
		{"diag", "P", "skill", "attribute", "P", "P", "Diagnosis"},
		{"ras", "I", "skill", "attribute", "P", "I", "Rastrear"},
	} {
		t.Run(tt.skillA+"_"+tt.skillB, func(t *testing.T) {
			res, err := j.Contest(ctx, "mordor", command.ContestRequest{A: "lodin", SkillA: tt.skillA, B: "orco", SkillB: tt.skillB})
			require.NoError(t, err)
			a, b, _ := contestRolls(t, res)
			require.Equal(t, []string{tt.kindA, tt.attrA, tt.skill}, []string{a.Kind, a.Attribute, a.Skill})
			require.Equal(t, []string{tt.kindB, tt.attrB}, []string{b.Kind, b.Attribute})
			require.True(t, a.Opposed && b.Opposed, "both sides are opposed rolls")
			for _, r := range []*events.RollMade{a, b} {
				want, err := rolls.Rejudge(*r)
				require.NoError(t, err)
				require.Empty(t, rolls.Diff(*r, want))
			}
		})
	}
}

// Each side may use the token, its specialization, a modifier and another
// attribute named by the GM (docs/rules.md 1.5).
func TestContestSidesUseWhatAnyRollMay(t *testing.T) {
	j := newJournal(t, memstore.New(memstore.Options{}))
	setup(t, j)
	ctx := context.Background()
	res, err := j.Contest(ctx, "mordor", command.ContestRequest{
		A: "lodin", SkillA: "sigilo", AttrA: "P", TokenA: true, SpecA: true, ModA: -2, EntropyA: "ana",
		B: "ruisenor", SkillB: "D", ModB: 3, TokenB: true, EntropyB: "bea"})
	require.NoError(t, err)
	a, b, _ := contestRolls(t, res)
	require.Equal(t, "P", a.Attribute)
	require.Equal(t, 8+3-2, a.Base, "Percepción 8 + Sigilo 3 - 2")
	require.True(t, a.Token && a.Specialization)
	require.Equal(t, "high", a.Level)
	require.Equal(t, "ana", a.Entropy)
	require.Equal(t, 2*10+3, b.Base, "2 × Destreza 10 + 3")
	require.True(t, b.Token)
	require.Equal(t, "high", b.Level)
	c, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.True(t, c.Characters["lodin"].SpecUsedToday)
	require.NotEqual(t, c.Characters["lodin"].Token, c.Characters["orco"].Token, "lodin's token went to the GM")
}

// findTie makes contests of equal bases until one is a tie.
func findTie(t *testing.T, j *command.Handler) (string, command.Result) {
	t.Helper()
	for i := range 300 {
		// lodin 2 × F 8 = 16, orco 2 × F 7 + 2 = 16.
		res, err := j.Contest(context.Background(), "mordor", command.ContestRequest{
			A: "lodin", SkillA: "F", B: "orco", SkillB: "F", ModB: 2, EntropyA: fmt.Sprint(i)})
		require.NoError(t, err)
		if _, _, v := contestRolls(t, res); v.Tie {
			return res.Events[2].Event.ID, res
		}
	}
	t.Fatal("no tie in 300 contests")
	return "", command.Result{}
}

// Only a tied contest may be re-rolled, by the same characters with the
// same skills or attributes, and only once; every refusal records nothing.
func TestRematchOnlyATieWithTheSameRolls(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()
	tie, tieRes := findTie(t, j)
	won := ""
	for i := 0; won == ""; i++ {
		res, err := j.Contest(ctx, "mordor", command.ContestRequest{A: "lodin", SkillA: "Pelea", B: "orco", SkillB: "Pelea", EntropyB: fmt.Sprint(i)})
		require.NoError(t, err)
		if _, _, v := contestRolls(t, res); !v.Tie {
			won = res.Events[2].Event.ID
		}
	}
	same := command.ContestRequest{A: "lodin", SkillA: "fuerza", B: "orco", SkillB: "F", Rematch: tie}
	before := count(t, store)
	for _, tt := range []struct {
		name string
		req  command.ContestRequest
		want string
	}{
		{"not a tie", command.ContestRequest{A: "lodin", SkillA: "Pelea", B: "orco", SkillB: "Pelea", Rematch: won}, "was not a tie"},
		{"other skill", command.ContestRequest{A: "lodin", SkillA: "Pelea", B: "orco", SkillB: "F", Rematch: tie}, "lodin rolled the attribute Fuerza, not Pelea (Fuerza)"},
		{"other attribute", command.ContestRequest{A: "lodin", SkillA: "F", B: "orco", SkillB: "D", Rematch: tie}, "orco rolled the attribute Fuerza, not the attribute Destreza"},
		{"other character", command.ContestRequest{A: "lodin", SkillA: "F", B: "ruisenor", SkillB: "F", Rematch: tie}, "not ruisenor"},
		{"unknown contest", command.ContestRequest{A: "lodin", SkillA: "F", B: "orco", SkillB: "F", Rematch: "nope"}, "no contest nope"},
		{"a roll, not a contest", command.ContestRequest{A: "lodin", SkillA: "F", B: "orco", SkillB: "F", Rematch: tieRes.Events[0].Event.ID}, "a roll, not a contest"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := j.Contest(ctx, "mordor", tt.req)
			require.Error(t, err)
			require.ErrorContains(t, err, tt.want)
			require.Equal(t, before, count(t, store), "a refused re-roll records nothing")
		})
	}
	res, err := j.Contest(ctx, "mordor", same)
	require.NoError(t, err, "the same characters and attributes may re-roll a tie, in either spelling")
	_, _, v := contestRolls(t, res)
	require.Equal(t, tie, v.Rematch)
	before = count(t, store)
	_, err = j.Contest(ctx, "mordor", command.ContestRequest{A: "orco", SkillA: "F", B: "lodin", SkillB: "F", Rematch: tie})
	require.ErrorIs(t, err, command.ErrInvalid)
	require.ErrorContains(t, err, "already re-rolled by contest "+res.Events[2].Event.ID)
	require.Equal(t, before, count(t, store))
}

// A side that names something ambiguous, or what its roll cannot use, is
// refused with one error naming the side, and nothing is recorded.
func TestContestSideRefusals(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()
	before := count(t, store)
	for _, tt := range []struct {
		name string
		req  command.ContestRequest
		want string
	}{
		{"ambiguous prefix", command.ContestRequest{A: "lodin", SkillA: "pe", B: "orco", SkillB: "F"}, "could be Pelea, Percepción"},
		{"unknown", command.ContestRequest{A: "lodin", SkillA: "F", B: "orco", SkillB: "cocina"}, `side b (orco): unknown skill "cocina"`},
		{"another attribute on an attribute side", command.ContestRequest{A: "lodin", SkillA: "F", AttrA: "D", B: "orco", SkillB: "F"}, "side a (lodin)"},
		{"specialization on an attribute", command.ContestRequest{A: "lodin", SkillA: "D", SpecA: true, B: "orco", SkillB: "F"}, "specialization is Sigilo"},
		{"specialization of another skill", command.ContestRequest{A: "lodin", SkillA: "Pelea", SpecA: true, B: "orco", SkillB: "F"}, "specialization is Sigilo"},
		{"an NPC has no token", command.ContestRequest{A: "lodin", SkillA: "F", B: "orco", SkillB: "F", TokenB: true}, "no token"},
		{"modifier out of range", command.ContestRequest{A: "lodin", SkillA: "F", B: "orco", SkillB: "F", ModB: 101}, "modifier"},
		{"unknown GM attribute", command.ContestRequest{A: "lodin", SkillA: "Pelea", AttrA: "X", B: "orco", SkillB: "F"}, "--with-attr-a: unknown attribute"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := j.Contest(ctx, "mordor", tt.req)
			require.ErrorIs(t, err, command.ErrInvalid)
			require.ErrorContains(t, err, tt.want)
			require.Equal(t, before, count(t, store))
		})
	}
}

// A contest's winner with a total of 30 or more is a critical (docs/rules.md
// 1.5): the contest records it, and its transcript line says so; a winner
// below 30 is not one.
func TestContestRecordsTheWinnersCritical(t *testing.T) {
	j := newJournal(t, memstore.New(memstore.Options{}))
	setup(t, j)
	ctx := context.Background()
	var crit, plain bool
	for i := 0; i < 100 && !(crit && plain); i++ {
		res, err := j.Contest(ctx, "mordor", command.ContestRequest{A: "lodin", SkillA: "F", ModA: 14 * (i % 2),
			B: "orco", SkillB: "F", EntropyA: fmt.Sprint(i)})
		require.NoError(t, err)
		a, b, v := contestRolls(t, res)
		win := map[string]int{"lodin": a.Total, "orco": b.Total}[v.Winner]
		if v.Tie {
			require.False(t, v.Critical, "a tie is never a critical")
			continue
		}
		require.Equal(t, win >= 30, v.Critical, "winner %s total %d", v.Winner, win)
		crit = crit || v.Critical
		plain = plain || !v.Critical
		c, err := j.Load(ctx, "mordor", res.Events[1].Seq)
		require.NoError(t, err)
		tr := &projections.Transcript{Campaign: c, Lang: i18n.EN}
		require.NoError(t, tr.Apply(res.Events[2]))
		require.Equal(t, v.Critical, strings.Contains(tr.Lines[0].Text, "Critical!"), tr.Lines[0].Text)
	}
	require.True(t, crit && plain, "both a critical and a plain win")
}
