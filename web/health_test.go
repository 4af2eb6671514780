package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/web"
)

// testClock is a clock the test moves.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *testClock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// healthHarness is the service over a real embedded JetStream server whose
// projector runs on clock (nil: the real one) and is started by run; js
// is the journal's own connection, privileged.
type healthHarness struct {
	*harness
	js  jetstream.JetStream
	run func()
}

func newHealthHarness(t *testing.T, clock *testClock) *healthHarness {
	t.Helper()
	ctx := context.Background()
	srv, st := embeddedtest.Store(t, embedded.Options{})
	kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
	require.NoError(t, err)
	metrics := web.NewMetrics()
	po := live.Options{Every: 50, Interval: 200 * time.Millisecond, OnEvent: metrics.Folded, OnError: metrics.FoldFailed, StuckAfter: time.Minute}
	wo := web.Options{Store: st, Metrics: metrics, Keepalive: 200 * time.Millisecond}
	if clock != nil {
		po.Clock, wo.Clock = clock.Now, clock.Now
	}
	proj := live.New(st, kv, po)
	wo.Projector = proj
	ws, err := web.New(wo)
	require.NoError(t, err)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	started := false
	run := func() {
		started = true
		go func() {
			defer close(done)
			_ = proj.Run(runCtx)
		}()
	}
	hs := httptest.NewServer(ws)
	t.Cleanup(func() {
		ws.CloseStreams()
		hs.Close()
		cancel()
		if started {
			<-done
		}
	})
	h := &harness{t: t, store: st, kv: kv, proj: proj, web: ws, srv: hs, url: hs.URL, hc: hs.Client()}
	return &healthHarness{harness: h, js: srv.JetStream(), run: run}
}

// healthBody is what the tests read of /healthz.
type healthBody struct {
	Status          string  `json:"status"`
	Position        uint64  `json:"position"`
	StreamLast      uint64  `json:"stream_last"`
	Lag             uint64  `json:"lag"`
	SinceProgress   float64 `json:"since_progress_seconds"`
	ForeignMessages int     `json:"foreign_messages"`
	LastForeign     *struct {
		Seq     uint64 `json:"seq"`
		Subject string `json:"subject"`
		Reason  string `json:"reason"`
	} `json:"last_foreign"`
}

// TestForeignMessageLeavesTheServiceWorking: a message that is not an
// event, published on a campaign's subject with the journal's own
// connection, does not stop the service: commands on that campaign are
// recorded and folded by the live projection (their answers carry the
// projection's transcript lines), the campaign views and list work,
// /healthz says degraded and names the message, and /metrics counts it.
func TestForeignMessageLeavesTheServiceWorking(t *testing.T) {
	h := newHealthHarness(t, nil)
	h.run()
	h.setup("mordor")
	h.command("mordor", "session-start", `{"id":"s1","title":"La torre"}`, http.StatusOK)
	ack, err := h.js.Publish(context.Background(), "journal.mordor", []byte("not an event"))
	require.NoError(t, err)

	roll := h.command("mordor", "roll", `{"character":"lodin","skill":"Sigilo"}`, http.StatusOK)
	require.Greater(t, roll.LastSeq, ack.Sequence)
	require.NotEmpty(t, roll.Recorded[0].Text, "the live projection folded the roll")
	end := h.command("mordor", "session-end", `{}`, http.StatusOK)
	require.NotEmpty(t, end.Recorded[0].Text, "the live projection folded the session end")

	var list []live.Summary
	h.get("/api/campaigns", http.StatusOK, &list)
	require.Len(t, list, 1)
	require.Equal(t, end.LastSeq, list[0].LastSeq)
	for _, path := range []string{"", "/characters", "/transcript", "/events", "/stats", "/characters?at=" + strconv.FormatUint(end.LastSeq, 10)} {
		h.get("/api/campaigns/mordor"+path, http.StatusOK, nil)
	}

	var health healthBody
	h.get("/healthz", http.StatusOK, &health)
	require.Equal(t, live.HealthDegraded, health.Status)
	require.Equal(t, end.LastSeq, health.Position)
	require.Equal(t, uint64(0), health.Lag)
	require.Equal(t, 1, health.ForeignMessages)
	require.NotNil(t, health.LastForeign)
	require.Equal(t, ack.Sequence, health.LastForeign.Seq)
	require.Equal(t, "journal.mordor", health.LastForeign.Subject)
	require.Contains(t, health.LastForeign.Reason, "invalid event")

	metrics := string(h.get("/metrics", http.StatusOK, nil).body)
	require.Contains(t, metrics, "journal_foreign_messages_total 1\n")
}

// TestHealthTellsStuckFromLagging: a projection behind the stream answers
// 200 "lagging" while it may still move, 503 "stuck" once it has not moved
// for StuckAfter, and 200 "ok" once it has caught up. The projector is
// started late, as one that was down; the clock is the test's.
func TestHealthTellsStuckFromLagging(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	h := newHealthHarness(t, clock)
	var health healthBody
	h.get("/healthz", http.StatusOK, &health)
	require.Equal(t, live.HealthOK, health.Status)

	for _, subject := range []string{"journal.mordor", "journal.mordor"} {
		_, err := h.js.Publish(context.Background(), subject, []byte("{}"))
		require.NoError(t, err)
	}
	h.get("/healthz", http.StatusOK, &health)
	require.Equal(t, live.HealthLagging, health.Status)
	require.Equal(t, uint64(2), health.Lag)

	clock.Add(time.Minute)
	r := h.do(http.MethodGet, "/healthz", "")
	require.Equal(t, http.StatusServiceUnavailable, r.status, "body: %s", r.body)
	r.json(t, &health)
	require.Equal(t, live.HealthStuck, health.Status)
	require.Equal(t, uint64(0), health.Position)
	require.Equal(t, uint64(2), health.StreamLast)
	require.Equal(t, 60.0, health.SinceProgress)

	h.run()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, h.proj.WaitFor(ctx, 2))
	h.get("/healthz", http.StatusOK, &health)
	require.Equal(t, live.HealthDegraded, health.Status, "caught up, past two foreign messages")
	require.Equal(t, 2, health.ForeignMessages)
	require.Equal(t, "journal.mordor", health.LastForeign.Subject)
}
