package main

import (
	"fmt"
	"strings"

	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The exit codes and the errors that decide them are package exitcode's.
var (
	ErrMismatch  = exitcode.ErrMismatch
	errNoJournal = exitcode.ErrNoJournal
	ErrFlagged   = exitcode.ErrFlagged
)

// usagef returns a usage error (exitcode.ErrUsage) with a message: the
// test of the Spanish catalogue finds the messages of this package's
// errors by the functions they are passed to.
func usagef(format string, args ...any) error { return exitcode.Usagef(format, args...) }

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

// plural returns "1 roll", "2 rolls": n and the noun in the right number.
func plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
