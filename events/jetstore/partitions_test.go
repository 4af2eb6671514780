package jetstore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/events/storetest"
)

// partitionedRaw is rawStore on a journal of k partitions: a raw message
// on a campaign's subject goes where the journal's own connection would
// put it, its partition's subject.
type partitionedRaw struct {
	rawStore
	k int
}

func (s partitionedRaw) PublishRaw(ctx context.Context, subject string, data []byte) (uint64, error) {
	if campaign, err := events.ParseSubject(subject); err == nil {
		subject, _ = events.PartitionSubject(campaign, s.k)
	} else {
		subject = events.Prefix + ".0." + strings.TrimPrefix(subject, events.Prefix+".")
	}
	return s.rawStore.PublishRaw(ctx, subject, data)
}

func openPartitioned(t testing.TB, srv *embedded.Server, k int) *jetstore.Store {
	t.Helper()
	s, err := jetstore.Open(t.Context(), srv.JetStream(), jetstore.Options{Partitions: k})
	require.NoError(t, err)
	require.Equal(t, k, s.Partitions())
	return s
}

// TestStorePartitioned runs the store acceptance suite on a journal of
// three partitions.
func TestStorePartitioned(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store {
		srv := startServer(t, t.TempDir(), false)
		return partitionedRaw{rawStore{Store: openPartitioned(t, srv, 3), js: srv.JetStream()}, 3}
	})
}

// TestPartitionsSpread: on a journal of three partitions, campaigns go to
// the stream of their partition, each stream capturing its own subjects
// only, with sequences of its own; a campaign's events are all in one
// stream; the streams carry k in their metadata.
func TestPartitionsSpread(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	st := openPartitioned(t, srv, 3)
	ctx := t.Context()
	const campaigns = 30
	perStream := map[string]uint64{}
	for i := range campaigns {
		c := fmt.Sprint("c", i)
		subject, err := events.CampaignFilter(c)
		require.NoError(t, err)
		for range 2 {
			seqs, err := st.Append(ctx, events.ExpectLast(subject, lastOf(t, st, subject)), testEvent(t, c, "x", "e"))
			require.NoError(t, err)
			perStream[jetstore.CampaignStream(c, 3)]++
			require.Equal(t, perStream[jetstore.CampaignStream(c, 3)], seqs[0], "sequence of %s in its stream", c)
		}
	}
	require.Len(t, perStream, 3, "30 campaigns spread over the three streams")
	_, err := srv.JetStream().Stream(ctx, jetstore.StreamName)
	require.ErrorIs(t, err, jetstream.ErrStreamNotFound, "no JOURNAL stream with partitions")
	var total uint64
	for p, name := range jetstore.StreamNames(3) {
		stream, err := srv.JetStream().Stream(ctx, name)
		require.NoError(t, err)
		info := stream.CachedInfo()
		require.Equal(t, []string{fmt.Sprintf("journal.%d.*", p)}, info.Config.Subjects)
		require.Equal(t, "3", info.Config.Metadata[jetstore.PartitionsKey])
		require.Equal(t, perStream[name], info.State.Msgs, "messages of %s", name)
		require.Positive(t, info.State.Msgs)
		total += info.State.Msgs
	}
	last, err := st.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	require.Equal(t, total, last, "Last over every stream: the sum")
	// Every campaign's events read back from its stream, under its campaign subject.
	n := 0
	require.NoError(t, st.Read(ctx, events.Query{}, func(r events.Recorded) error {
		n++
		require.Equal(t, "journal."+r.Event.Campaign, r.Subject)
		return nil
	}))
	require.Equal(t, 2*campaigns, n)
	// A batch over two partitions' streams is refused, nothing stored.
	a, b := "c0", "c1"
	for i := 1; jetstore.CampaignStream(a, 3) == jetstore.CampaignStream(b, 3); i++ {
		b = fmt.Sprint("c", i+1)
	}
	_, err = st.Append(ctx, events.Expect{}, testEvent(t, a, "x", "e"), testEvent(t, b, "x", "e"))
	require.ErrorIs(t, err, events.ErrInvalidEvent)
	after, err := st.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	require.Equal(t, last, after, "nothing stored")
}

func lastOf(t *testing.T, st *jetstore.Store, filter string) uint64 {
	t.Helper()
	last, err := st.Last(t.Context(), filter)
	require.NoError(t, err)
	return last
}

// TestPartitionsFixed: the number of partitions is the journal's, fixed
// at its creation: a disagreeing Partitions is refused with one message
// naming both, and changes nothing; 0 takes the journal's.
func TestPartitionsFixed(t *testing.T) {
	tests := []struct {
		name        string
		created, as int
		ok          bool
	}{
		{"one, opened as three", 1, 3, false},
		{"three, opened as one", 3, 1, false},
		{"three, opened as four", 3, 4, false},
		{"three, opened as three", 3, 3, true},
		{"three, opened as the journal's", 3, 0, true},
		{"one (the default), opened as one", 0, 1, true},
		{"a hundred", 100, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, t.TempDir(), false)
			js := srv.JetStream()
			first, err := jetstore.Open(t.Context(), js, jetstore.Options{Partitions: tt.created})
			if tt.created > events.MaxPartitions {
				require.ErrorIs(t, err, events.ErrInvalidID)
				require.Zero(t, streams(t, js), "no stream created")
				return
			}
			require.NoError(t, err)
			_, err = first.Append(t.Context(), events.Expect{}, testEvent(t, "mordor", "x", "e"))
			require.NoError(t, err)
			before := streams(t, js)
			st, err := jetstore.Open(t.Context(), js, jetstore.Options{Partitions: tt.as})
			require.Equal(t, before, streams(t, js), "streams unchanged")
			if !tt.ok {
				require.ErrorIs(t, err, jetstore.ErrPartitions)
				require.Contains(t, err.Error(), fmt.Sprintf("this journal has %d, not %d", max(tt.created, 1), tt.as))
				return
			}
			require.NoError(t, err)
			require.Equal(t, max(tt.created, 1), st.Partitions())
		})
	}
}

// streams counts the server's streams.
func streams(t *testing.T, js jetstream.JetStream) int {
	t.Helper()
	n := 0
	for range js.StreamNames(t.Context()).Name() {
		n++
	}
	return n
}

// TestMigrateRefusesPartitions: the old layout migrates into one
// partition only; asking for more changes nothing.
func TestMigrateRefusesPartitions(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	_, err := jetstore.Migrate(t.Context(), srv.JetStream(), jetstore.Options{Partitions: 3})
	require.ErrorIs(t, err, jetstore.ErrPartitions)
	require.Zero(t, streams(t, srv.JetStream()), "nothing created")
}

// TestGuardWatchesEveryPartition: on a journal of three partitions the
// consumer guard deletes a durable consumer on each partition's stream,
// present before it starts or created after, and leaves an ordered
// consumer alone.
func TestGuardWatchesEveryPartition(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	openPartitioned(t, srv, 3)
	js, ctx := srv.JetStream(), t.Context()
	_, err := js.CreateConsumer(ctx, jetstore.PartitionStream(0), jetstream.ConsumerConfig{Durable: "before"})
	require.NoError(t, err)
	deleted := make(chan string, 8)
	stop, err := jetstore.StartGuard(ctx, js, func(name, why string, err error) {
		if err == nil {
			deleted <- name
		}
	})
	require.NoError(t, err)
	t.Cleanup(stop)
	require.Equal(t, "before", <-deleted, "swept on JOURNAL-0")
	for p, name := range jetstore.StreamNames(3) {
		durable := fmt.Sprint("after-", p)
		_, err := js.CreateConsumer(ctx, name, jetstream.ConsumerConfig{Durable: durable})
		require.NoError(t, err)
		require.Equal(t, durable, <-deleted, "deleted on %s", name)
		_, err = js.Consumer(ctx, name, durable)
		require.ErrorIs(t, err, jetstream.ErrConsumerNotFound)
	}
	ordered, err := js.OrderedConsumer(ctx, jetstore.PartitionStream(1), jetstream.OrderedConsumerConfig{})
	require.NoError(t, err)
	_, err = ordered.Info(ctx)
	require.NoError(t, err, "an ordered consumer stays")
}
