package jetstore_test

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events/jetstore"
)

// TestConsumerRefused: what ordered consumers are passes; durable, push
// and long-lived consumers do not.
func TestConsumerRefused(t *testing.T) {
	ordered := jetstream.ConsumerConfig{Name: "x_1", AckPolicy: jetstream.AckNonePolicy, InactiveThreshold: 5 * time.Minute, MemoryStorage: true}
	tests := []struct {
		name    string
		change  func(c *jetstream.ConsumerConfig)
		refused bool
	}{
		{"ordered", func(*jetstream.ConsumerConfig) {}, false},
		{"ephemeral, the server's default threshold", func(c *jetstream.ConsumerConfig) { c.InactiveThreshold = 5 * time.Second }, false},
		{"durable", func(c *jetstream.ConsumerConfig) { c.Durable = "x_1" }, true},
		{"push", func(c *jetstream.ConsumerConfig) { c.DeliverSubject = "_INBOX.ana.x" }, true},
		{"no threshold", func(c *jetstream.ConsumerConfig) { c.InactiveThreshold = 0 }, true},
		{"a year's threshold", func(c *jetstream.ConsumerConfig) { c.InactiveThreshold = 365 * 24 * time.Hour }, true},
	}
	for _, tt := range tests {
		c := ordered
		tt.change(&c)
		if got := jetstore.ConsumerRefused(c); (got != "") != tt.refused {
			t.Errorf("%s: ConsumerRefused = %q, want refused %v", tt.name, got, tt.refused)
		}
	}
}
