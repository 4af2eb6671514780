package command

// One classification of errors for every door (the CLI, HTTP, NATS): an
// error's class is its code (the CLI's --json error code and the NATS
// reply's), the CLI's exit status and the HTTP status. The doors handle
// only what is theirs alone first (a usage error of the command line, an
// HTTP body too large, a missing token), then ask Classify.
//
// Invariants:
//   - Classify is the only table from the journal's sentinel errors to
//     codes, exit statuses and HTTP statuses; cmd/journal, web and
//     access/natscmd read it, and Classes lists every class it returns.
//   - The first class whose sentinels an error matches (errors.Is) wins:
//     "not found" before "invalid", so an unknown skill, which the command
//     layer also marks invalid, is not_found (exit 3, 404) at every door.
//   - An error of no class is a failure: exit 1, HTTP 500.

import (
	"context"
	"errors"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// ErrUsage marks a request that is malformed as asked: a bad flag or
// value, an unknown command, an identifier that is not a slug, a system,
// difficulty or name that does not parse.
var ErrUsage = msgerr.New("usage")

// Class is what an error is, the same at every door.
type Class struct {
	// Code names the class in a --json error and a NATS reply.
	Code string `json:"code"`
	// Exit is the CLI's exit status.
	Exit int `json:"exit"`
	// HTTP is the HTTP status.
	HTTP int `json:"http"`
}

// The classes, in the order Classify tries them.
var (
	ClassNotFound    = Class{"not_found", 3, 404}
	ClassUsage       = Class{"usage", 2, 400}
	ClassDenied      = Class{"denied", 1, 403}
	ClassRateLimited = Class{"rate_limited", 1, 429}
	ClassQuota       = Class{"quota", 1, 429}
	ClassConflict    = Class{"conflict", 1, 409}
	ClassExists      = Class{"exists", 1, 409}
	ClassInvalid     = Class{"invalid", 1, 400}
	ClassCanceled    = Class{"canceled", 1, 503}
	ClassTimeout     = Class{"timeout", 1, 503}
	ClassFailure     = Class{"failure", 1, 500}
)

// classTable maps sentinels to classes, first match first.
var classTable = []struct {
	class Class
	is    []error
}{
	{ClassNotFound, []error{events.ErrNotFound,
		ryf.ErrUnknownSkill, ryf.ErrUnknownAttribute, ryf.ErrUnknownWeapon,
		tor.ErrUnknownSkill, tor.ErrUnknownAttribute, tor.ErrUnknownGroup, tor.ErrUnknownTrait}},
	{ClassUsage, []error{ErrUsage, events.ErrInvalidID, ryf.ErrUnknownSystem, ryf.ErrUnknownDifficulty, ryf.ErrUnknownBand, ryf.ErrAmbiguous, ryf.ErrSyntax,
		tor.ErrAmbiguous, odds.ErrInvalid}},
	{ClassDenied, []error{events.ErrDenied}},
	{ClassRateLimited, []error{events.ErrRateLimited}},
	{ClassQuota, []error{events.ErrQuota}},
	{ClassConflict, []error{events.ErrConcurrency, ErrAlreadyAnswered, ErrCallClosed}},
	{ClassExists, []error{events.ErrExists}},
	{ClassInvalid, []error{ErrInvalid, events.ErrInvalidEvent, events.ErrUnknownType}},
	{ClassCanceled, []error{context.Canceled}},
	{ClassTimeout, []error{context.DeadlineExceeded}},
}

// Classify returns err's class (ClassFailure for an error of no class);
// nil has none (the zero Class).
func Classify(err error) Class {
	if err == nil {
		return Class{}
	}
	for _, c := range classTable {
		for _, s := range c.is {
			if errors.Is(err, s) {
				return c.class
			}
		}
	}
	return ClassFailure
}

// Classes lists every class Classify returns, in its order, the failure last.
func Classes() []Class {
	out := make([]Class, 0, len(classTable)+1)
	for _, c := range classTable {
		out = append(out, c.class)
	}
	return append(out, ClassFailure)
}

// ClassSentinel returns a sentinel error of the class of code (what a NATS
// client unwraps a refusal to), nil for an unknown code or a failure.
func ClassSentinel(code string) error {
	for _, c := range classTable {
		if c.class.Code == code {
			return c.is[0]
		}
	}
	return nil
}
