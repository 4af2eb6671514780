package jetstore_test

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events/jetstore"
)

// rawStore is the store with a connection that publishes into the stream
// directly, as the journal's own connection can: what the foreign-message
// tests of storetest need.
type rawStore struct {
	*jetstore.Store
	js jetstream.JetStream
}

// PublishRaw publishes data on subject into the stream, unchecked.
func (s rawStore) PublishRaw(ctx context.Context, subject string, data []byte) (uint64, error) {
	ack, err := s.js.Publish(ctx, subject, data)
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}
