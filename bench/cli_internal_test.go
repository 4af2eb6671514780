package bench

import (
	"context"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// TestCLIFoldsCountedOnTheWire: the cli stage's observer of the JetStream
// API counts one fold for each load of a campaign by a fresh journal (a
// read from its first message, after its count when it asks for one), and
// the requests made.
func TestCLIFoldsCountedOnTheWire(t *testing.T) {
	ctx := context.Background()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: t.TempDir(), Listen: "127.0.0.1:0",
		Users: []*server.User{{Username: "journal", Password: "pw"}}})
	require.NoError(t, err)
	defer srv.Shutdown()
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	require.NoError(t, setupCampaign(ctx, newJournal(st), "mordor", []string{"lodin", "orco"}))

	obs, err := observe(withUser(srv.ClientURL(), "journal", "pw"), "journal.mordor")
	require.NoError(t, err)
	defer obs.close()
	for _, loads := range []int{1, 3} {
		obs.reset()
		for range loads {
			_, err := newJournal(st).Load(ctx, "mordor", 0)
			require.NoError(t, err)
		}
		folds, requests, err := obs.count()
		require.NoError(t, err)
		require.Equal(t, loads, folds, "%d loads", loads)
		require.GreaterOrEqual(t, requests, loads, "a read a load")
	}
	// A load that asks for the campaign's count first (as the CLI's, with
	// its checkpoints) is one fold, not two; counts alone are folds too.
	obs.reset()
	_, _, err = st.SubjectCount(ctx, "journal.mordor")
	require.NoError(t, err)
	_, err = newJournal(st).Load(ctx, "mordor", 0)
	require.NoError(t, err)
	folds, _, err := obs.count()
	require.NoError(t, err)
	require.Equal(t, 1, folds, "a count, then a read from the first message")
	obs.reset()
	for range 2 {
		_, _, err = st.SubjectCount(ctx, "journal.mordor")
		require.NoError(t, err)
	}
	folds, _, err = obs.count()
	require.NoError(t, err)
	require.Equal(t, 2, folds, "two counts")
}
