package jetstore

import (
	"context"
	"errors"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
)

// TestRetryNoResponders: a read that meets no responder (a bucket whose
// replicas are still electing a leader) is tried again; any other error,
// and a done context, end it at once.
func TestRetryNoResponders(t *testing.T) {
	calls := 0
	err := retryNoResponders(context.Background(), func() error {
		calls++
		if calls < 3 {
			return nats.ErrNoResponders
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 3, calls)

	other := errors.New("key not found")
	calls = 0
	err = retryNoResponders(context.Background(), func() error { calls++; return other })
	require.ErrorIs(t, err, other)
	require.Equal(t, 1, calls)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls = 0
	err = retryNoResponders(ctx, func() error { calls++; return nats.ErrNoResponders })
	require.ErrorIs(t, err, nats.ErrNoResponders)
	require.Equal(t, 1, calls)
}
