package limit_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/limit"
)

// clock is a settable clock.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time          { return c.now }
func (c *clock) advance(d time.Duration) { c.now = c.now.Add(d) }

func newClock() *clock { return &clock{now: time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)} }

// admitN admits n commands of actor in campaign and returns how many
// were admitted and the last refusal.
func admitN(l *limit.Limiter, actor, campaign string, n int) (int, error) {
	ok := 0
	var last error
	for range n {
		if err := l.Admit(actor, campaign, 0, 1); err != nil {
			last = err
			continue
		}
		ok++
	}
	return ok, last
}

// TestRate: a burst beyond the bucket is refused, with a message naming
// the limit and when to retry; the bucket refills at the rate; buckets are
// per actor and per campaign; refusals take nothing.
func TestRate(t *testing.T) {
	c := newClock()
	l := limit.New(limit.Config{Rate: limit.Rate{PerMinute: 120, Burst: 30}, Clock: c.Now})

	if got, err := admitN(l, "bea", "gondor", 100); got != 30 {
		t.Fatalf("a burst of 100 admitted %d, want the bucket's 30", got)
	} else {
		if !errors.Is(err, events.ErrRateLimited) {
			t.Fatalf("refusal %v: want events.ErrRateLimited", err)
		}
		want := "rate limit: bea may record 120 commands a minute in campaign gondor (30 at once); try again in 1 s"
		if err.Error() != want {
			t.Errorf("refusal:\n got %q\nwant %q", err, want)
		}
		var ra interface{ RetryAfter() time.Duration }
		if !errors.As(err, &ra) || ra.RetryAfter() != 500*time.Millisecond {
			t.Errorf("retry after: got %v, want 500ms (one token at 2 a second)", ra)
		}
	}
	if got, _ := admitN(l, "cai", "gondor", 31); got != 30 {
		t.Errorf("another actor admitted %d, want a bucket of its own (30)", got)
	}
	if got, _ := admitN(l, "bea", "mordor", 31); got != 30 {
		t.Errorf("bea in another campaign admitted %d, want a bucket of its own (30)", got)
	}
	c.advance(499 * time.Millisecond)
	if got, _ := admitN(l, "bea", "gondor", 1); got != 0 {
		t.Errorf("before a token refilled: admitted %d, want 0", got)
	}
	c.advance(time.Millisecond)
	if got, _ := admitN(l, "bea", "gondor", 2); got != 1 {
		t.Errorf("after half a second: admitted %d, want 1 (refused commands took nothing)", got)
	}
	c.advance(10 * time.Second)
	if got, _ := admitN(l, "bea", "gondor", 100); got != 20 {
		t.Errorf("after 10 s: admitted %d, want 20", got)
	}
	c.advance(time.Hour)
	if got, _ := admitN(l, "bea", "gondor", 100); got != 30 {
		t.Errorf("after an hour: admitted %d, want no more than the bucket (30)", got)
	}
	// Sustained: one a second for a minute, each admitted at 120 a minute.
	for i := range 60 {
		c.advance(time.Second)
		if err := l.Admit("dov", "gondor", 0, 1); err != nil {
			t.Fatalf("command %d at one a second: %v", i, err)
		}
	}
	// A clock that goes back refills nothing.
	c.advance(-time.Hour)
	if got, _ := admitN(l, "bea", "gondor", 1); got != 0 {
		t.Errorf("clock went back: admitted %d, want 0", got)
	}
}

// TestRetryAfterRounds: the message rounds the wait up to whole seconds.
func TestRetryAfterRounds(t *testing.T) {
	c := newClock()
	l := limit.New(limit.Config{Rate: limit.Rate{PerMinute: 1, Burst: 1}, Clock: c.Now})
	if err := l.Admit("bea", "gondor", 0, 1); err != nil {
		t.Fatal(err)
	}
	c.advance(20*time.Second + time.Millisecond)
	err := l.Admit("bea", "gondor", 0, 1)
	want := "rate limit: bea may record 1 commands a minute in campaign gondor (1 at once); try again in 40 s"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestQuota: the quota refuses an append that would pass it, before the
// rate (no token taken), and lets one that reaches it exactly.
func TestQuota(t *testing.T) {
	c := newClock()
	l := limit.New(limit.Config{Rate: limit.Rate{PerMinute: 60, Burst: 1}, CampaignMaxEvents: 100, Clock: c.Now})
	tests := []struct {
		have, n int
		want    error
	}{
		{101, 1, events.ErrQuota},
		{100, 1, events.ErrQuota},
		{99, 2, events.ErrQuota},
		{99, 1, nil}, // reaches the quota exactly; the bucket's one token
		{0, 1, events.ErrRateLimited},
	}
	for _, tt := range tests {
		err := l.Admit("bea", "gondor", tt.have, tt.n)
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("have %d, %d more: got %v, want %v", tt.have, tt.n, err, tt.want)
		}
	}
	err := l.Admit("bea", "gondor", 100, 1)
	if want := "quota: campaign gondor holds 100 events, at most 100: 1 more cannot be recorded"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestExemptAndUsers: exempt actors have no limits; users have their own
// rate; a zero Config limits nothing.
func TestExemptAndUsers(t *testing.T) {
	c := newClock()
	l := limit.New(limit.Config{Rate: limit.Rate{PerMinute: 60, Burst: 2}, CampaignMaxEvents: 10,
		Users: map[string]limit.Rate{"ana": {PerMinute: 600, Burst: 50}, "off": {}}, Exempt: []string{"journal"}, Clock: c.Now})
	for _, tt := range []struct {
		actor string
		want  int
	}{{"journal", 1000}, {"ana", 50}, {"bea", 2}, {"off", 1000}} {
		if got, _ := admitN(l, tt.actor, "gondor", 1000); got != tt.want {
			t.Errorf("%s: admitted %d of 1000, want %d", tt.actor, got, tt.want)
		}
	}
	if err := l.Admit("journal", "gondor", 1e6, 1); err != nil {
		t.Errorf("the quota held an exempt actor: %v", err)
	}
	if err := l.Admit("off", "gondor", 10, 1); !errors.Is(err, events.ErrQuota) {
		t.Errorf("a user without a rate limit is held to the quota: got %v", err)
	}
	none := limit.New(limit.Config{})
	if got, _ := admitN(none, "bea", "gondor", 1000); got != 1000 {
		t.Errorf("no limits: admitted %d of 1000", got)
	}
}

// TestFullBucketsDropped: the buckets of actors that stopped recording
// are dropped once full, so that memory follows the actors recording now.
func TestFullBucketsDropped(t *testing.T) {
	c := newClock()
	l := limit.New(limit.Config{Rate: limit.Rate{PerMinute: 60, Burst: 10}, Clock: c.Now})
	for i := range 5000 {
		if err := l.Admit(fmt.Sprintf("u%d", i), "gondor", 0, 1); err != nil {
			t.Fatal(err)
		}
	}
	if n := l.Buckets(); n > 5000 {
		t.Fatalf("%d buckets for 5000 actors", n)
	}
	c.advance(time.Second) // every bucket full again
	// New actors, recording within the second: the next sweep drops the
	// full buckets of the first 5000, and keeps the new ones.
	for i := range 20000 {
		if err := l.Admit(fmt.Sprintf("v%d", i), "gondor", 0, 1); err != nil {
			t.Fatal(err)
		}
		if n := l.Buckets(); n < 5000+i+1 {
			if n != i+1 {
				t.Errorf("after the sweep: %d buckets, want the %d not full", n, i+1)
			}
			return
		}
	}
	t.Errorf("%d buckets: the full ones were never dropped", l.Buckets())
}
