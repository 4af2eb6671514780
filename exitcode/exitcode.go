// Package exitcode is the command line's one mapping of errors to what a
// script sees: the process exit status, the code of a --json error, and
// the one-line message in the output's language. The classes of the
// command layer's errors are command.Classify's (the one classification
// of every door); this package adds the command line's own: a usage
// error, a verification's mismatch and flags, a file the command line
// names that does not exist.
//
// Invariants:
//   - The exit codes are part of the command's interface: a code never
//     changes meaning (OK 0, Failure 1, Usage 2, NotFound 3, Mismatch 4,
//     Flagged 5).
//   - Of is the one place an error becomes an exit code; Report prints
//     with it and returns the same code.
//   - A --json error has the shape {"error": {"code", "message",
//     "message_en", "exit"}}: code, exit and message_en never change with
//     the language.
package exitcode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Exit codes of the journal command. They are part of its interface:
// scripts test them, so a code never changes meaning.
const (
	OK       = 0 // the command did what it was asked
	Failure  = 1 // refused by the rules, the state of play, a permission, a rate limit or a quota, or an I/O failure
	Usage    = 2 // bad flag, unknown command, bad argument
	NotFound = 3 // unknown campaign, character, skill, weapon, session or event; no journal
	Mismatch = 4 // replay (or the demo's verification) found a mismatch
	Flagged  = 5 // replay verified everything, with flags (journal-dice-v2's §3.2 findings)
)

// Errors of the command line that decide an exit code (see Of).
var (
	// ErrUsage marks a command line that is malformed: a bad flag, an
	// unknown command, a missing or unreadable argument.
	ErrUsage = command.ErrUsage
	// ErrMismatch marks a verification that found a mismatch; the command
	// printed its own report first.
	ErrMismatch = msgerr.New("mismatch")
	// ErrNoJournal marks a data folder with no journal in it (read-only
	// commands never create one).
	ErrNoJournal = msgerr.Errorf("%w: no journal", events.ErrNotFound)
	// ErrFlagged marks a verification that found no mismatch but flagged
	// something (a v2 session without contribution, a voided roll...);
	// the command printed its own report first.
	ErrFlagged = msgerr.New("verified with flags")
)

// Usagef returns an error wrapping ErrUsage with a message.
func Usagef(format string, args ...any) error {
	return &usageError{msgerr.Errorf(format, args...).(msgerr.Keyed)}
}

// Foreign is a library's message (pflag's, cobra's) as an error the
// journal did not make: i18n.Render reads it with the catalogue's
// templates (Lang.Error), the one kind of message still read back from
// English.
type Foreign string

func (f Foreign) Error() string { return string(f) }

// usageError is a usage error whose message does not repeat "usage"; it
// is keyed by its format (msgerr.Keyed), so that it renders by key.
type usageError struct{ k msgerr.Keyed }

func (e *usageError) Error() string { return e.k.Error() }
func (e *usageError) Unwrap() error { return ErrUsage }
func (e *usageError) Key() string   { return e.k.Key() }
func (e *usageError) Args() []any   { return e.k.Args() }

// Of returns the process exit code of err and its name in a --json error.
func Of(err error) (int, string) {
	switch {
	case err == nil:
		return OK, ""
	case errors.Is(err, ErrMismatch):
		return Mismatch, "mismatch"
	case errors.Is(err, ErrFlagged):
		return Flagged, "flagged"
	case errors.Is(err, ErrUsage), errors.Is(err, device.ErrNoIdentity), // no user: 'journal login'

		errors.Is(err, jetstore.ErrReplicas), errors.Is(err, jetstore.ErrPartitions): // a --replicas or --partitions that is not the journal's
		return Usage, "usage"
	case errors.Is(err, fs.ErrNotExist): // a file the command line names
		return NotFound, "not_found"
	}
	c := command.Classify(err) // the one classification of every door
	return c.Exit, c.Code
}

// Report prints err on w as one line ("journal: message") in the
// language l, or with jsonOut as one JSON object {"error": {"code",
// "message", "message_en", "exit"}} (message in l, message_en in English:
// code and message_en are what scripts compare), and returns the exit code.
func Report(w io.Writer, err error, jsonOut bool, l i18n.Lang) int {
	code, name := Of(err)
	msg := Message(err, l)
	if jsonOut {
		body := command.NewErrorBody(err, command.Class{Code: name, Exit: code}, l, Message)
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

// Message is the one-line text of err for a reader, in l: no sentinel
// prefixes, no internal rule codes, no "journal" twice, plurals right.
// The error is rendered by its key (command.Message, i18n.Render): a
// command path in it ("journal roll: ") is an argument, a name in every
// language.
func Message(err error, l i18n.Lang) string {
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
