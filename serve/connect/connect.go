// Package connect connects to the journal's JetStream: an external NATS
// server (--nats) or the embedded one on a data folder (--data), started
// here, shared with other processes when asked, and opened to the access
// file's NATS users on --nats-listen alone.
//
// Invariants:
//   - Exactly one of the two: with a NATS URL no embedded server starts.
//   - Only a port opened with Listen admits the access file's users; the
//     loopback share of the data folder (server.json) admits the
//     journal's own credentials alone. A responder user (publishing to
//     inboxes only) exists only when someone may send requests there.
//   - Errors never print a URL's password (access.RedactURLs).
package connect

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Options say where the journal's JetStream is.
type Options struct {
	NATSURL string // an external server's URLs (comma-separated); "" for the embedded one
	// Name is the connection's name on the external server.
	Name string
	// DataDir is the embedded server's folder (absolute, existing).
	DataDir string
	Sync    bool   // the embedded server syncs every write
	Share   bool   // this process becomes the one others on DataDir connect through
	Listen  string // open the embedded server to Access's users on this address
	// Access is the access file (nil: none).
	Access *access.Config
}

// Conn is a connection to the journal's JetStream.
type Conn struct {
	JetStream jetstream.JetStream
	NC        *nats.Conn       // the journal's own connection
	Server    *embedded.Server // nil with a NATS URL
	Close     func()           // closes the connection, or shuts the embedded server down
}

// Open connects as o says.
func Open(ctx context.Context, o Options) (*Conn, error) {
	if o.NATSURL != "" {
		nc, err := nats.Connect(o.NATSURL, nats.Name(o.Name), nats.Timeout(5*time.Second))
		if err != nil {
			return nil, msgerr.Errorf("connect to NATS at %s: %w", access.RedactURLs(o.NATSURL), err)
		}
		js, err := jetstream.New(nc)
		if err != nil {
			nc.Close()
			return nil, err
		}
		return &Conn{JetStream: js, NC: nc, Close: nc.Close}, nil
	}
	opts := embedded.Options{Dir: o.DataDir, Sync: o.Sync, Share: o.Share, Listen: o.Listen}
	if o.Access != nil && o.Listen != "" {
		// Only a port opened with --nats-listen admits the access file's
		// users: the loopback share of the data folder (server.json)
		// admits the journal's own credentials alone.
		opts.Users, opts.NkeyUsers = o.Access.ServerUsers()
		if len(opts.Users) > 0 || len(opts.NkeyUsers) > 0 {
			// Someone may send requests over NATS: the command
			// service answers them as a user that may publish to
			// inboxes only.
			opts.Responder = access.ResponderPermissions()
		}
	}
	srv, err := embedded.Start(ctx, opts)
	if err != nil {
		return nil, msgerr.Errorf("start the embedded journal in %s: %w", o.DataDir, err)
	}
	return &Conn{JetStream: srv.JetStream(), NC: srv.Conn(), Server: srv, Close: srv.Shutdown}, nil
}
