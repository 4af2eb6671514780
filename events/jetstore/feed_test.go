package jetstore_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
)

// TestFeed: the feed carries exactly the events stored, in order, with
// their sequences; a core subscription on the events' own subjects also
// sees appends the stream refused (why readers other than the journal are
// given the feed, never journal.>). A stream made before the feed existed
// gets it when the store opens.
func TestFeed(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	ctx := t.Context()
	old := jetstore.StreamConfig(jetstore.Options{})
	old.RePublish = nil
	_, err := srv.JetStream().CreateStream(ctx, old)
	require.NoError(t, err)
	s := openStore(t, srv)

	feed := make(chan *nats.Msg, 64)
	core := make(chan *nats.Msg, 64)
	sub, err := srv.Conn().ChanSubscribe(jetstore.FeedPrefix+".feed.>", feed)
	require.NoError(t, err)
	defer sub.Unsubscribe()
	sub2, err := srv.Conn().ChanSubscribe("journal.feed.>", core)
	require.NoError(t, err)
	defer sub2.Unsubscribe()

	filter := "journal.feed.>"
	a := testEvent(t, "feed", "lodin", "a")
	seqs, err := s.Append(ctx, events.ExpectLast(filter, 0), a)
	require.NoError(t, err)
	_, err = s.Append(ctx, events.ExpectLast(filter, 0), testEvent(t, "feed", "lodin", "stale"))
	require.True(t, errors.Is(err, events.ErrConcurrency), "stale append: %v", err)
	_, err = s.Append(ctx, events.ExpectLast(filter, 0), a) // a retry: stored once
	require.NoError(t, err)
	b, c := testEvent(t, "feed", "lodin", "b"), testEvent(t, "feed", "orco", "c")
	batch, err := s.Append(ctx, events.ExpectLast(filter, seqs[0]), b, c)
	require.NoError(t, err)
	require.NoError(t, srv.Conn().Flush())

	want := []struct {
		id  string
		seq uint64
	}{{a.ID, seqs[0]}, {b.ID, batch[0]}, {c.ID, batch[1]}}
	for _, w := range want {
		select {
		case m := <-feed:
			rec, err := events.DecodeRecorded(0, m.Header.Get("Nats-Subject"), m.Data)
			require.NoError(t, err)
			if rec.Event.ID != w.id || m.Header.Get("Nats-Sequence") != itoa(w.seq) {
				t.Fatalf("feed gave %s at %s, want %s at %d", rec.Event.ID, m.Header.Get("Nats-Sequence"), w.id, w.seq)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("feed: event %s never came", w.id)
		}
	}
	select {
	case m := <-feed:
		t.Fatalf("feed carried more than was stored: %s", m.Data)
	case <-time.After(200 * time.Millisecond):
	}
	// The core subscription saw the refused append (and the retry's probe).
	if n := len(core); n <= len(want) {
		t.Fatalf("core subscription saw %d messages, expected more than the %d stored", n, len(want))
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }
