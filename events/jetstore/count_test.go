package jetstore_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
)

// TestSubjectCount: the count of a campaign's messages (events and
// messages that are not events), 0 for a campaign without any; the
// stream's epoch is the same after a restart of the server on the same
// folder and differs for a stream deleted and made again.
func TestSubjectCount(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	srv := startServer(t, dir, false)
	st := openStore(t, srv)
	mordor, err := events.CampaignSubject("mordor")
	require.NoError(t, err)
	count := func(st *jetstore.Store, subject string) (uint64, string) {
		n, epoch, err := st.SubjectCount(ctx, subject)
		require.NoError(t, err)
		require.NotEmpty(t, epoch)
		return n, epoch
	}
	n, epoch := count(st, mordor)
	require.Zero(t, n)
	for _, e := range []events.Event{testEvent(t, "mordor", "lodin", "a"), testEvent(t, "erebor", "bilbo", "c"), testEvent(t, "mordor", "ruisenor", "b")} {
		_, err := st.Append(ctx, events.Expect{}, e)
		require.NoError(t, err)
	}
	_, err = srv.JetStream().Publish(ctx, mordor, []byte("not an event"))
	require.NoError(t, err)
	n, again := count(st, mordor)
	require.EqualValues(t, 3, n)
	require.Equal(t, epoch, again)

	srv.Shutdown()
	srv = startServer(t, dir, false)
	st = openStore(t, srv)
	n, again = count(st, mordor)
	require.EqualValues(t, 3, n)
	require.Equal(t, epoch, again, "a restart keeps the stream's epoch")

	require.NoError(t, srv.JetStream().DeleteStream(ctx, jetstore.StreamName))
	st = openStore(t, srv)
	n, again = count(st, mordor)
	require.Zero(t, n)
	require.NotEqual(t, epoch, again, "a stream made again has another epoch")
}
