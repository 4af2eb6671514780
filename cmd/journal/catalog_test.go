package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command/catalog"
)

// TestEveryCatalogedCommandHasACLIForm walks the command tree the CLI
// builds: every command of the catalogue has its form there (Spec.CLI), a
// command that runs, and the CLI records the catalogue's name for it.
func TestEveryCatalogedCommandHasACLIForm(t *testing.T) {
	root := newApp(io.Discard, io.Discard).rootCommand()
	forms := map[string]*cobra.Command{}
	var walk func(c *cobra.Command, words []string)
	walk = func(c *cobra.Command, words []string) {
		for _, sub := range c.Commands() {
			w := append(append([]string(nil), words...), sub.Name())
			forms[strings.Join(w, " ")] = sub
			walk(sub, w)
		}
	}
	walk(root, nil)
	for _, s := range catalog.All() {
		c, ok := forms[s.CLI]
		if !ok {
			t.Errorf("command %s: no CLI form %q (journal %s)", s.Name, s.CLI, s.CLI)
			continue
		}
		require.True(t, c.Runnable(), "journal %s does not run", s.CLI)
		require.Equal(t, s.Name, catalogName(c), "journal %s records another name", s.CLI)
	}
}

// TestCLIRecordsTheCommand: every event a CLI command records names the
// catalogued command that made it.
func TestCLIRecordsTheCommand(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start", "s1")
	c.ok("-c", "mordor", "roll", "lodin", "sigilo")
	c.ok("-c", "mordor", "combat", "start", "lodin", "orco")
	want := []string{"campaign-create", "character-create", "character-create", "session-start", "roll", "combat-start", "combat-start", "combat-start"}
	var got []string
	for _, e := range c.events("mordor") {
		got = append(got, e.Command)
	}
	require.Equal(t, want, got)
}
