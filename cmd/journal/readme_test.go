package main

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/require"
)

// TestREADMEExamplesGiveRequiredFlags: every journal command line in the
// README's shell blocks names the command's required flags (roll cancel
// --reason, void --reason…): a reader copying one is not refused.
func TestREADMEExamplesGiveRequiredFlags(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	root := commandTree(t)
	checked := 0
	for _, line := range strings.Split(string(b), "\n") {
		line, _, _ = strings.Cut(strings.TrimSpace(line), " #")
		if !strings.HasPrefix(line, "journal ") {
			continue
		}
		var words []string
		for _, w := range strings.Fields(line)[1:] {
			if w == "|" || w == "&&" || w == ">" {
				break
			}
			words = append(words, w)
		}
		cmd, _, err := root.Find(words)
		if err != nil || cmd == root {
			continue
		}
		checked++
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if req := f.Annotations[cobra.BashCompOneRequiredFlag]; len(req) == 1 && req[0] == "true" {
				require.Contains(t, line, "--"+f.Name, "README: %q lacks the required --%s", line, f.Name)
			}
		})
	}
	require.Positive(t, checked)
}
