package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Exit codes of the journal command. They are part of its interface:
// scripts test them, so a code never changes meaning.
const (
	exitOK       = 0 // the command did what it was asked
	exitFailure  = 1 // refused by the rules, the state of play, a permission, a rate limit or a quota, or an I/O failure
	exitUsage    = 2 // bad flag, unknown command, bad argument
	exitNotFound = 3 // unknown campaign, character, skill, weapon, session or event; no journal
	exitMismatch = 4 // replay (or the demo's verification) found a mismatch
	exitFlagged  = 5 // replay verified everything, with flags (journal-dice-v2's §3.2 findings)
)

// Errors of the command layer that decide an exit code (see exitCode).
var (
	// errUsage marks a command line that is malformed: a bad flag, an
	// unknown command, a missing or unreadable argument.
	errUsage = command.ErrUsage
	// ErrMismatch marks a verification that found a mismatch; the command
	// printed its own report first.
	ErrMismatch = msgerr.New("mismatch")
	// errNoJournal marks a data folder with no journal in it (read-only
	// commands never create one).
	errNoJournal = msgerr.Errorf("%w: no journal", events.ErrNotFound)
	// ErrFlagged marks a verification that found no mismatch but flagged
	// something (a v2 session without contribution, a voided roll...);
	// the command printed its own report first.
	ErrFlagged = msgerr.New("verified with flags")
)

// usagef returns an error wrapping errUsage with a message.
func usagef(format string, args ...any) error {
	return &usageError{msgerr.Errorf(format, args...).(msgerr.Keyed)}
}

// foreign is a library's message (pflag's, cobra's) as an error the
// journal did not make: i18n.Render reads it with the catalogue's
// templates (Lang.Error), the one kind of message still read back from
// English.
type foreign string

func (f foreign) Error() string { return string(f) }

// usageError is a usage error whose message does not repeat "usage"; it
// is keyed by its format (msgerr.Keyed), so that it renders by key.
type usageError struct{ k msgerr.Keyed }

func (e *usageError) Error() string { return e.k.Error() }
func (e *usageError) Unwrap() error { return errUsage }
func (e *usageError) Key() string   { return e.k.Key() }
func (e *usageError) Args() []any   { return e.k.Args() }

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

// exitCode is the one place errors become exit codes: it returns the
// process exit code of err and its name in a --json error.
func exitCode(err error) (int, string) {
	switch {
	case err == nil:
		return exitOK, ""
	case errors.Is(err, ErrMismatch):
		return exitMismatch, "mismatch"
	case errors.Is(err, ErrFlagged):
		return exitFlagged, "flagged"
	case errors.Is(err, errUsage), errors.Is(err, device.ErrNoIdentity), // no user: 'journal login'

		errors.Is(err, jetstore.ErrReplicas), errors.Is(err, jetstore.ErrPartitions): // a --replicas or --partitions that is not the journal's
		return exitUsage, "usage"
	case errors.Is(err, fs.ErrNotExist): // a file the command line names
		return exitNotFound, "not_found"
	}
	c := command.Classify(err) // the one classification of every door
	return c.Exit, c.Code
}

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

// reportError prints err on w as one line ("journal: message") in the
// language l, or with jsonOut as one JSON object {"error": {"code",
// "message", "message_en", "exit"}} (message in l, message_en in English:
// code and message_en are what scripts compare), and returns the exit code.
func reportError(w io.Writer, err error, jsonOut bool, l i18n.Lang) int {
	code, name := exitCode(err)
	msg := errorMessage(err, l)
	if jsonOut {
		body := command.NewErrorBody(err, command.Class{Code: name, Exit: code}, l, errorMessage)
		// The command line's --json error keeps its shape: scripts compare
		// code and message_en, and a line stays short.
		body.Key, body.Args = "", nil
		b, _ := json.Marshal(map[string]any{"error": body})
		fmt.Fprintln(w, string(b))
		return code
	}
	if !strings.HasPrefix(msg, "journal ") { // a command path names the program already
		msg = "journal: " + msg
	}
	fmt.Fprintln(w, msg)
	return code
}

// argCounts are cobra's "N arg(s)" in each language, written as plurals.
var argCounts = map[i18n.Lang]struct {
	re        *regexp.Regexp
	one, many string
}{
	i18n.EN: {regexp.MustCompile(`(\d+) arg\(s\)`), "argument", "arguments"},
	i18n.ES: {regexp.MustCompile(`(\d+) argumento\(s\)`), "argumento", "argumentos"},
}

// errorMessage is the one-line text of err for a reader, in l: no
// sentinel prefixes, no internal rule codes, no "journal" twice, plurals
// right. The error is rendered by its key (command.Message, i18n.Render):
// a command path in it ("journal roll: ") is an argument, a name in every
// language.
func errorMessage(err error, l i18n.Lang) string {
	msg := command.Message(err, l)
	msg = strings.TrimPrefix(msg, "journal: ")
	ac := argCounts[l.Or()]
	msg = ac.re.ReplaceAllStringFunc(msg, func(s string) string {
		n := ac.re.FindStringSubmatch(s)[1]
		if n == "1" {
			return "1 " + ac.one
		}
		return n + " " + ac.many
	})
	return strings.TrimSpace(msg)
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
