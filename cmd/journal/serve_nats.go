package main

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
	"github.com/campaign-journal/journal/web"
)

// errNATSListenNoAccess refuses `serve --nats-listen` without an access
// file: every client of the opened port would be anonymous.
var errNATSListenNoAccess = msgerr.New("serve: --nats-listen opens the embedded NATS server to other clients, " +
	"and needs an access file naming them: make one with " +
	"`journal --access access.json access add NAME --role gm --campaign CAMPAIGN` (it prints the credentials once), " +
	"then run `journal --access access.json serve --nats-listen ADDR`")

// checkNATS refuses what would open NATS to anonymous clients, before
// anything is opened: --nats-listen without an access file. The loopback
// share of the data folder (server.json, mode 0600, with a random token)
// stays.
func (a *app) checkNATS(o serveOptions) error {
	if o.natsListen == "" {
		return nil
	}
	if err := a.loadAccess(); err != nil {
		return err
	}
	if a.access == nil {
		return errNATSListenNoAccess
	}
	return nil
}

// exampleCredentialWarnings lists the credentials published with the
// repository that serve is about to run with: users of the access file
// with an example password or token, and an example password in a --nats
// URL.
func (a *app) exampleCredentialWarnings() []string {
	warnings := a.access.ExampleCredentials()
	for _, raw := range strings.Split(a.natsURL, ",") {
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

// warnExampleCredentials prints one warning line per example credential in
// use.
func (a *app) warnExampleCredentials() {
	for _, w := range a.exampleCredentialWarnings() {
		a.warnf("journal serve: warning: %s, known to everyone who has read the repository: change it (docs/cluster.md)", w)
	}
}

// startCommandService starts the NATS command service when an access file
// is given and users can reach it: on --nats, or on the embedded server
// opened with --nats-listen (listen); it returns a no-op stop otherwise.
// The embedded server's loopback share admits the journal's own
// credentials only, so without --nats-listen nobody could send it a
// request. On the embedded server it
// answers on a connection of its own as the responder user, whose NATS
// permissions publish to inboxes only (access.ResponderPermissions); on
// --nats it shares the journal's connection, and the service's own check
// (replies only to the requester's inbox) is the guard.
func (a *app) startCommandService(ctx context.Context, st web.Store, commands *command.Journal, logger *slog.Logger, listen string) (func(), error) {
	if a.access == nil || a.natsURL == "" && listen == "" {
		return func() {}, nil
	}
	if users, nkeys := a.access.ServerUsers(); a.natsURL == "" && len(users) == 0 && len(nkeys) == 0 {
		// Nobody in the access file signs in to NATS (HTTP-only users):
		// there is no one for a command service to answer.
		return func() {}, nil
	}
	nc, closeNC := a.nc, func() {}
	if a.srv != nil && !a.srv.Remote() {
		rc, err := a.srv.ResponderConn(nats.Name("journal command service"))
		if err != nil {
			return nil, msgerr.Errorf("serve: the NATS command service: %w", err)
		}
		nc, closeNC = rc, rc.Close
	}
	svc, err := natscmd.Start(ctx, nc, natscmd.Options{
		Access: a.access, Store: st, Commands: commands, Logger: logger,
	})
	if err != nil {
		closeNC()
		return nil, msgerr.Errorf("serve: the NATS command service: %w", err)
	}
	return func() { svc.Stop(); closeNC() }, nil
}
