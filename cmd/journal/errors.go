package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The exit codes and the errors that decide them are package exitcode's.
const (
	exitOK       = exitcode.OK
	exitFailure  = exitcode.Failure
	exitUsage    = exitcode.Usage
	exitNotFound = exitcode.NotFound
	exitMismatch = exitcode.Mismatch
	exitFlagged  = exitcode.Flagged
)

var (
	errUsage     = exitcode.ErrUsage
	ErrMismatch  = exitcode.ErrMismatch
	errNoJournal = exitcode.ErrNoJournal
	ErrFlagged   = exitcode.ErrFlagged
	exitCode     = exitcode.Of
	reportError  = exitcode.Report
)

// usagef returns an error wrapping errUsage with a message.
func usagef(format string, args ...any) error { return exitcode.Usagef(format, args...) }

// foreign is a library's message as an error the journal did not make.
type foreign = exitcode.Foreign

// exitError reports a verification that found a mismatch, after the
// command printed its own report: msg is the one-line summary. It wraps
// ErrMismatch, so it exits with exitMismatch; code is kept for the callers
// that set it and is not read (exit codes are decided by exitCode alone).
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }
func (e exitError) Unwrap() error { return ErrMismatch }

// flagError is the usage error of a flag that does not parse: an unknown
// flag, a missing value, or a value of the wrong type ("--mod x: want a
// whole number").
// negativeNumber is what follows the '-' of a negative number.
var negativeNumber = regexp.MustCompile(`^[0-9]+([.,][0-9]+)?$`)

// annPositive marks a command whose argument N is a positive whole number
// (positive), naming it ("damage"): a negative N, which the flag parser
// reads as shorthand flags, is refused as not positive.
const annPositive = "journal-positive"

func flagError(c *cobra.Command, err error) error {
	var bad *pflag.InvalidValueError
	if errors.As(err, &bad) {
		want := map[string]error{"int": msgerr.New("a whole number"), "uint64": msgerr.New("a whole number ≥ 0"), "uint": msgerr.New("a whole number ≥ 0"),
			"bool": msgerr.New("true or false"), "duration": msgerr.New("a duration such as 30s or 5m"), "float64": msgerr.New("a number")}[bad.GetFlag().Value.Type()]
		if want == nil {
			// A value of the journal's own type says what it wants.
			return usagef("--%s: %v (see '%s --help')", bad.GetFlag().Name, errors.Unwrap(bad), c.CommandPath())
		}
		return usagef("--%s %q: want %s (see '%s --help')", bad.GetFlag().Name, clip.Text(bad.GetValue()), want, c.CommandPath())
	}
	// A negative number as an argument reads as shorthand flags (-3):
	// say so, and what the command wants instead (annPositive).
	var missing *pflag.NotExistError
	if errors.As(err, &missing) && negativeNumber.MatchString(missing.GetSpecifiedShortnames()) {
		n := "-" + missing.GetSpecifiedShortnames()
		if what := c.Annotations[annPositive]; what != "" {
			return usagef("%s must be positive, not %s (see '%s --help')", what, n, c.CommandPath())
		}
		return usagef("%s: a negative number is read as a flag, and %s takes no negative argument (see '%s --help')", n, c.CommandPath(), c.CommandPath())
	}
	// pflag's own messages ("unknown flag: --NAME") quote the argument
	// whole: at most its start is shown.
	return usagef("%s (see '%s --help')", foreign(clip.Text(err.Error()).String()), c.CommandPath())
}

// cobraUsageErrors start the messages of cobra's own flag checks, which
// it returns without a hook (required flags, flag groups).
var cobraUsageErrors = []string{"required flag(s)", "if any flags in the group", "at least one of the flags in the group"}

// cobraUsage marks cobra's own flag-check errors as usage errors, naming
// the command.
func cobraUsage(cmd *cobra.Command, err error) error {
	if errors.Is(err, errUsage) || cmd == nil {
		return err
	}
	for _, p := range cobraUsageErrors {
		if strings.HasPrefix(err.Error(), p) {
			return usagef("%s: %s (see '%s --help')", cmd.CommandPath(), err, cmd.CommandPath())
		}
	}
	return err
}

// warnf prints a warning or a notice on stderr, one line in the output's
// language (its English format is in the catalogue of errors, as every
// error's: TestEveryErrorHasSpanish).
func (a *app) warnf(format string, args ...any) {
	fmt.Fprintln(a.stderr, i18n.Render(msgerr.Errorf(format, args...), a.language()))
}

// errorLanguage is the language of an error of the command line args:
// the app's (--lang, else the locale), or a --lang the flags did not reach
// (an unknown flag before it stops their parsing).
func errorLanguage(a *app, args []string) i18n.Lang {
	if a.lang.set {
		return a.lang.l
	}
	for i, arg := range args {
		v, ok := strings.CutPrefix(arg, "--lang=")
		if arg == "--" {
			break
		}
		if arg == "--lang" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok {
			if l, err := i18n.Parse(v); err == nil {
				return l
			}
		}
	}
	return a.language()
}

// wantsJSON reports whether a command line asks for --json, for errors
// raised before the flags are parsed (an unknown flag before --json).
func wantsJSON(args []string) bool {
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

// plural returns "1 roll", "2 rolls": n and the noun in the right number.
func plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
