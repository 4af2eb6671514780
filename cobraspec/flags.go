package cobraspec

import (
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/rules/tor"
)

// usagef is exitcode.Usagef, by a name of this package: the scan of the
// errors' formats for their Spanish (i18n) reads the calls of a function
// of the package with a format parameter.
func usagef(format string, args ...any) error { return exitcode.Usagef(format, args...) }

// positive reads s, a whole number of at least 1 (what names it in the
// errors).
func positive(s, what string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, usagef("%s %q is not a whole number", what, clip.Text(s))
	}
	if n < 1 {
		return 0, usagef("%s must be positive, not %d", what, n)
	}
	return n, nil
}

// positiveArg marks c's argument N as positive's, named what (see
// exitcode.AnnPositive), and returns c.
func positiveArg(c *cobra.Command, what string) *cobra.Command {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[exitcode.AnnPositive] = what
	return c
}

// parseVote reads a fellowship vote.
func parseVote(s string) (bool, error) {
	switch tor.Normalize(s) {
	case "yes", "y", "si", "s", "agree", "true", "1":
		return true, nil
	case "no", "n", "refuse", "false", "0":
		return false, nil
	}
	return false, usagef("vote %q: want yes or no (sí/no)", s)
}

// annAliasOf marks a hidden flag kept as an alias of a renamed one.
const annAliasOf = "journal/alias-of"

// aliasFlag adds the hidden flag old to c, an alias of c's flag current
// (they share one value): a command line that uses it still works, with a
// one-line notice (see NoticeAliases).
func aliasFlag(c *cobra.Command, old, current string) {
	f := c.Flags().Lookup(current)
	c.Flags().AddFlag(&pflag.Flag{Name: old, Usage: "deprecated: use --" + current, Value: f.Value, DefValue: f.DefValue,
		NoOptDefVal: f.NoOptDefVal, Hidden: true, Annotations: map[string][]string{annAliasOf: {current}}})
}

// NoticeAliases prints a notice for each deprecated alias on the command line.
func NoticeAliases(c *cobra.Command, warnf func(format string, args ...any)) {
	c.Flags().Visit(func(f *pflag.Flag) {
		if cur := f.Annotations[annAliasOf]; len(cur) == 1 {
			warnf("journal: notice: --%s is deprecated, use --%s", f.Name, cur[0])
		}
	})
}

// keyNameFlag adds to c the --name flag of the device key that signs a
// journal-dice-v2 command (KeyNameOf reads it).
func keyNameFlag(c *cobra.Command, usage string) { c.Flags().String("name", device.DefaultName, usage) }

// KeyNameOf is c's --name, the device key that signs a journal-dice-v2
// command (a Form's Key).
func KeyNameOf(c *cobra.Command) string {
	name, _ := c.Flags().GetString("name")
	return name
}

// addGMRollFlags adds the GM's flags of a v2 roll or attack.
func addGMRollFlags(f *pflag.FlagSet) {
	f.Duration("wait", command.DefaultWitnessWait, "journal-dice-v2, a GM's roll: how long it waits for a player's witness before you may resolve it --unwitnessed")
	f.Duration("beacon", 0, "journal-dice-v2, a GM's roll: pin it to the drand quicknet round published this long from now, at least 1m (e.g. 90s, 48h)")
}
