package serve

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"github.com/nats-io/nats.go"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// errNATSListenNoAccess refuses `serve --nats-listen` without an access
// file: every client of the opened port would be anonymous. The loopback
// share of the data folder (server.json, mode 0600, with a random token)
// stays.
var errNATSListenNoAccess = msgerr.New("serve: --nats-listen opens the embedded NATS server to other clients, " +
	"and needs an access file naming them: make one with " +
	"`journal --access access.json access add NAME --role gm --campaign CAMPAIGN` (it prints the credentials once), " +
	"then run `journal --access access.json serve --nats-listen ADDR`")

// ExampleCredentialWarnings lists the credentials published with the
// repository that the server is about to run with: users of the access
// file cfg with an example password or token, and an example password in
// the NATS URLs natsURL.
func ExampleCredentialWarnings(cfg *access.Config, natsURL string) []string {
	warnings := cfg.ExampleCredentials()
	for _, raw := range strings.Split(natsURL, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		if !strings.Contains(raw, "://") {
			raw = "nats://" + raw
		}
		u, err := url.Parse(raw)
		if err != nil || u.User == nil {
			continue
		}
		if pw, ok := u.User.Password(); ok && access.ExamplePassword(pw) {
			warnings = append(warnings, fmt.Sprintf("--nats signs in as %q with the example password of deploy/access.example.json", u.User.Username()))
			break
		}
	}
	return warnings
}

// startCommandService starts the NATS command service when an access file
// is given and users can reach it: on --nats, or on the embedded server
// opened with --nats-listen; it returns a no-op stop otherwise.
// The embedded server's loopback share admits the journal's own
// credentials only, so without --nats-listen nobody could send it a
// request. On the embedded server it
// answers on a connection of its own as the responder user, whose NATS
// permissions publish to inboxes only (access.ResponderPermissions); on
// --nats it shares the journal's connection, and the service's own check
// (replies only to the requester's inbox) is the guard.
func startCommandService(ctx context.Context, o Options, j Journal, commands *command.Handler, logger *slog.Logger) (func(), error) {
	if o.Access == nil || o.NATSURL == "" && o.NATSListen == "" {
		return func() {}, nil
	}
	if users, nkeys := o.Access.ServerUsers(); o.NATSURL == "" && len(users) == 0 && len(nkeys) == 0 {
		// Nobody in the access file signs in to NATS (HTTP-only users):
		// there is no one for a command service to answer.
		return func() {}, nil
	}
	nc, closeNC := j.Conn, func() {}
	if j.Embedded != nil && !j.Embedded.Remote() {
		rc, err := j.Embedded.ResponderConn(nats.Name("journal command service"))
		if err != nil {
			return nil, msgerr.Errorf("serve: the NATS command service: %w", err)
		}
		nc, closeNC = rc, rc.Close
	}
	svc, err := natscmd.Start(ctx, nc, natscmd.Options{
		Access: o.Access, Store: j.Store, Commands: commands, Logger: logger,
	})
	if err != nil {
		closeNC()
		return nil, msgerr.Errorf("serve: the NATS command service: %w", err)
	}
	return func() { svc.Stop(); closeNC() }, nil
}
