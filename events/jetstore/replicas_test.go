package jetstore_test

import (
	"sync/atomic"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
)

// streamReplicas returns the replicas of each stream named, as the server
// reports them.
func streamReplicas(t *testing.T, js jetstream.JetStream, names ...string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, name := range names {
		st, err := js.Stream(t.Context(), name)
		require.NoError(t, err, name)
		out[name] = st.CachedInfo().Config.Replicas
	}
	return out
}

// countRequests counts the JetStream API requests on subject (a
// wildcard) that nc's server sees from now on.
func countRequests(t *testing.T, nc *nats.Conn, subject string) *atomic.Int32 {
	t.Helper()
	var n atomic.Int32
	sub, err := nc.Subscribe(subject, func(*nats.Msg) { n.Add(1) })
	require.NoError(t, err)
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	require.NoError(t, nc.Flush())
	return &n
}

// TestReplicasFixed: the journal's replicas are its own once created, on
// one partition and on three: Options.Replicas 0 takes them, the same
// number opens, another is refused with ErrReplicas and one message,
// changing nothing; a negative one is refused too.
func TestReplicasFixed(t *testing.T) {
	for _, k := range []int{1, 3} {
		t.Run(jetstore.StreamNames(k)[0], func(t *testing.T) {
			srv := startServer(t, t.TempDir(), false)
			js := srv.JetStream()
			ctx := t.Context()
			st, err := jetstore.Open(ctx, js, jetstore.Options{Partitions: k})
			require.NoError(t, err)
			require.Equal(t, 1, st.Replicas(), "a new journal has one replica")
			_, err = live.OpenBucket(ctx, js, 0)
			require.NoError(t, err)
			names := append(jetstore.StreamNames(k), "KV_"+jetstore.SecretsBucket, "KV_"+live.Bucket)
			before := streamReplicas(t, js, names...)
			for _, r := range before {
				require.Equal(t, 1, r)
			}
			r, err := jetstore.Replicas(ctx, js)
			require.NoError(t, err)
			require.Equal(t, 1, r)

			for _, replicas := range []int{0, 1} {
				st, err := jetstore.Open(ctx, js, jetstore.Options{Replicas: replicas})
				require.NoError(t, err, "replicas %d", replicas)
				require.Equal(t, 1, st.Replicas())
			}
			updates := countRequests(t, srv.Conn(), "$JS.API.STREAM.UPDATE.>")
			_, err = jetstore.Open(ctx, js, jetstore.Options{Replicas: 3})
			require.ErrorIs(t, err, jetstore.ErrReplicas)
			require.EqualError(t, err, "jetstore: replicas: this journal has 1, not 3 (the number of replicas is fixed when the journal is created)")
			_, err = jetstore.Open(ctx, js, jetstore.Options{Replicas: -1})
			require.ErrorIs(t, err, jetstore.ErrReplicas)
			require.Equal(t, before, streamReplicas(t, js, names...), "nothing changed")
			require.Zero(t, updates.Load(), "no update sent")
		})
	}
}

// TestOpenUpdatesOnlyWhatDiffers: opening a journal whose streams and
// buckets have its settings sends no update; a stream of an older
// configuration is updated to the journal's settings, once.
func TestOpenUpdatesOnlyWhatDiffers(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	js := srv.JetStream()
	ctx := t.Context()
	old := jetstore.StreamConfig(jetstore.Options{})
	old.AllowAtomicPublish = false
	_, err := js.CreateStream(ctx, old)
	require.NoError(t, err)

	// (A new secrets bucket is also made to hold each key once: an update
	// of its own, counted apart.)
	updates := countRequests(t, srv.Conn(), "$JS.API.STREAM.UPDATE."+jetstore.StreamName)
	openStore(t, srv)
	require.NoError(t, srv.Conn().Flush())
	require.Equal(t, int32(1), updates.Load(), "the older stream is updated")
	updates = countRequests(t, srv.Conn(), "$JS.API.STREAM.UPDATE.>")
	st, err := js.Stream(ctx, jetstore.StreamName)
	require.NoError(t, err)
	require.True(t, st.CachedInfo().Config.AllowAtomicPublish)
	_, err = live.OpenBucket(ctx, js, 0)
	require.NoError(t, err)

	updates.Store(0)
	creates := countRequests(t, srv.Conn(), "$JS.API.STREAM.CREATE.>")
	openStore(t, srv)
	_, err = live.OpenBucket(ctx, js, 0)
	require.NoError(t, err)
	require.NoError(t, srv.Conn().Flush())
	require.Zero(t, updates.Load(), "a journal of the journal's settings is not updated to open it")
	require.Zero(t, creates.Load())
}
