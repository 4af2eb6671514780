package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readmeBlocks returns the shell blocks of the README's section heading
// (its "## " title), in order.
func readmeBlocks(t *testing.T, heading string) [][]string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, sec, ok := strings.Cut(string(b), "\n## "+heading+"\n")
	require.True(t, ok, "README has no section %q", heading)
	sec, _, _ = strings.Cut(sec, "\n## ")
	var blocks [][]string
	var cur []string
	in := false
	for _, line := range strings.Split(sec, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in, cur = true, nil
		case in && strings.HasPrefix(line, "```"):
			in = false
			blocks = append(blocks, cur)
		case in && len(cur) > 0 && strings.HasSuffix(cur[len(cur)-1], `\`):
			cur[len(cur)-1] = strings.TrimSuffix(cur[len(cur)-1], `\`) + " " + strings.TrimSpace(line)
		case in:
			cur = append(cur, line)
		}
	}
	return blocks
}

// shellWords splits a command line as a shell would for the README's
// lines: words, and double-quoted words with spaces.
func shellWords(s string) []string {
	var out []string
	var w strings.Builder
	quoted, any := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, any = !quoted, true
		case r == ' ' && !quoted:
			if any {
				out = append(out, w.String())
			}
			w.Reset()
			any = false
		default:
			w.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, w.String())
	}
	return out
}

var (
	optionalPart = regexp.MustCompile(`\s*\[[^\]]*\]`)
	requestOut   = regexp.MustCompile(`journal roll witness ([0-9a-f-]{36})`)
	secretOut    = regexp.MustCompile(`journal roll reveal-secret ([0-9a-f-]{36})`)
	eventLine    = regexp.MustCompile(`"id":\s*"([0-9a-f-]{36})"`)
)

// TestREADMEWalkthroughsRunAsWritten follows the README's two
// walkthroughs of "## Commands", line by line, as their readers would:
// the table session on the GM's device, then the journal-dice-v2 session
// with the GM's device and Ana's, each its own configuration folder
// (comments "# The GM's device" and "# Ana's device" switch between them)
// and no $JOURNAL_ACTOR. Every command must succeed; "a | b" lines run
// each alternative, "[...]" parts are left out, a line whose comment
// begins "or:" is an alternative to the line before (only parsed), and
// REQUEST, SECRET and EVENT are the ids the walkthrough says where to
// find.
func TestREADMEWalkthroughsRunAsWritten(t *testing.T) {
	c := newCLI(t)
	root := commandTree(t)
	devices := map[string]string{"gm": t.TempDir(), "ana": t.TempDir()}
	asDevice(t, devices["gm"])
	var request, event, secret string
	blocks := readmeBlocks(t, "Commands")
	require.GreaterOrEqual(t, len(blocks), 2)
	ran := 0
	for _, block := range blocks[:2] {
		for _, line := range block {
			line = strings.TrimSpace(line)
			code, comment, _ := strings.Cut(line, "#")
			code, comment = strings.TrimSpace(code), strings.TrimSpace(comment)
			if code == "" {
				switch {
				case strings.Contains(comment, "GM's device"):
					asDevice(t, devices["gm"])
				case strings.Contains(comment, "Ana's device"):
					asDevice(t, devices["ana"])
				}
				continue
			}
			if v, ok := strings.CutPrefix(code, "export JOURNAL_CAMPAIGN="); ok {
				t.Setenv("JOURNAL_CAMPAIGN", v)
				continue
			}
			if strings.HasPrefix(comment, "or:") {
				words := shellWords(strings.TrimPrefix(code, "journal "))
				cmd, _, err := root.Find(words)
				require.NoError(t, err, line)
				require.NotEqual(t, root, cmd, line)
				continue
			}
			code = optionalPart.ReplaceAllString(code, "")
			code, _, _ = strings.Cut(code, " > ")
			for _, part := range strings.Split(code, " && ") {
				for _, alt := range strings.Split(part, " | ") {
					alt = strings.TrimPrefix(strings.TrimSpace(alt), "journal ")
					alt = strings.ReplaceAll(alt, "REQUEST", request)
					alt = strings.ReplaceAll(alt, "SECRET", secret)
					alt = strings.ReplaceAll(alt, "EVENT_ID", event)
					alt = strings.ReplaceAll(alt, "EVENT", event)
					out := c.ok(shellWords(alt)...)
					ran++
					if m := requestOut.FindStringSubmatch(out); m != nil {
						request = m[1]
					}
					if m := secretOut.FindStringSubmatch(out); m != nil {
						secret = m[1]
					}
					if strings.Contains(alt, "roll lodin") { // Ana's roll: the event her consent names
						if m := eventLine.FindAllStringSubmatch(c.ok("export"), -1); len(m) > 0 {
							event = m[len(m)-1][1]
						}
					}
				}
			}
		}
	}
	require.Greater(t, ran, 30, "the walkthroughs ran")
	require.NotEmpty(t, request, "the GM's roll printed its request")
}
