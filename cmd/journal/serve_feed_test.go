package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
)

// TestServePublishesTheFeed: `journal serve` publishes every event its
// live projection folds on the core-NATS subject journalfeed.<campaign>,
// in order, its stored bytes as the body (what export writes), with its
// sequence, type and content type in the headers; a subscriber of the
// wildcard gets every campaign's.
func TestServePublishesTheFeed(t *testing.T) {
	c := newCLI(t)
	s := c.serve()
	// The journal's own connection, through the served data folder.
	srv, err := embedded.Start(context.Background(), embedded.Options{Dir: c.dir})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	require.True(t, srv.Remote())
	nc := srv.Conn()
	mordor, err := nc.SubscribeSync(access.FeedSubject("mordor"))
	require.NoError(t, err)
	every, err := nc.SubscribeSync(access.FeedSubject("*"))
	require.NoError(t, err)
	require.NoError(t, nc.Flush())

	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "sigilo")
	c.ok("campaign", "create", "moria", "--system", "ryf")

	var list []struct {
		Seq   uint64       `json:"seq"`
		Event events.Event `json:"event"`
	}
	s.get(t, "/api/campaigns/mordor/events", &list)
	stored := strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "export")), "\n")
	require.Len(t, stored, len(list))
	for i, want := range list {
		m, err := mordor.NextMsg(5 * time.Second)
		require.NoError(t, err, "event %d (seq %d) not on the feed", i, want.Seq)
		if got := m.Header.Get(access.FeedSeqHeader); got != strconv.FormatUint(want.Seq, 10) {
			t.Fatalf("event %d: %s %q, want %d", i, access.FeedSeqHeader, got, want.Seq)
		}
		if m.Header.Get("Content-Type") != access.FeedContentType || m.Header.Get(events.HeaderType) != want.Event.Type {
			t.Fatalf("event %d: headers %v", i, m.Header)
		}
		if string(m.Data) != stored[i] {
			t.Fatalf("event %d: body\n%s\nwant the stored bytes\n%s", i, m.Data, stored[i])
		}
	}
	if m, err := mordor.NextMsg(200 * time.Millisecond); err == nil {
		t.Fatalf("mordor's feed has more: %s", m.Data)
	}
	last, err := srv.JetStream().Stream(context.Background(), "JOURNAL")
	require.NoError(t, err)
	info, err := last.Info(context.Background())
	require.NoError(t, err)
	for seq := uint64(1); seq <= info.State.LastSeq; seq++ {
		m, err := every.NextMsg(5 * time.Second)
		require.NoError(t, err, "seq %d not on the wildcard feed", seq)
		require.Equal(t, strconv.FormatUint(seq, 10), m.Header.Get(access.FeedSeqHeader))
	}
}

// TestNATSToolFollowsAsPlayer: with a player's credentials, the stock nats
// tool follows a campaign as docs/cluster.md says, without the JetStream
// API: `nats request journalcmd.<user>.<campaign>.events` pages through
// the history, `nats subscribe journalfeed.<campaign>` gets what is
// recorded next — and only that: serve, started after the history was
// recorded, does not replay it on the feed.
func TestNATSToolFollowsAsPlayer(t *testing.T) {
	tool := natsTool()
	if tool == "" {
		t.Skip("the nats command-line client is not installed (go install github.com/nats-io/natscli/nats@v0.5.0; .ci/run installs it)")
	}
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "sigilo")
	history := strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "export")), "\n")
	file := writeNATSAccess(t)
	s := c.serve("--access", file, "--nats-listen", "127.0.0.1:0")
	defer func() { require.Zero(t, s.shutdown(t)) }()
	m := regexp.MustCompile(`NATS (nats://\S+)`).FindStringSubmatch(s.banner)
	require.NotNil(t, m, s.banner)
	as := []string{"--server", m[1], "--user", "bea", "--password", "bea-pw", "--inbox-prefix", "_INBOX.bea"}

	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, tool, append(as, "request", "journalcmd.bea.mordor.events", `{"from":1,"limit":2}`, "--raw")...).Output()
	require.NoError(t, err, "nats request: %s", out)
	var page struct {
		Events []struct {
			Seq uint64 `json:"seq"`
		} `json:"events"`
		Next uint64 `json:"next"`
	}
	require.NoError(t, json.Unmarshal(out, &page), "%s", out)
	require.Len(t, page.Events, 2)
	require.EqualValues(t, 3, page.Next, "the next page starts after the second event")
	out, err = exec.CommandContext(ctx, tool, append(as, "request", "journalcmd.bea.mordor.events", `{"from":1,"limit":1000}`, "--raw")...).Output()
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(out, &page), "%s", out)
	require.Len(t, page.Events, len(history), "the whole history in one page")

	// The tool buffers what it prints until it ends: roll until its one
	// message has come.
	sub := exec.CommandContext(ctx, tool, append(as, "subscribe", "journalfeed.mordor", "--count", "1")...)
	var got strings.Builder
	sub.Stdout = &got
	require.NoError(t, sub.Start())
	done := make(chan error, 1)
	go func() { done <- sub.Wait() }()
	var waitErr error
	rolls := 0
	for waiting := true; waiting; {
		select {
		case waitErr = <-done:
			waiting = false
		case <-time.After(300 * time.Millisecond):
			require.Less(t, rolls, 60, "nats subscribe received nothing")
			c.ok("--access", file, "-c", "mordor", "roll", "lodin", "pelea")
			rolls++
		}
	}
	require.NoError(t, waitErr, "nats subscribe: %s", got.String())
	// Its output: a line naming the subject, the headers, then the body.
	var body string
	for _, line := range strings.Split(got.String(), "\n") {
		if strings.HasPrefix(line, "{") {
			body = line
		}
	}
	require.Contains(t, got.String(), access.FeedContentType, "the Content-Type header")
	var e events.Event
	require.NoError(t, json.Unmarshal([]byte(body), &e), "%s", got.String())
	require.Equal(t, events.TypeRollMade, e.Type)
	require.Equal(t, "mordor", e.Campaign)
	require.Contains(t, got.String(), access.FeedSeqHeader)
}
