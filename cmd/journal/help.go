package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

// annAliasOf marks a hidden flag kept as an alias of a renamed one.
const annAliasOf = "journal/alias-of"

// aliasFlag adds the hidden flag old to c, an alias of c's flag current
// (they share one value): a command line that uses it still works, with a
// one-line notice (see noticeAliases).
func aliasFlag(c *cobra.Command, old, current string) {
	f := c.Flags().Lookup(current)
	c.Flags().AddFlag(&pflag.Flag{Name: old, Usage: "deprecated: use --" + current, Value: f.Value, DefValue: f.DefValue,
		NoOptDefVal: f.NoOptDefVal, Hidden: true, Annotations: map[string][]string{annAliasOf: {current}}})
}

// noticeAliases prints a notice for each deprecated alias on the command line.
func noticeAliases(c *cobra.Command, warnf func(format string, args ...any)) {
	c.Flags().Visit(func(f *pflag.Flag) {
		if cur := f.Annotations[annAliasOf]; len(cur) == 1 {
			warnf("journal: notice: --%s is deprecated, use --%s", f.Name, cur[0])
		}
	})
}
