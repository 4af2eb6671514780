package live_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/live"
)

// TestCheckpointOverTheLimitIsRefused: a value over live.MaxValue is
// refused by both stores with live.ErrTooLarge (and the value before it
// stays), while a value of exactly MaxValue is kept: the bucket takes
// what the limit says, and a checkpoint too large is an error its writer
// sees.
func TestCheckpointOverTheLimitIsRefused(t *testing.T) {
	ctx := context.Background()
	srv := embeddedtest.Start(t, embedded.Options{})
	bucket, err := live.OpenBucket(ctx, srv.JetStream(), 1)
	require.NoError(t, err)
	for name, kv := range map[string]live.KV{"memory": live.NewMemKV(), "bucket": bucket} {
		full := bytes.Repeat([]byte{'x'}, live.MaxValue)
		require.NoError(t, kv.Put(ctx, "page.k", full), name)
		err := kv.Put(ctx, "page.k", append(full, 'y'))
		require.ErrorIs(t, err, live.ErrTooLarge, name)
		require.ErrorContains(t, err, "page.k", name)
		got, err := kv.Get(ctx, "page.k")
		require.NoError(t, err, name)
		require.Equal(t, full, got, name)
		_, err = kv.Get(ctx, "page.none")
		require.ErrorIs(t, err, events.ErrNotFound, name)
	}
}
