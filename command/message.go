package command

// The words of an error for a reader, the same at every door: the CLI's
// stderr line and --json error, the HTTP API's error body, the NATS reply.
//
// Invariants:
//   - Message(err, l) is err rendered in l by its key (i18n.Render: the
//     journal's errors are msgerr's keyed errors, printed from the
//     catalogue of errors with their own arguments), with a character's
//     rule violations spelled out and without the sentinel prefixes
//     ("invalid request: ", "not found: ") that say nothing the message
//     does not; it is one line.
//   - ErrorBody is the one shape of an error document: its code and exit
//     come from Classify, message_en is Message in English, key and args
//     are the outermost keyed error's English format and its arguments
//     as text (what a client may render by itself).

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// messageSentinels are the sentinel errors that prefix a message and say
// nothing it does not: a reader never sees them.
var messageSentinels = []error{ErrInvalid, events.ErrNotFound}

// ExpandMessage is err's English message on one line, an invalid
// character's violations spelled out rule by rule.
func ExpandMessage(err error) string {
	return strings.ReplaceAll(i18n.Render(err, i18n.EN), "\n", " ")
}

// Localize drops the sentinel prefixes, English or in l, from msg, a
// message already in l.
func Localize(msg string, l i18n.Lang) string {
	for _, s := range messageSentinels {
		msg = strings.ReplaceAll(msg, s.Error()+": ", "")
		msg = strings.ReplaceAll(msg, i18n.Render(s, l)+": ", "")
	}
	return msg
}

// Message is err's message for a reader in l (see the invariants).
func Message(err error, l i18n.Lang) string {
	return strings.TrimSpace(Localize(strings.ReplaceAll(i18n.Render(err, l), "\n", " "), l))
}

// Violations returns the rule violations of an invalid character (nil for
// other errors), their messages in l; rule, subject and field names stay
// as they are.
func Violations(err error, l i18n.Lang) any {
	var ice *ryf.InvalidCharacterError
	if errors.As(err, &ice) {
		vs := slices.Clone(ice.Violations)
		for i := range vs {
			// A subject is a name from the input: never echoed whole.
			vs[i].Subject, vs[i].Message = clip.Text(vs[i].Subject).String(), i18n.Render(vs[i].AsError(), l)
		}
		return vs
	}
	var tve *tor.ValidationError
	if errors.As(err, &tve) {
		vs := slices.Clone(tve.Violations)
		for i := range vs {
			vs[i].Problem = i18n.Render(vs[i].AsError(), l)
		}
		return vs
	}
	return nil
}

// KeyOf returns the English format string of err's outermost keyed
// error, past the sentinel prefixes a reader never sees, and its
// arguments as text (an error argument as its English message); "" and
// nil for an error the journal did not make.
func KeyOf(err error) (string, []string) {
	for {
		k, ok := err.(msgerr.Keyed)
		if !ok {
			return "", nil
		}
		args := k.Args()
		if len(args) == 2 && slices.Contains([]string{"%w: %w", "%w: %v", "%w: %s"}, k.Key()) && slices.ContainsFunc(messageSentinels, func(s error) bool { return args[0] == s }) {
			if next, ok := args[1].(error); ok {
				err = next
				continue
			}
		}
		out := make([]string, len(args))
		for i, a := range args {
			if e, ok := a.(error); ok && e != nil {
				out[i] = Message(e, i18n.EN)
			} else {
				out[i] = fmt.Sprint(a)
			}
		}
		return k.Key(), out
	}
}

// ErrorBody is an error as a document: {"code", "message", "message_en",
// "exit", "key", "args", "violations"} (the value of "error" in the CLI's
// --json errors, the HTTP API's error responses and the NATS replies).
type ErrorBody struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	MessageEN string `json:"message_en"`
	Exit      int    `json:"exit"`
	// Key is the English format string of the message (the key of the
	// catalogue of errors), Args its arguments as text; both omitted for
	// an error the journal did not make.
	Key        string   `json:"key,omitempty"`
	Args       []string `json:"args,omitempty"`
	Violations any      `json:"violations,omitempty"`
}

// NewErrorBody is err's document in l, its words made by message (Message,
// or a door's own rendering of the same words), its class c.
func NewErrorBody(err error, c Class, l i18n.Lang, message func(error, i18n.Lang) string) ErrorBody {
	key, args := KeyOf(err)
	return ErrorBody{Code: c.Code, Message: message(err, l), MessageEN: message(err, i18n.EN), Exit: c.Exit,
		Key: key, Args: args, Violations: Violations(err, l)}
}
