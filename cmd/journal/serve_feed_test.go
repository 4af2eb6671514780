package main

import (
	"context"
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
