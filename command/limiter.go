package command

import "github.com/campaign-journal/journal/events"

// Errors of a Limiter's refusals, for callers of this package.
var (
	// ErrRateLimited marks a command refused because its actor records
	// faster than its rate limit allows (see Limiter).
	ErrRateLimited = events.ErrRateLimited
	// ErrQuota marks a command refused because its events would take the
	// campaign past its quota (see Limiter).
	ErrQuota = events.ErrQuota
)

// Limiter admits or refuses the appends of the journal's commands: every
// command that would record events (over HTTP, NATS or the CLI alike)
// asks it once, after the command's events are drafted and checked and
// before they are appended, so that a refusal records nothing. A command
// that records nothing (refused, a repeated request, nothing to do) does
// not ask.
type Limiter interface {
	// Admit decides whether actor may append n events to campaign, which
	// holds have events (every event of its fold, voided ones included).
	// A refusal wraps ErrRateLimited or
	// ErrQuota, with a message naming the limit; a rate refusal may also
	// have a RetryAfter() time.Duration method saying when to try again.
	Admit(actor, campaign string, have, n int) error
}

// admit asks the journal's limiter, if any, to admit the append of n
// events by this view's actor to campaign, which holds have events.
func (j *Handler) admit(campaign string, have, n int) error {
	if j.limiter == nil {
		return nil
	}
	return j.limiter.Admit(j.actor, campaign, have, n)
}

// preAdmitted returns this view with its command admitted already, for
// a command that asks the limiter before it writes anything else (a
// session start, before its seed is stored): execute does not ask again.
func (j *Handler) preAdmitted() *Handler {
	v := *j
	v.admitted = true
	return &v
}
