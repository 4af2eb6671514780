package audit

import (
	"context"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/replay"
)

// Restored opens the journal a restore brought back on nc (and gives it a
// secrets bucket if it was left out) and audits it as journal replay
// would: every event, up to the last one now, decoded, every revealed
// roll re-derived, every message that is not an event listed (and
// failing the audit). prefix is the JetStream API prefix, replicas those
// to open the journal with (0: the restored journal's).
func Restored(ctx context.Context, nc *nats.Conn, prefix string, replicas int) (replay.Report, error) {
	js, err := jetstream.NewWithAPIPrefix(nc, prefix)
	if err != nil {
		return replay.Report{}, err
	}
	st, err := jetstore.Open(ctx, js, jetstore.Options{Replicas: replicas})
	if err != nil {
		return replay.Report{}, msgerr.Errorf("restored, but the journal does not open on it: %w", err)
	}
	src, _, err := BoundSource(ctx, st, events.AllFilter)
	if err != nil {
		return replay.Report{}, err
	}
	rep, err := replay.Verify(ctx, src, replay.Options{})
	if err != nil {
		return replay.Report{}, msgerr.Errorf("restored, but its events do not read back: %w", err)
	}
	return rep, nil
}
