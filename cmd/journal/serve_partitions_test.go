package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// feedEvent is one event of a campaign's SSE feed.
type feedEvent struct {
	id    uint64
	event events.Event
}

// feed reads n events of campaign's SSE feed, resuming after lastID when
// it is not 0.
func (s *server) feed(t *testing.T, campaign string, lastID uint64, n int) []feedEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a guard, not an assertion
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url+"/api/campaigns/"+campaign+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	if lastID > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatUint(lastID, 10))
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var out []feedEvent
	var id uint64
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for len(out) < n && sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "id: "); ok {
			id, err = strconv.ParseUint(v, 10, 64)
			require.NoError(t, err)
		}
		if v, ok := strings.CutPrefix(line, "data: "); ok {
			e, err := events.Decode([]byte(v))
			require.NoError(t, err)
			out = append(out, feedEvent{id: id, event: e})
		}
	}
	require.Len(t, out, n, "feed of %s: %v", campaign, sc.Err())
	return out
}

// TestServePartitions runs `journal serve` on a journal of three
// partitions, campaigns in each: commands over HTTP and the CLI on every
// campaign, sheets read back equal to the CLI's fold, a campaign's SSE
// feed carries its events alone (resumable with Last-Event-ID, a sequence
// of its partition's stream), /healthz is ok with every partition's
// position, and a restart resumes every partition from its checkpoint to
// the same sheets as a refold.
func TestServePartitions(t *testing.T) {
	const k = 3
	c := newCLI(t)
	campaigns := []string{"mordor", "gondor", "rohan", "erebor"}
	spread := map[int]bool{}
	for i, id := range campaigns {
		args := []string{"campaign", "create", id, "--system", "ryf"}
		if i == 0 {
			args = append([]string{"--partitions", strconv.Itoa(k)}, args...)
		}
		c.ok(args...)
		c.ok("-c", id, "character", "create", "lodin", "--player", "ana", "--attrs", "F=8,R=7,D=9,I=8,P=8",
			"--skills", "Pelea=5,Sigilo=3", "--spec", "Sigilo", "--weapons", "Espada")
		c.ok("-c", id, "session", "start")
		spread[events.Partition(id, k)] = true
	}
	require.Len(t, spread, k, "the campaigns are in the three partitions")

	s := c.serve()
	require.Contains(t, s.banner, "folding the stream from the start")
	for _, id := range campaigns {
		s.post(t, "/api/campaigns/"+id+"/commands/roll", `{"character":"lodin","skill":"Sigilo"}`)
		c.ok("-c", id, "roll", "lodin", "Sigilo") // the CLI through the server
		s.post(t, "/api/campaigns/"+id+"/commands/roll", `{"character":"lodin","skill":"Pelea"}`)
	}
	for _, id := range campaigns {
		var sheet struct {
			Rolls int `json:"rolls"`
		}
		s.get(t, "/api/campaigns/"+id+"/characters/lodin", &sheet)
		require.Equal(t, 3, sheet.Rolls, "lodin's rolls in %s", id)
	}
	var list []struct {
		ID string `json:"id"`
	}
	s.get(t, "/api/campaigns", &list)
	require.Len(t, list, len(campaigns), "listed from every partition")
	require.NotContains(t, s.errb.String(), "refolding", "every read came from its partition's live projector")

	// The feed of one campaign: its events alone, in order; resumed after
	// its second event, the rest.
	mordor := c.events("mordor")
	got := s.feed(t, "mordor", 0, len(mordor))
	for i, f := range got {
		require.Equal(t, "mordor", f.event.Campaign)
		require.Equal(t, mordor[i].ID, f.event.ID)
		if i > 0 {
			require.Greater(t, f.id, got[i-1].id)
		}
	}
	rest := s.feed(t, "mordor", got[1].id, len(mordor)-2)
	for i, f := range rest {
		require.Equal(t, got[i+2], f, "resumed after Last-Event-ID %d", got[1].id)
	}

	var health struct {
		Status     string `json:"status"`
		Position   uint64 `json:"position"`
		StreamLast uint64 `json:"stream_last"`
		Lag        uint64 `json:"lag"`
		Partitions []struct {
			Partition  int    `json:"partition"`
			Status     string `json:"status"`
			Position   uint64 `json:"position"`
			StreamLast uint64 `json:"stream_last"`
		} `json:"partitions"`
	}
	s.get(t, "/healthz", &health)
	require.Equal(t, "ok", health.Status)
	require.Zero(t, health.Lag)
	require.Len(t, health.Partitions, k)
	var sum uint64
	for p, ph := range health.Partitions {
		require.Equal(t, p, ph.Partition)
		require.Equal(t, "ok", ph.Status)
		require.Equal(t, ph.StreamLast, ph.Position)
		require.NotZero(t, ph.Position, "partition %d folded", p)
		sum += ph.Position
	}
	require.Equal(t, sum, health.Position)
	total := 0
	for _, id := range campaigns {
		total += len(c.events(id))
	}
	require.Equal(t, uint64(total), sum, "every event folded once")
	res, err := http.Get(s.url + "/metrics")
	require.NoError(t, err)
	metrics, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for p, ph := range health.Partitions {
		require.Contains(t, string(metrics), fmt.Sprintf("journal_partition_projection_sequence{partition=\"%d\"} %d\n", p, ph.Position))
		require.Contains(t, string(metrics), fmt.Sprintf("journal_partition_consumer_lag{partition=\"%d\"} 0\n", p))
	}
	require.Contains(t, string(metrics), fmt.Sprintf("journal_projection_sequence %d\n", sum))

	require.Zero(t, s.shutdown(t), "serve: %s", s.errb)
	stopped := regexp.MustCompile(`stopped at sequence (\d+), checkpoint at (\d+)`).FindStringSubmatch(s.out.String())
	require.NotNil(t, stopped, s.out.String())
	require.Equal(t, stopped[1], stopped[2], "the final checkpoints hold everything")
	require.Equal(t, strconv.Itoa(total), stopped[1])

	// Without the server, the CLI records on its own; the restart resumes
	// every partition from its checkpoint and catches up.
	c.ok("-c", "gondor", "roll", "lodin", "Sigilo")
	r := c.serve()
	require.Contains(t, r.banner, "resumed from checkpoints at sequences (by partition)")
	for p := range k {
		require.Regexp(t, fmt.Sprintf(`\b%d: [1-9]\d*`, p), r.banner, "partition %d resumed from its checkpoint", p)
	}
	for _, id := range campaigns {
		var api, cliSheet map[string]any
		r.get(t, "/api/campaigns/"+id+"/characters/lodin", &api)
		require.NoError(t, json.Unmarshal([]byte(c.ok("-c", id, "--json", "character", "show", "lodin")), &cliSheet))
		require.Equal(t, cliSheet, api, "%s: the live sheet after the restart differs from a refold", id)
	}
	require.NotContains(t, r.errb.String(), "refolding", "every read came from its partition's live projector")
	res, err = http.Get(r.url + "/healthz")
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", b)
	require.Zero(t, r.shutdown(t), "serve: %s", r.errb)
}
