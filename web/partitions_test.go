package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
	"github.com/campaign-journal/journal/web"
)

// TestHealthOverPartitions: on a journal of three partitions, /healthz
// sums the partitions' figures and lists each; it answers 503 "stuck" as
// soon as one partition is stuck while the others are caught up, and 200
// "ok" once every partition has caught up; the campaigns of every
// partition are listed and read live from their partition's projector.
func TestHealthOverPartitions(t *testing.T) {
	const k = 3
	ctx := context.Background()
	srv := embeddedtest.Start(t, embedded.Options{})
	three, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{Partitions: k})
	require.NoError(t, err)
	clock := &testClock{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	ps := make([]*live.Projector, k)
	for p := range ps {
		ps[p] = live.New(three.Partition(p), live.PartitionKV(live.NewMemKV(), p, k), live.Options{Clock: clock.Now, StuckAfter: time.Minute})
	}
	g := live.NewGroup(ps...)
	ws, err := web.New(web.Options{Store: three, Projectors: g, Clock: clock.Now})
	require.NoError(t, err)
	hs := httptest.NewServer(ws)
	t.Cleanup(hs.Close)
	healthz := func(code int) (body struct {
		Status     string `json:"status"`
		Position   uint64 `json:"position"`
		StreamLast uint64 `json:"stream_last"`
		Lag        uint64 `json:"lag"`
		Partitions []struct {
			Status   string `json:"status"`
			Position uint64 `json:"position"`
			Lag      uint64 `json:"lag"`
		} `json:"partitions"`
	}) {
		t.Helper()
		res, err := hs.Client().Get(hs.URL + "/healthz")
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.Equal(t, code, res.StatusCode, "%s", b)
		require.NoError(t, json.Unmarshal(b, &body))
		return body
	}
	require.Equal(t, live.HealthOK, healthz(http.StatusOK).Status)

	// Events in one partition's stream, while no projector runs.
	livetest.Setup(ctx, t, livetest.NewJournal(three), "mordor")
	behind := events.Partition("mordor", k)
	last, err := three.Partition(behind).Last(ctx, events.AllFilter)
	require.NoError(t, err)
	h := healthz(http.StatusOK)
	require.Equal(t, live.HealthLagging, h.Status)
	require.Equal(t, last, h.Lag)
	require.Len(t, h.Partitions, k)
	for p, ph := range h.Partitions {
		want := live.HealthOK
		if p == behind {
			want = live.HealthLagging
		}
		require.Equal(t, want, ph.Status, "partition %d", p)
	}

	clock.Add(time.Minute)
	h = healthz(http.StatusServiceUnavailable)
	require.Equal(t, live.HealthStuck, h.Status, "one partition stuck: the service is")
	require.Equal(t, live.HealthStuck, h.Partitions[behind].Status)

	runCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { _ = g.Run(runCtx) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	waitCtx, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	require.NoError(t, g.CatchUp(waitCtx))
	h = healthz(http.StatusOK)
	require.Equal(t, live.HealthOK, h.Status)
	require.Zero(t, h.Lag)
	require.Equal(t, last, h.Position)
	require.Equal(t, last, h.Partitions[behind].Position)

	livetest.Setup(ctx, t, livetest.NewJournal(three), "gondor")
	require.NotEqual(t, behind, events.Partition("gondor", k), "another partition")
	res, err := hs.Client().Get(hs.URL + "/api/campaigns")
	require.NoError(t, err)
	var list []live.Summary
	require.NoError(t, json.NewDecoder(res.Body).Decode(&list))
	res.Body.Close()
	require.Len(t, list, 2, "the campaigns of both partitions")
	require.Equal(t, []string{"gondor", "mordor"}, []string{list[0].ID, list[1].ID})
}
