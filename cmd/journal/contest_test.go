package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// rolls returns the roll events of campaign camp after the first skip events.
func (c *cli) rolls(camp string, skip int) []*events.RollMade {
	c.t.Helper()
	var out []*events.RollMade
	for _, e := range c.events(camp)[skip:] {
		if e.Type == events.TypeRollMade {
			p, err := e.Payload()
			require.NoError(c.t, err)
			out = append(out, p.(*events.RollMade))
		}
	}
	return out
}

// The contest's per-side flags and combat start's --token reach the rolls;
// a bad side or a refused re-roll is one line of error and records nothing.
func TestContestAndInitiativeFlags(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	n := len(c.events("mordor"))
	c.ok("-c", "mordor", "contest", "lodin", "D", "orco", "R")
	got := c.rolls("mordor", n)
	require.Len(t, got, 2)
	require.Equal(t, []string{"attribute", "D", "attribute", "R"}, []string{got[0].Kind, got[0].Attribute, got[1].Kind, got[1].Attribute},
		"D is Destreza and R Resistencia, not Diagnosis and Rastrear")

	n = len(c.events("mordor"))
	c.ok("-c", "mordor", "contest", "lodin", "Sigilo", "orco", "F", "--token-a", "--spec-a", "--mod-a", "2", "--attr-a", "P",
		"--mod-b", "-1", "--entropy-a", "ana")
	got = c.rolls("mordor", n)
	require.True(t, got[0].Token && got[0].Specialization && got[0].Opposed)
	require.Equal(t, []any{"P", 8 + 3 + 2, "ana", "high"}, []any{got[0].Attribute, got[0].Base, got[0].Entropy, got[0].Level})
	require.Equal(t, 2*7-1, got[1].Base)

	c.ok("-c", "mordor", "token", "return", "lodin")
	n = len(c.events("mordor"))
	c.ok("-c", "mordor", "combat", "start", "lodin", "orco", "--token", "lodin")
	got = c.rolls("mordor", n)
	require.Equal(t, "lodin", got[0].Character)
	require.True(t, got[0].Token)
	require.False(t, got[1].Token)
	c.ok("-c", "mordor", "combat", "end")

	var notTie string
	for try := 0; notTie == "" && try < 50; try++ { // a contest that did not tie (each ties now and then)
		if try > 0 {
			c.ok("-c", "mordor", "contest", "lodin", "F", "orco", "F")
		}
		for _, e := range c.events("mordor") {
			if e.Type == events.TypeContestResolved {
				var v events.ContestResolved
				require.NoError(t, e.DecodeData(&v))
				if !v.Tie {
					notTie = e.ID
				}
			}
		}
	}
	require.NotEmpty(t, notTie)
	before := len(c.events("mordor"))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"contest", "lodin", "pe", "orco", "F"}, "could be Pelea, Percepción"},
		{[]string{"contest", "lodin", "F", "orco", "F", "--token-b"}, "no token"},
		{[]string{"contest", "lodin", "F", "orco", "F", "--rematch", notTie}, "was not a tie"},
		{[]string{"combat", "start", "lodin", "orco", "--token", "ruisenor"}, "not a participant"},
		{[]string{"contest", "lodin", "F", "orco", "F", "--token"}, "unknown flag: --token"},
		{[]string{"contest", "lodin", "Pelea", "orco", "Pelea", "--with-attr-a", "Z"}, `--with-attr-a: unknown attribute "Z"`},
		{[]string{"contest", "lodin", "Pelea", "orco", "Pelea", "--with-attr-b", "Z"}, `--with-attr-b: unknown attribute "Z"`},
		{[]string{"roll", "lodin", "Pelea", "--with-attr", "Z"}, `--with-attr: unknown attribute "Z"`},
	} {
		t.Run(strings.Join(tt.args, "_"), func(t *testing.T) {
			out, errb, code := c.run(append([]string{"-c", "mordor", "--lang", "en"}, tt.args...)...)
			require.NotEqual(t, 0, code, out)
			require.Contains(t, errb, tt.want)
			require.Equal(t, 0, strings.Count(strings.TrimSpace(errb), "\n"), errb)
			require.Equal(t, before, len(c.events("mordor")))
		})
	}
}
