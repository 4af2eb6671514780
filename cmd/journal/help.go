package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// readCommands are the commands that only read the journal (by path
// without "journal "): they never create the data folder (readOnly).
// Every other command may create it.
var readCommands = []string{
	"campaign show", "character show", "character list", "combat show", "fellowship show",
	"advancement show", "log", "export", "replay", "explain", "stats", "odds", "odds ryf", "odds tor",
	"version", "verifier", "completion", "login", "whoami", "campaign list", "session list", "skill list", "weapon list", "call list",
}

// readOnly reports whether c is one of readCommands.
func readOnly(c *cobra.Command) bool {
	return slices.Contains(readCommands, strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" "))
}
