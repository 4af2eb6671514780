// Package msgerr makes the journal's errors: drop-ins for fmt.Errorf and
// errors.New that keep, besides the English text, the format string they
// were made from and its arguments, so that the edges (the CLI's stderr,
// the HTTP error body, the NATS reply) render an error in the reader's
// language by its key (i18n.Render) instead of reading its English back.
//
// Invariants:
//   - Errorf(format, args...).Error() is fmt.Errorf(format, args...).Error(),
//     and errors.Is, errors.As and errors.Unwrap see through it as they do
//     through fmt.Errorf's error (one %w: Unwrap() error; several: Unwrap()
//     []error); New(text).Error() is text.
//   - Key is the English format string as written in the source (the key
//     of the catalogue of errors, i18n), Args the arguments as given; an
//     argument that is an error is rendered by its own key.
//   - The package imports nothing of the journal: every package may use it.
package msgerr

import (
	"errors"
	"fmt"
)

// Keyed is an error that can be rendered by key: its English format and
// the arguments that fill it. An error type of its own (a list of rule
// violations) may implement it too.
// Worded is an error that holds its own words in some languages: a
// refusal that came over the wire already in the language asked for (the
// NATS command service's reply), which no key of this process renders.
type Worded interface {
	error
	// Words returns the error's words in lang ("en", "es"), if it has them.
	Words(lang string) (string, bool)
}

// Keyed is an error made by Errorf or New: its key and arguments render
// it in any language (package i18n).
type Keyed interface {
	error
	// Key is the English format string (for New, the text itself).
	Key() string
	// Args are the format's arguments, in order.
	Args() []any
}

// one is a keyed error that wraps at most one error.
type one struct {
	key  string
	args []any
	err  error // what fmt.Errorf made of key and args
}

// many is a keyed error that wraps several (a format with more than one %w).
type many struct{ one }

func (e *one) Error() string { return e.err.Error() }

// Key returns the English format string.
func (e *one) Key() string { return e.key }

// Args returns the arguments (the caller must not modify them).
func (e *one) Args() []any { return e.args }

// Unwrap returns the error of the format's %w, if any.
func (e *one) Unwrap() error { return errors.Unwrap(e.err) }

// Unwrap returns the errors of the format's %w verbs.
func (e *many) Unwrap() []error {
	if u, ok := e.err.(interface{ Unwrap() []error }); ok {
		return u.Unwrap()
	}
	return nil
}

// Errorf is fmt.Errorf, keeping format and args.
func Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	e := one{key: format, args: args, err: err}
	if _, several := err.(interface{ Unwrap() []error }); several {
		return &many{e}
	}
	return &e
}

// New is errors.New, its text its key: a sentinel made with New renders
// by its own key.
func New(text string) error {
	return &one{key: text, err: errors.New(text)}
}
