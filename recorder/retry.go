package recorder

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// Attempts bounds the attempts of one command whose outcome a timeout
// left unknown.
const Attempts = 3

// UnknownOutcome reports whether err leaves unknown whether the command
// was recorded: a timeout waiting for the server's answer (not a
// cancellation by the user).
func UnknownOutcome(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, jetstream.ErrAsyncPublishTimeout) || errors.Is(err, nats.ErrNoResponders)
}

// Retry runs do, the command of request id request, and again while its
// outcome is unknown (UnknownOutcome) and ctx is not done, at most
// attempts times in all; before each retry it warns through warnf. It
// returns the last attempt's result and error, and the number of that
// attempt (1: the first).
func Retry(ctx context.Context, attempts int, request string, warnf func(format string, args ...any), do func() (command.Result, error)) (command.Result, int, error) {
	for attempt := 1; ; attempt++ {
		res, err := do()
		if err == nil || !UnknownOutcome(err) || attempt >= attempts || ctx.Err() != nil {
			return res, attempt, err
		}
		// The append may have been stored: the same request id records
		// it at most once, and returns it if it was.
		warnf("journal: %v: trying request %s again (%d of %d)", err, request, attempt+1, attempts)
	}
}

// RequestID is the request id of a command: given (--request-id), or a
// fresh one when it is empty.
func RequestID(given string) (string, error) {
	if given != "" {
		return given, nil
	}
	return events.NewV7(time.Now, rand.Reader).NewID()
}
