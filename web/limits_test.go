package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/limit"
	"github.com/campaign-journal/journal/web"
)

// journalToken is the token of the journal role's user of limitsConfig.
const journalToken = "journal-token-0123456789"

// limitsClock is a settable clock for a limiter.
type limitsClock struct{ now time.Time }

func (c *limitsClock) Now() time.Time { return c.now }

// newLimitsHarness is a harness with access control (accessConfig and a
// journal user) whose commands go through a limiter of rate r and quota
// max, on a settable clock: the GM of mordor has a rate of its own high
// enough for the setup (mordor with lodin, ruisenor, orco, a session),
// the journal's user none.
func newLimitsHarness(t *testing.T, r limit.Rate, max int) (*harness, *limitsClock) {
	t.Helper()
	cfg, err := accessConfig(t).With(access.User{Name: "journal", Role: access.RoleJournal, Tokens: []string{journalToken}})
	require.NoError(t, err)
	lc := &limitsClock{now: time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)}
	lim := limit.New(limit.Config{Rate: r, Users: map[string]limit.Rate{"ana": {PerMinute: 600, Burst: 100}},
		Exempt: cfg.Exempt(), CampaignMaxEvents: max, Clock: lc.Now})
	h := newHarnessWith(t, memBackend(), func(o *web.Options) {
		o.Access = cfg
		o.Commands = command.New(o.Store, command.Options{Limiter: lim})
	})
	as := func(path, body string, want int) {
		t.Helper()
		r := h.do("POST", path, body, bearer(anaToken)...)
		require.Equal(t, want, r.status, "%s: %s", path, r.body)
	}
	as("/api/campaigns", `{"id":"mordor","name":"La torre de Mordor","system":"ryf"}`, http.StatusCreated)
	for _, body := range []string{lodinBody, ruisenorBody, orcoBody} {
		as("/api/campaigns/mordor/commands/character-create", body, http.StatusCreated)
	}
	as("/api/campaigns/mordor/commands/session-start", `{}`, http.StatusOK)
	return h, lc
}

const (
	limitsRoll     = "/api/campaigns/mordor/commands/roll"
	limitsRollBody = `{"character":"ruisenor","skill":"Pelea"}`
)

// TestRateLimitHTTP: a player's burst beyond its rate is refused with 429,
// Retry-After and a message naming the limit, and records nothing; the
// journal's user records on; after the refill the player records again.
func TestRateLimitHTTP(t *testing.T) {
	h, lc := newLimitsHarness(t, limit.Rate{PerMinute: 12, Burst: 2}, 0)
	for i := range 2 {
		r := h.do("POST", limitsRoll, limitsRollBody, bearer(beaToken)...)
		require.Equal(t, http.StatusOK, r.status, "roll %d: %s", i+1, r.body)
	}
	before := h.count(t)
	for range 5 {
		r := h.do("POST", limitsRoll, limitsRollBody, bearer(beaToken)...)
		require.Equal(t, http.StatusTooManyRequests, r.status, "%s", r.body)
		require.Equal(t, "5", r.header.Get("Retry-After"), "one token at 12 a minute")
		var body errorBody
		r.json(t, &body)
		require.Equal(t, "rate limit: bea may record 12 commands a minute in campaign mordor (2 at once); try again in 5 s", body.Error.MessageEN)
		require.Equal(t, "rate_limited", body.Error.Code, "the CLI's and NATS's code")
		require.Equal(t, http.StatusTooManyRequests, body.Status)
	}
	require.Equal(t, before, h.count(t), "the refused rolls recorded nothing")

	for i := range 10 {
		r := h.do("POST", limitsRoll, limitsRollBody, bearer(journalToken)...)
		require.Equal(t, http.StatusOK, r.status, "the journal's roll %d: %s", i+1, r.body)
	}
	lc.now = lc.now.Add(3 * time.Second)
	r := h.do("POST", limitsRoll, limitsRollBody, bearer(beaToken)...)
	require.Equal(t, http.StatusTooManyRequests, r.status)
	require.Equal(t, "2", r.header.Get("Retry-After"), "rounded up from 2 s")
	lc.now = lc.now.Add(2 * time.Second)
	r = h.do("POST", limitsRoll, limitsRollBody, bearer(beaToken)...)
	require.Equal(t, http.StatusOK, r.status, "after the refill: %s", r.body)
}

// TestQuotaHTTP: once a campaign holds its quota of events, every user's
// command is refused with 429 (no Retry-After: waiting does not help) and
// records nothing; the journal's user is not held to it.
func TestQuotaHTTP(t *testing.T) {
	h, _ := newLimitsHarness(t, limit.Rate{}, 7) // the setup records 5
	r := h.do("POST", limitsRoll, limitsRollBody, bearer(beaToken)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	r = h.do("POST", "/api/campaigns/mordor/commands/damage", `{"character":"orco","amount":1}`, bearer(anaToken)...)
	require.Equal(t, http.StatusOK, r.status, "the quota reached: %s", r.body)
	before := h.count(t)
	for _, tt := range []struct{ token, path, body string }{
		{beaToken, limitsRoll, limitsRollBody},
		{anaToken, "/api/campaigns/mordor/commands/damage", `{"character":"orco","amount":1}`},
		{anaToken, "/api/campaigns/mordor/commands/session-end", `{}`},
	} {
		r := h.do("POST", tt.path, tt.body, bearer(tt.token)...)
		require.Equal(t, http.StatusTooManyRequests, r.status, "%s: %s", tt.path, r.body)
		require.Empty(t, r.header.Get("Retry-After"))
		require.True(t, strings.Contains(string(r.body), "quota: campaign mordor holds 7 events, at most 7: 1 more cannot be recorded"), "%s", r.body)
	}
	require.Equal(t, before, h.count(t), "the refused commands recorded nothing")
	r = h.do("POST", "/api/campaigns/mordor/commands/session-end", `{}`, bearer(journalToken)...)
	require.Equal(t, http.StatusOK, r.status, "the journal ends the session past the quota: %s", r.body)
}
