// Package embeddedtest starts the real embedded NATS JetStream server for
// tests: on a fresh temporary folder, shut down when the test ends.
package embeddedtest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// Start starts an embedded server with opts (on a fresh t.TempDir() when
// opts.Dir is empty) and shuts it down when the test ends.
func Start(t testing.TB, opts embedded.Options) *embedded.Server {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	srv, err := embedded.Start(t.Context(), opts)
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	return srv
}

// Store starts an embedded server (Start) and opens the journal's store on
// it.
func Store(t testing.TB, opts embedded.Options) (*embedded.Server, *jetstore.Store) {
	t.Helper()
	srv := Start(t, opts)
	st, err := jetstore.Open(t.Context(), srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	return srv, st
}
