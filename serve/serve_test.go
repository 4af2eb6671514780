package serve

import (
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/feed"
)

// TestLoopbackOnly: the decision, for names too (by their addresses).
func TestLoopbackOnly(t *testing.T) {
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		switch host {
		case "localhost":
			return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")}, nil
		case "lan.example":
			return []netip.Addr{netip.MustParseAddr("192.168.1.5")}, nil
		case "both.example":
			return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("10.0.0.1")}, nil
		case "nothing.example":
			return nil, nil
		}
		return nil, errors.New("no such host")
	}
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:8080", true},
		{"127.0.0.2:8080", true},
		{"[::1]:8080", true},
		{"[::ffff:127.0.0.1]:8080", true},
		{"localhost:8080", true},
		{"0.0.0.0:8080", false},
		{":8080", false},
		{"[::]:8080", false},
		{"192.168.1.5:8080", false},
		{"lan.example:8080", false},
		{"both.example:8080", false},
		{"nothing.example:8080", false},
		{"unknown.example:8080", false},
		{"127.0.0.1", false}, // no port: not an address
	} {
		err := loopbackOnly(context.Background(), tc.addr, lookup)
		if tc.ok {
			require.NoError(t, err, tc.addr)
		} else {
			require.Error(t, err, tc.addr)
		}
	}
}

// TestNATSFeedSkipsTheHistory: serve's feed publishes what is recorded
// while it runs, not the events its projection goes over again at start
// (those at or below each partition's last sequence then): a restart
// does not replay the history on core NATS.
func TestNATSFeedSkipsTheHistory(t *testing.T) {
	srv, err := embedded.Start(context.Background(), embedded.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	nc := srv.Conn()
	sub, err := nc.SubscribeSync(access.FeedSubject("*"))
	require.NoError(t, err)
	k := 3
	lasts := []uint64{5, 5, 5}
	publish := natsFeed(nc, slog.New(slog.DiscardHandler), lasts)
	p := events.Partition("mordor", k)
	lasts[p] = 7
	for _, seq := range []uint64{6, 7, 8, 9} {
		publish(&feed.Event{Seq: seq, Campaign: "mordor", Type: events.TypeRollMade, Doc: []byte(`{}`)})
	}
	require.NoError(t, nc.Flush())
	for _, want := range []string{"8", "9"} {
		m, err := sub.NextMsg(time.Second)
		require.NoError(t, err)
		require.Equal(t, want, m.Header.Get(access.FeedSeqHeader), "only what follows mordor's partition's last sequence at start")
	}
	_, err = sub.NextMsg(100 * time.Millisecond)
	require.Error(t, err, "nothing more")
}

// TestExampleCredentialWarnings: an example password in a --nats URL
// (any of several) is warned about once; a password of one's own is not.
func TestExampleCredentialWarnings(t *testing.T) {
	require.Len(t, ExampleCredentialWarnings(nil, "nats://n1:4222, nats://journal:journal-change-me@n2:4222"), 1)
	require.Empty(t, ExampleCredentialWarnings(nil, "nats://journal:s3cret@n1:4222"))
}
