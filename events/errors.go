package events

import (
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/internal/slug"
)

// Errors callers check with errors.Is. Every error returned by this package
// and by the stores wraps one of them (or a context error, or an I/O error
// from the server).
var (
	// ErrConcurrency is returned by an append whose Expect no longer holds:
	// something was appended to the expected subject filter after the
	// sequence the writer saw. Nothing was stored; re-read and retry.
	ErrConcurrency = msgerr.New("concurrency conflict")
	// ErrNotFound is returned for a secret, event or aggregate that does not exist.
	ErrNotFound = msgerr.New("not found")
	// ErrExists is returned when a create-only value (a session secret) is
	// already there. The stored value is left as it was.
	ErrExists = msgerr.New("already exists")
	// ErrInvalidEvent is returned for an event document or envelope the codec
	// refuses. Every codec refusal wraps it.
	ErrInvalidEvent = msgerr.New("invalid event")
	// ErrUnknownType is returned for an event type with no registered data
	// struct. It comes wrapped together with ErrInvalidEvent.
	ErrUnknownType = msgerr.New("unknown event type")
	// ErrInvalidID is returned for an identifier that is not a slug
	// ([a-z0-9_-], 1..64), and for a malformed subject or subject filter.
	ErrInvalidID = slug.ErrInvalid
	// ErrDenied is returned when the actor may not do what was asked.
	ErrDenied = msgerr.New("permission denied")
	// ErrRateLimited is returned when an actor records commands faster
	// than its rate limit allows. Nothing was recorded; the same request
	// succeeds later (the error says when, see command.Limiter).
	ErrRateLimited = msgerr.New("rate limit")
	// ErrQuota is returned when an append would take a campaign past its
	// quota of events. Nothing was recorded; only a larger quota lets the
	// campaign grow.
	ErrQuota = msgerr.New("quota")
)
