package backup

import (
	"context"
	"os"

	"github.com/nats-io/nats.go"

	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// StartEmbedded starts the embedded server on dir (created if absent) as
// the target of a restore, without opening the journal (which would
// create its streams): a server this process owns, writing synced, never
// a journal serve running on the folder (refused, and the server shut
// down). done shuts the server down.
func StartEmbedded(ctx context.Context, dir string) (nc *nats.Conn, done func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, msgerr.Errorf("data folder %s: %w", dir, err)
	}
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir, Sync: true})
	if err != nil {
		return nil, nil, msgerr.Errorf("start the embedded journal in %s: %w", dir, err)
	}
	if srv.Remote() {
		srv.Shutdown()
		return nil, nil, msgerr.Errorf("a journal serve runs on %s: stop it, or restore into another folder", dir)
	}
	return srv.Conn(), srv.Shutdown, nil
}
