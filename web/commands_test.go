package web_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/web"
)

// TestSharedCommands proves that Options.Commands runs the server's
// commands (so that `journal serve` shares one journal, and its cache,
// between HTTP and the NATS service): the events carry its clock.
func TestSharedCommands(t *testing.T) {
	at := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	var shared *command.Handler
	h := newHarnessWith(t, memBackend(), func(o *web.Options) {
		shared = command.New(o.Store, command.Options{Clock: func() time.Time { return at }})
		o.Commands = shared
	})
	r := h.do(http.MethodPost, "/api/campaigns", `{"id":"mordor","system":"ryf"}`)
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	var got []events.Event
	require.NoError(t, h.store.Read(context.Background(), events.Query{}, func(rec events.Recorded) error {
		got = append(got, rec.Event)
		return nil
	}))
	require.Len(t, got, 1)
	require.True(t, got[0].Time.Equal(at), "event time %v: not the shared journal's clock", got[0].Time)
	require.Equal(t, "campaign-create", got[0].Command, "the campaign is created through the catalogue, which names the command")
	// The shared journal sees what the server recorded.
	c, err := shared.Load(context.Background(), "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, "ryf", c.System)
}
