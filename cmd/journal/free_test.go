package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

var secretLine = regexp.MustCompile(`reveal it with 'journal roll reveal-secret ([0-9a-f-]{36})'`)

// hiddenIDs lists the ids of the campaign's secret rolls, in order.
func (tb *v2Table) hiddenIDs() []string {
	var out []string
	for _, e := range tb.events("mordor") {
		if e.Type == events.TypeRollHidden {
			out = append(out, e.ID)
		}
	}
	return out
}

// freeV1 plays freeSession's journal-dice-v1 session on c (no device
// keys yet).
func freeV1(t *testing.T, c *cli) {
	var secret string
	c.ok("-c", "mordor", "session", "start", "--dice", "v1")
	t.Setenv("JOURNAL_ACTOR", "ana")
	out := c.ok("--lang", "en", "-c", "mordor", "roll", "free", "2d10+3", "--character", "lodin", "--note", "the trap")
	require.Contains(t, out, "lodin rolls 2d10+3: [")
	_, errb, code := c.run("--lang", "es", "-c", "mordor", "roll", "free", "1d6", "--character", "lodin", "--secret")
	require.NotZero(t, code)
	require.Contains(t, errb, "solo el máster tira en secreto")
	_, errb, code = c.run("--lang", "en", "-c", "mordor", "roll", "free", "2d1", "--character", "lodin")
	require.NotZero(t, code)
	require.Contains(t, errb, `"2d1": a die has 2..256 sides`)
	t.Setenv("JOURNAL_ACTOR", "gm")
	c.ok("-c", "mordor", "roll", "free", "1d6")
	out = c.ok("--lang", "en", "-c", "mordor", "roll", "free", "1d20", "--secret", "--note", "who notices")
	m := secretLine.FindStringSubmatch(out)
	require.NotNil(t, m, "%s", out)
	secret = m[1]
	require.Contains(t, out, "Secret, for your eyes only: The GM rolls 1d20: [")
	c.ok("-c", "mordor", "roll", "orco", "Pelea", "--vs", "media", "--secret")
	c.ok("-c", "mordor", "roll", "free", "3d6-2", "--secret")
	out = c.ok("--lang", "en", "-c", "mordor", "roll", "reveal-secret", secret[len(secret)-8:])
	require.Contains(t, out, "(secret roll "+secret[:12]+"…, revealed)")
	c.ok("-c", "mordor", "session", "end")
}

// freeSession plays free rolls and GM secret rolls with the CLI: a
// journal-dice-v1 session (a player's free roll, the GM's for no one,
// three secret rolls, one revealed by the GM, two at the end), then a
// journal-dice-v2 one (a player's free roll, two GM secret free rolls
// witnessed by the player, one revealed by the GM, the other at the end,
// the end co-signed). It returns the export's lines.
func freeSession(t *testing.T) []string {
	tb := newV2TableAfter(t, func(c *cli) { freeV1(t, c) })
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tb.ok("-c", "mordor", "roll", "free", "1d6+1", "--character", "lodin", "--note", "a coin")
	first := tb.gmRoll("roll", "free", "2d8", "--secret", "--note", "the ambush", "--wait", "60s")
	tb.as("ana").ok("-c", "mordor", "roll", "witness", first[:8])
	second := tb.gmRoll("roll", "free", "1d4", "--secret", "--wait", "60s")
	tb.as("ana").ok("-c", "mordor", "roll", "witness", second[:8])
	hidden := tb.hiddenIDs()
	require.Len(t, hidden, 5)
	tb.as("gm").ok("-c", "mordor", "roll", "reveal-secret", hidden[3])
	tb.ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")
	return strings.Split(strings.TrimSpace(tb.ok("-c", "mordor", "export")), "\n")
}

func TestFreeAndSecretRollsCLI(t *testing.T) {
	lines := freeSession(t)
	made, hidden := 0, 0
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		switch e.Type {
		case events.TypeRollHidden:
			hidden++
			require.NotContains(t, string(e.Data), `"faces"`)
		case events.TypeRollMade:
			made++
		}
	}
	require.Equal(t, 5, hidden)
	require.Equal(t, 3+5, made, "every free roll, and every secret roll revealed")
	path := writeExport(t, lines)
	tb := &v2Table{cli: newCLI(t)}
	out := tb.ok("--lang", "en", "replay", "--file", path)
	require.NotContains(t, out, "MISMATCH")
	require.NotContains(t, out, "hidden-unrevealed")
}
