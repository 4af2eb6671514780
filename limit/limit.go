// Package limit holds the journal's limits on appends: a rate limit per
// actor and campaign (a token bucket) and a quota of events per campaign.
// A Limiter is the command layer's command.Limiter: every command that
// would record events asks it once before its append.
//
// Invariants:
//   - A refusal takes nothing: the quota is checked before the rate, and an
//     empty bucket stays as it was, so that refused commands neither count
//     against the rate nor push back the time to retry.
//   - One command takes one token, whatever the number of its events; the
//     quota counts events.
//   - Time is the injected clock's only; a clock that goes back refills
//     nothing.
//   - Exempt actors are neither rate-limited nor held to the quota.
//   - Memory is bounded by the pairs of actor and campaign whose bucket is
//     not full: full buckets are dropped (a new one starts full).
//   - A Limiter is safe for concurrent use; the package holds no state.
package limit

import (
	"math"
	"slices"
	"sync"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Rate is a rate limit: PerMinute commands a minute sustained, and up to
// Burst at once after a quiet time (a bucket of Burst tokens refilled at
// PerMinute a minute).
type Rate struct {
	// PerMinute is the sustained rate, in commands a minute; 0: no rate
	// limit.
	PerMinute int
	// Burst is the size of the bucket; below 1, 1.
	Burst int
}

// Config configures a Limiter. Zero values mean no limit.
type Config struct {
	// Rate is every actor's rate limit, but for those of Users.
	Rate Rate
	// Users are the actors' own rate limits, by actor, in place of Rate.
	Users map[string]Rate
	// Exempt are the actors neither rate-limited nor held to the quota.
	Exempt []string
	// CampaignMaxEvents is the most events a campaign may hold (0: no
	// quota).
	CampaignMaxEvents int
	// Clock is the time of the buckets (default time.Now).
	Clock func() time.Time
}

// Limiter enforces a Config. Use New.
type Limiter struct {
	rate     Rate
	users    map[string]Rate
	exempt   map[string]bool
	maxEvent int
	clock    func() time.Time

	mu      sync.Mutex
	buckets map[key]*bucket
	// sweepAt is the number of buckets that makes the next Admit drop the
	// full ones.
	sweepAt int
}

// key is a bucket's actor and campaign.
type key struct{ actor, campaign string }

// bucket is a token bucket kept as the generic cell rate algorithm keeps
// it, in whole nanoseconds: tat is the time at which the bucket is full
// again (each command admitted pushes it one interval later, from now
// at the earliest); a command is admitted while tat is at most Burst-1
// intervals ahead of now.
type bucket struct{ tat time.Time }

// minSweep is the fewest buckets worth a sweep.
const minSweep = 1024

// New returns a Limiter enforcing c. c's maps and slices are copied.
func New(c Config) *Limiter {
	l := &Limiter{rate: c.Rate, users: map[string]Rate{}, exempt: map[string]bool{}, maxEvent: c.CampaignMaxEvents,
		clock: c.Clock, buckets: map[key]*bucket{}, sweepAt: minSweep}
	for name, r := range c.Users {
		l.users[name] = r
	}
	for _, name := range slices.Clone(c.Exempt) {
		l.exempt[name] = true
	}
	if l.clock == nil {
		l.clock = time.Now
	}
	return l
}

// limitError is a refusal of the rate limit: its message, wrapping
// events.ErrRateLimited, and when to retry.
type limitError struct {
	err   error
	retry time.Duration
}

func (e *limitError) Error() string { return e.err.Error() }
func (e *limitError) Unwrap() error { return e.err }

// RetryAfter is how long the refused actor should wait before it tries
// again: the time its bucket takes to hold one token.
func (e *limitError) RetryAfter() time.Duration { return e.retry }

// Admit decides whether actor may append n events to campaign, which
// holds have events (see command.Limiter). A refusal of the quota wraps
// events.ErrQuota; one of the rate wraps events.ErrRateLimited and has a
// RetryAfter() time.Duration method.
func (l *Limiter) Admit(actor, campaign string, have, n int) error {
	if l.exempt[actor] {
		return nil
	}
	if l.maxEvent > 0 && have+n > l.maxEvent {
		return msgerr.Errorf("%w: campaign %s holds %d events, at most %d: %d more cannot be recorded",
			events.ErrQuota, campaign, have, l.maxEvent, n)
	}
	r, ok := l.users[actor]
	if !ok {
		r = l.rate
	}
	if r.PerMinute <= 0 {
		return nil
	}
	every := time.Minute / time.Duration(r.PerMinute) // one token
	ahead := time.Duration(max(r.Burst, 1)-1) * every // the bucket's size but one
	now := l.clock()
	k := key{actor, campaign}

	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buckets) >= l.sweepAt {
		l.sweep(now)
	}
	b := l.buckets[k]
	if b == nil {
		b = &bucket{tat: now}
		l.buckets[k] = b
	}
	tat := b.tat
	if tat.Before(now) {
		tat = now
	}
	if wait := tat.Sub(now) - ahead; wait > 0 {
		secs := int(math.Ceil(wait.Seconds()))
		return &limitError{retry: wait, err: msgerr.Errorf("%w: %s may record %d commands a minute in campaign %s (%d at once); try again in %d s",
			events.ErrRateLimited, actor, r.PerMinute, campaign, max(r.Burst, 1), secs)}
	}
	b.tat = tat.Add(every)
	return nil
}

// sweep drops the buckets that are full at now (a new bucket is full:
// nothing is lost), and sets the size of the next sweep. l.mu is held.
func (l *Limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if !b.tat.After(now) {
			delete(l.buckets, k)
		}
	}
	l.sweepAt = max(minSweep, 2*len(l.buckets))
}

// Buckets returns how many buckets the Limiter keeps (those not known to
// be full), for tests and metrics.
func (l *Limiter) Buckets() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
