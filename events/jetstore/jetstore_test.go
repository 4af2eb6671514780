package jetstore_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/events/storetest"
)

// startServer starts an embedded server in a fresh folder, shut down with the test.
func startServer(t testing.TB, dir string, sync bool) *embedded.Server {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{Dir: dir, Sync: sync})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	return srv
}

func openStore(t testing.TB, srv *embedded.Server) *jetstore.Store {
	t.Helper()
	s, err := jetstore.Open(context.Background(), srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	return s
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store {
		srv := startServer(t, t.TempDir(), false)
		return rawStore{Store: openStore(t, srv), js: srv.JetStream()}
	})
}

func testEvent(t testing.TB, campaign, id, name string) events.Event {
	t.Helper()
	e, err := events.New(events.Spec{
		Campaign: campaign, Kind: events.KindCharacter, AggregateID: id, Name: name, Actor: "gm",
		Type: events.TypeCampaignCreated, Data: events.CampaignCreated{Name: name, System: "ryf"},
	}, events.NewV7(time.Now, rand.Reader), time.Now())
	require.NoError(t, err)
	return e
}

func TestStreamConfig(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	openStore(t, srv)
	ctx := t.Context()
	stream, err := srv.JetStream().Stream(ctx, jetstore.StreamName)
	require.NoError(t, err)
	cfg := stream.CachedInfo().Config
	checks := []struct {
		name string
		ok   bool
	}{
		{"subjects journal.*", len(cfg.Subjects) == 1 && cfg.Subjects[0] == "journal.*"},
		{"no republish", cfg.RePublish == nil},
		{"file storage", cfg.Storage == jetstream.FileStorage},
		{"deny delete", cfg.DenyDelete},
		{"deny purge", cfg.DenyPurge},
		{"no age limit", cfg.MaxAge == 0},
		{"no count limit", cfg.MaxMsgs == -1 && cfg.MaxMsgsPerSubject == -1},
		{"no bytes limit", cfg.MaxBytes == -1},
		{"discard new", cfg.Discard == jetstream.DiscardNew},
		{"duplicates >= 2m", cfg.Duplicates >= 2*time.Minute},
		{"atomic publish", cfg.AllowAtomicPublish},
		{"one replica", cfg.Replicas == 1},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("stream config: want %s; got %+v", c.name, cfg)
		}
	}
	kv, err := srv.JetStream().KeyValue(ctx, jetstore.SecretsBucket)
	require.NoError(t, err)
	st, err := kv.Status(ctx)
	require.NoError(t, err)
	if st.History() != 1 {
		t.Errorf("secrets history = %d, want 1", st.History())
	}

	// Reopening keeps the configuration; a short window is refused.
	openStore(t, srv)
	if _, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{Duplicates: time.Minute}); err == nil {
		t.Fatal("open with a one-minute duplicate window: no error")
	}
}

func TestDeleteAndPurgeRefused(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	s := openStore(t, srv)
	ctx := t.Context()
	_, err := s.Append(ctx, events.Expect{}, testEvent(t, "mordor", "lodin", "created"), testEvent(t, "mordor", "lodin", "roll"))
	require.NoError(t, err)
	stream, err := srv.JetStream().Stream(ctx, jetstore.StreamName)
	require.NoError(t, err)

	tests := []struct {
		name string
		do   func() error
		code jetstream.ErrorCode
	}{
		{"delete", func() error { return stream.DeleteMsg(ctx, 1) }, 10057},
		{"secure delete", func() error { return stream.SecureDeleteMsg(ctx, 2) }, 10057},
		{"purge", func() error { return stream.Purge(ctx) }, 10110},
		{"purge subject", func() error { return stream.Purge(ctx, jetstream.WithPurgeSubject("journal.mordor")) }, 10110},
	}
	for _, tt := range tests {
		err := tt.do()
		// DeleteMsg flattens the API error into text (nats.go v1.55.0), Purge keeps it.
		var apiErr *jetstream.APIError
		ok := errors.As(err, &apiErr) && apiErr.ErrorCode == tt.code ||
			err != nil && strings.Contains(err.Error(), fmt.Sprintf("err_code=%d", tt.code))
		if !ok {
			t.Errorf("%s: error = %v, want API error %d", tt.name, err, tt.code)
		}
	}
	last, err := s.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	if last != 2 {
		t.Fatalf("last = %d after refused deletes, want 2", last)
	}
}

func TestReopen(t *testing.T) {
	dir := t.TempDir()
	ctx := t.Context()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir, Sync: true})
	require.NoError(t, err)
	s := openStore(t, srv)
	in := []events.Event{testEvent(t, "mordor", "lodin", "created"), testEvent(t, "mordor", "lodin", "roll")}
	_, err = s.Append(ctx, events.Expect{}, in...)
	require.NoError(t, err)
	require.NoError(t, s.PutSecret(ctx, "mordor.s1", []byte("seed")))
	srv.Shutdown()

	s = openStore(t, startServer(t, dir, true))
	var got []string
	require.NoError(t, s.Read(ctx, events.Query{}, func(r events.Recorded) error {
		got = append(got, r.Event.ID)
		return nil
	}))
	if len(got) != 2 || got[0] != in[0].ID || got[1] != in[1].ID {
		t.Fatalf("after reopening: ids %v, want %s %s", got, in[0].ID, in[1].ID)
	}
	seed, err := s.GetSecret(ctx, "mordor.s1")
	require.NoError(t, err)
	if string(seed) != "seed" {
		t.Fatalf("secret after reopening = %q", seed)
	}
	// The dedupe window survives a restart too.
	seqs, err := s.Append(ctx, events.Expect{}, in[1])
	require.NoError(t, err)
	if seqs[0] != 2 {
		t.Fatalf("repeated append after reopening: sequence %d, want 2", seqs[0])
	}
}

// TestLongReadGoesOnWithAnOrderedConsumer reads more events than a read
// fetches by direct get before it goes on with an ordered consumer: every
// event of the campaign, in order, none of another campaign, none past the
// bound (q.To, or the last sequence when Read was called), and the tail of
// the read delivered while an ordered consumer exists.
func TestLongReadGoesOnWithAnOrderedConsumer(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	s := openStore(t, srv)
	ctx := t.Context()
	const n = 3000
	var want []uint64
	for i := range n {
		campaign := "long"
		if i%3 == 2 {
			campaign = "other"
		}
		seqs, err := s.Append(ctx, events.Expect{}, testEvent(t, campaign, fmt.Sprintf("c%d", i%7), "created"))
		require.NoError(t, err)
		if campaign == "long" {
			want = append(want, seqs[0])
		}
	}
	stream, err := srv.JetStream().Stream(ctx, jetstore.StreamName)
	require.NoError(t, err)
	filter, err := events.CampaignFilter("long")
	require.NoError(t, err)

	var got []uint64
	consumersAtEnd := 0
	err = s.Read(ctx, events.Query{Subject: filter}, func(r events.Recorded) error {
		require.Equal(t, "long", r.Event.Campaign)
		got = append(got, r.Seq)
		if len(got) == len(want) {
			names := stream.ConsumerNames(ctx)
			for range names.Name() {
				consumersAtEnd++
			}
			require.NoError(t, names.Err())
			// Appended after Read began: past its bound.
			_, err := s.Append(ctx, events.Expect{}, testEvent(t, "long", "late", "created"))
			require.NoError(t, err)
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, want, got, "every event of the campaign once, in order, and nothing after the last when Read began")
	require.Positive(t, consumersAtEnd, "the tail of a long read comes from an ordered consumer")

	got = got[:0]
	to := want[2*len(want)/3]
	require.NoError(t, s.Read(ctx, events.Query{Subject: filter, From: want[10], To: to}, func(r events.Recorded) error {
		got = append(got, r.Seq)
		return nil
	}))
	require.Equal(t, want[10:2*len(want)/3+1], got, "a bounded read ends at its bound")
}

// TestLongReadsLeaveNothingRunning: reads and follows through the ordered
// pipeline (a reader and decoding workers) that end every way they can (at
// their bound, on a callback's error, by their context, a follow at To)
// leave no goroutine behind, neither the pipeline's nor the consumer's on
// the client or on the server, and a callback's error comes back as it was.
func TestLongReadsLeaveNothingRunning(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	s := openStore(t, srv)
	ctx := t.Context()
	const n = 2000
	evs := make([]events.Event, 0, n)
	for i := range n {
		evs = append(evs, testEvent(t, "many", fmt.Sprintf("c%d", i%11), "created"))
	}
	for _, ev := range evs {
		_, err := s.Append(ctx, events.Expect{}, ev)
		require.NoError(t, err)
	}
	before := runtime.NumGoroutine()
	stop := errors.New("enough")
	for range 5 {
		count := 0
		require.NoError(t, s.Read(ctx, events.Query{}, func(events.Recorded) error { count++; return nil }))
		require.Equal(t, n, count)

		count = 0
		err := s.Read(ctx, events.Query{}, func(events.Recorded) error {
			if count++; count == 1500 {
				return stop
			}
			return nil
		})
		require.ErrorIs(t, err, stop)
		require.Equal(t, 1500, count, "nothing delivered after the callback failed")

		count = 0
		require.NoError(t, s.Follow(ctx, events.Query{To: n}, func(events.Recorded) error { count++; return nil }))
		require.Equal(t, n, count)

		fctx, cancel := context.WithCancel(ctx)
		count = 0
		err = s.Follow(fctx, events.Query{}, func(events.Recorded) error {
			if count++; count == n {
				cancel()
			}
			return nil
		})
		require.ErrorIs(t, err, context.Canceled)
		require.Equal(t, n, count)
	}
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); after > before && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond) // what was stopped may take a moment to return
	}
	require.LessOrEqual(t, after, before, "goroutines before and after the reads")
}
