package recorder

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// warnings collects Retry's warnings.
type warnings []string

func (w *warnings) warnf(format string, args ...any) { *w = append(*w, fmt.Sprintf(format, args...)) }

// TestRetry: an unknown outcome is run again under the same request id,
// at most Attempts times in all, with one warning per retry; any other
// error, or a context done, ends it at once.
func TestRetry(t *testing.T) {
	ctx := context.Background()
	ok := command.Result{Events: []events.Recorded{{Seq: 7}}}

	t.Run("unknown then recorded", func(t *testing.T) {
		var w warnings
		n := 0
		res, attempt, err := Retry(ctx, Attempts, "req-1", w.warnf, func() (command.Result, error) {
			if n++; n < 3 {
				return command.Result{}, nats.ErrTimeout
			}
			return ok, nil
		})
		require.NoError(t, err)
		require.Equal(t, ok, res)
		require.Equal(t, 3, attempt)
		require.Equal(t, warnings{
			"journal: nats: timeout: trying request req-1 again (2 of 3)",
			"journal: nats: timeout: trying request req-1 again (3 of 3)",
		}, w)
	})
	t.Run("bounded", func(t *testing.T) {
		var w warnings
		n := 0
		_, attempt, err := Retry(ctx, 3, "req-2", w.warnf, func() (command.Result, error) {
			n++
			return command.Result{}, context.DeadlineExceeded
		})
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.Equal(t, 3, n)
		require.Equal(t, 3, attempt)
		require.Len(t, w, 2)
	})
	t.Run("a refusal is not retried", func(t *testing.T) {
		var w warnings
		n := 0
		refused := errors.New("no such character")
		_, attempt, err := Retry(ctx, 3, "req-3", w.warnf, func() (command.Result, error) {
			n++
			return command.Result{}, refused
		})
		require.ErrorIs(t, err, refused)
		require.Equal(t, 1, n)
		require.Equal(t, 1, attempt)
		require.Empty(t, w)
	})
	t.Run("first time", func(t *testing.T) {
		var w warnings
		res, attempt, err := Retry(ctx, 3, "req-4", w.warnf, func() (command.Result, error) { return ok, nil })
		require.NoError(t, err)
		require.Equal(t, ok, res)
		require.Equal(t, 1, attempt)
		require.Empty(t, w)
	})
	t.Run("context done", func(t *testing.T) {
		var w warnings
		done, cancel := context.WithCancel(ctx)
		cancel()
		n := 0
		_, _, err := Retry(done, 3, "req-5", w.warnf, func() (command.Result, error) {
			n++
			return command.Result{}, nats.ErrTimeout
		})
		require.ErrorIs(t, err, nats.ErrTimeout)
		require.Equal(t, 1, n)
		require.Empty(t, w)
	})
	t.Run("one attempt", func(t *testing.T) {
		var w warnings
		n := 0
		_, _, err := Retry(ctx, 1, "req-6", w.warnf, func() (command.Result, error) {
			n++
			return command.Result{}, nats.ErrTimeout
		})
		require.Error(t, err)
		require.Equal(t, 1, n)
	})
}

// TestUnknownOutcome: a timeout leaves the outcome unknown, a
// cancellation by the user does not.
func TestUnknownOutcome(t *testing.T) {
	require.True(t, UnknownOutcome(fmt.Errorf("append: %w", context.DeadlineExceeded)))
	require.True(t, UnknownOutcome(nats.ErrTimeout))
	require.True(t, UnknownOutcome(nats.ErrNoResponders))
	require.False(t, UnknownOutcome(context.Canceled))
	require.False(t, UnknownOutcome(errors.New("refused")))
}

// TestRequestID: --request-id when given, else a fresh id each time.
func TestRequestID(t *testing.T) {
	id, err := RequestID("roll-1")
	require.NoError(t, err)
	require.Equal(t, "roll-1", id)
	a, err := RequestID("")
	require.NoError(t, err)
	b, err := RequestID("")
	require.NoError(t, err)
	require.NotEmpty(t, a)
	require.NotEqual(t, a, b)
}
