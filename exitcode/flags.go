package exitcode

import (
	"errors"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// negativeNumber is what follows the '-' of a negative number.
var negativeNumber = regexp.MustCompile(`^[0-9]+([.,][0-9]+)?$`)

// annPositive marks a command whose argument N is a positive whole number
// (positive), naming it ("damage"): a negative N, which the flag parser
// reads as shorthand flags, is refused as not positive.
const AnnPositive = "journal-positive"

// FlagError is the usage error of a flag that does not parse (cobra's
// SetFlagErrorFunc): an unknown flag, a missing value, or a value of the
// wrong type ("--mod x: want a whole number").
func FlagError(c *cobra.Command, err error) error {
	var bad *pflag.InvalidValueError
	if errors.As(err, &bad) {
		want := map[string]error{"int": msgerr.New("a whole number"), "uint64": msgerr.New("a whole number ≥ 0"), "uint": msgerr.New("a whole number ≥ 0"),
			"bool": msgerr.New("true or false"), "duration": msgerr.New("a duration such as 30s or 5m"), "float64": msgerr.New("a number")}[bad.GetFlag().Value.Type()]
		if want == nil {
			// A value of the journal's own type says what it wants.
			return Usagef("--%s: %v (see '%s --help')", bad.GetFlag().Name, errors.Unwrap(bad), c.CommandPath())
		}
		return Usagef("--%s %q: want %s (see '%s --help')", bad.GetFlag().Name, clip.Text(bad.GetValue()), want, c.CommandPath())
	}
	// A negative number as an argument reads as shorthand flags (-3):
	// say so, and what the command wants instead (AnnPositive).
	var missing *pflag.NotExistError
	if errors.As(err, &missing) && negativeNumber.MatchString(missing.GetSpecifiedShortnames()) {
		n := "-" + missing.GetSpecifiedShortnames()
		if what := c.Annotations[AnnPositive]; what != "" {
			return Usagef("%s must be positive, not %s (see '%s --help')", what, n, c.CommandPath())
		}
		return Usagef("%s: a negative number is read as a flag, and %s takes no negative argument (see '%s --help')", n, c.CommandPath(), c.CommandPath())
	}
	// pflag's own messages ("unknown flag: --NAME") quote the argument
	// whole: at most its start is shown.
	return Usagef("%s (see '%s --help')", Foreign(clip.Text(err.Error()).String()), c.CommandPath())
}

// cobraUsageErrors start the messages of cobra's own flag checks, which
// it returns without a hook (required flags, flag groups).
var cobraUsageErrors = []string{"required flag(s)", "if any flags in the group", "at least one of the flags in the group"}

// CobraUsage marks cobra's own flag-check errors as usage errors, naming
// the command.
func CobraUsage(cmd *cobra.Command, err error) error {
	if errors.Is(err, ErrUsage) || cmd == nil {
		return err
	}
	for _, p := range cobraUsageErrors {
		if strings.HasPrefix(err.Error(), p) {
			return Usagef("%s: %s (see '%s --help')", cmd.CommandPath(), err, cmd.CommandPath())
		}
	}
	return err
}

// WantsJSON reports whether a command line asks for --json, for errors
// raised before the flags are parsed (an unknown flag before --json).
func WantsJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "--json=true", "--json=1":
			return true
		}
	}
	return false
}
