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
// API counts one fold for each load of a campaign by a fresh journal (its
// count, then its read), and the requests made.
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
		require.GreaterOrEqual(t, requests, 2*loads, "a count and a read a load")
	}
}
