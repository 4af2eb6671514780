package command

// The words of an error for a reader, the same at every door: the CLI's
// stderr line and --json error, the HTTP API's error body, the NATS reply.
//
// Invariants:
//   - Message(err, l) is err's message rendered in l by the catalogue of
//     errors (i18n.Lang.Error) from the English the source wrote, with a
//     character's rule violations spelled out and without the sentinel
//     prefixes ("invalid request: ", "not found: ") that say nothing the
//     message does not; it is one line.
//   - ErrorBody is the one shape of an error document: its code and exit
//     come from Classify, message_en is Message in English.

import (
	"errors"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// messageSentinels are the sentinel errors that prefix a message and say
// nothing it does not: a reader never sees them.
var messageSentinels = []error{ErrInvalid, events.ErrNotFound}

// ExpandMessage is err's English message on one line, an invalid
// character's violations spelled out rule by rule.
func ExpandMessage(err error) string {
	msg := err.Error()
	var ice *ryf.InvalidCharacterError
	if errors.As(err, &ice) {
		parts := make([]string, len(ice.Violations))
		for i, v := range ice.Violations {
			parts[i] = v.Message
			if !strings.Contains(v.Rule, "_") { // a word ("specialization", "skills"), not a code
				parts[i] = v.Rule + ": " + v.Message
			}
		}
		msg = strings.Replace(msg, ice.Error(), ryf.ErrInvalidCharacter.Error()+": "+strings.Join(parts, "; "), 1)
	}
	return strings.ReplaceAll(msg, "\n", " ")
}

// Localize renders an English message in l (i18n.Lang.Error) and drops
// the sentinel prefixes, English or translated.
func Localize(msg string, l i18n.Lang) string {
	msg = l.Error(msg)
	for _, s := range messageSentinels {
		msg = strings.ReplaceAll(msg, s.Error()+": ", "")
		msg = strings.ReplaceAll(msg, l.Error(s.Error())+": ", "")
	}
	return msg
}

// Message is err's message for a reader in l (see the invariants).
func Message(err error, l i18n.Lang) string {
	return strings.TrimSpace(Localize(ExpandMessage(err), l))
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
			vs[i].Subject, vs[i].Message = clip.Text(vs[i].Subject).String(), l.Error(vs[i].Message)
		}
		return vs
	}
	var tve *tor.ValidationError
	if errors.As(err, &tve) {
		vs := slices.Clone(tve.Violations)
		for i := range vs {
			vs[i].Problem = l.Error(vs[i].Problem)
		}
		return vs
	}
	return nil
}

// ErrorBody is an error as a document: {"code", "message", "message_en",
// "exit", "violations"} (the value of "error" in the CLI's --json errors
// and the HTTP API's error responses).
type ErrorBody struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	MessageEN  string `json:"message_en"`
	Exit       int    `json:"exit"`
	Violations any    `json:"violations,omitempty"`
}

// NewErrorBody is err's document in l, its words made by message (Message,
// or a door's own rendering of the same words), its class c.
func NewErrorBody(err error, c Class, l i18n.Lang, message func(error, i18n.Lang) string) ErrorBody {
	return ErrorBody{Code: c.Code, Message: message(err, l), MessageEN: message(err, i18n.EN), Exit: c.Exit,
		Violations: Violations(err, l)}
}
