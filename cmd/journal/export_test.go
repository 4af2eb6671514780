package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// A session's export is self-sufficient: it carries everything the
// session's sheets depend on — an earlier session's skill raise, its token
// spent, damage between sessions — so that replay --file verifies it
// clean, and it holds nothing after the session's end.
func TestSessionExportVerifies(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	m := []string{"-c", "mordor"}
	for _, args := range [][]string{
		{"session", "start"}, // s1
		{"roll", "lodin", "Sigilo"},
		{"xp", "grant", "lodin", "7"},
		{"skill", "raise", "lodin", "Sigilo"},
		{"roll", "lodin", "Pelea", "--token"},
		{"session", "end"},
		{"damage", "lodin", "20"}, // between sessions: lodin is incapacitated
		{"session", "start"},      // s2
		{"roll", "orco", "Pelea"},
		{"session", "end"},
		{"session", "start"}, // s3
		{"roll", "lodin", "Sigilo", "--entropy", "ana"},
		{"contest", "lodin", "D", "orco", "D"},
		{"session", "end"},
		{"session", "start"}, // s4: after the export's end
		{"roll", "orco", "Pelea"},
		{"session", "end"},
	} {
		c.ok(append(m, args...)...)
	}
	out := c.ok("-c", "mordor", "export", "--session", "s3")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last, err := events.Decode([]byte(lines[len(lines)-1]))
	require.NoError(t, err)
	require.Equal(t, events.TypeSessionEnded, last.Type, "the export ends with the session's end")
	require.Equal(t, "s3", last.Session)
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		require.NotEqual(t, "s4", e.Session, "nothing after the session")
	}
	file := writeExport(t, lines)
	for _, args := range [][]string{
		{"replay", "--file", file},
		{"replay", "--file", file, "--session", "s3"},
		{"replay", "--file", file, "--reproduce"},
	} {
		got, errb, code := c.run(args...)
		require.Equal(t, 0, code, "journal %s:\n%s\n%s", strings.Join(args, " "), got, errb)
		require.NotContains(t, got, "MISMATCH")
	}
	_, errb, code := c.run("-c", "mordor", "--lang", "en", "export", "--session", "s9")
	require.NotEqual(t, 0, code)
	require.Contains(t, errb, "no session s9")
}
