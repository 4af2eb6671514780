package memstore_test

import (
	"context"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/events/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store { return memstore.New(memstore.Options{}) })
}

func TestDedupeWindow(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s := memstore.New(memstore.Options{Now: func() time.Time { return now }, Window: time.Minute})
	e, err := events.New(events.Spec{
		Campaign: "mordor", Kind: events.KindCampaign, AggregateID: "mordor", Name: "created",
		Type: events.TypeCampaignCreated, Data: events.CampaignCreated{Name: "Mordor"},
	}, events.NewV7(func() time.Time { return now }, rand.Reader), now)
	require.NoError(t, err)
	ctx := context.Background()

	tests := []struct {
		name    string
		advance time.Duration
		want    uint64
	}{
		{"first", 0, 1},
		{"within the window", 59 * time.Second, 1},
		{"after the window", time.Minute, 2},
	}
	for _, tt := range tests {
		now = now.Add(tt.advance)
		seqs, err := s.Append(ctx, events.Expect{}, e)
		require.NoError(t, err)
		if seqs[0] != tt.want {
			t.Fatalf("%s: sequence %d, want %d", tt.name, seqs[0], tt.want)
		}
	}
}

func TestCanceledContext(t *testing.T) {
	s := memstore.New(memstore.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Last(ctx, events.AllFilter); !errors.Is(err, context.Canceled) {
		t.Fatalf("last with a canceled context: error = %v", err)
	}
}
