package main

import (
	"context"
	"os"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd/client"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/internal/clip"
)

// The CLI as a client of the journal's NATS command service, from another
// machine, with a user's NATS credentials only (package
// access/natscmd/client, whose invariants hold here): service mode is
// decided from --nats alone (serviceCreds); the acting user is the NATS
// user, a login naming another is refused (serviceActor); --inbox-prefix
// other than the user's is refused before anything is sent (openService).

// serviceCreds returns the user and password of --nats when the CLI is a
// client of the command service (client.Creds).
func (a *app) serviceCreds() (user, password string, ok bool) {
	var cfg *access.Config
	if a.loadAccess() == nil {
		cfg = a.access
	}
	return client.Creds(a.natsURL, cfg)
}

// remoteService is the connection of a service client.
type remoteService struct{ *client.Service }

// run sends the catalogued command name (client.Service.Run).
func (s *remoteService) run(ctx context.Context, campaign, name, request string, body []byte) (command.Result, error) {
	return s.Run(ctx, campaign, name, request, body)
}

// openService connects to --nats as the user of its URL, with the inbox
// prefix --inbox-prefix (default access.InboxPrefix(user)).
func (a *app) openService(user string) (*remoteService, error) {
	if a.service != nil {
		return a.service, nil
	}
	prefix := a.inboxPrefix
	if prefix == "" {
		prefix = access.InboxPrefix(user)
	}
	if prefix != access.InboxPrefix(user) {
		return nil, usagef("--inbox-prefix %s: the journal's command service answers %s only on %s (its NATS permissions let it subscribe to nothing else)",
			clip.Text(prefix), clip.Text(user), access.InboxPrefix(user))
	}
	s, err := client.Dial(a.natsURL, user, a.language())
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, s.Close)
	a.service = &remoteService{s}
	return a.service, nil
}

// openRemoteStore is openStore of a service client: the campaign of -c,
// read through the service, followed on its feed; it records nothing
// (commands go through RunSpec).
func (a *app) openRemoteStore(user string) (store, error) {
	s, err := a.openService(user)
	if err != nil {
		return nil, err
	}
	if a.campaign == "" {
		return nil, usagef("no campaign: pass -c/--campaign ID or set $JOURNAL_CAMPAIGN (over the NATS command service the CLI reads one campaign)")
	}
	return client.NewStore(s.Service, a.campaign), nil
}

// serviceActor checks the login against the NATS user of a service
// client: the user acts as its NATS user, and a login naming another is
// refused.
func serviceActor(user string) (string, error) {
	id, err := device.CurrentIdentity(os.Getenv)
	if err == nil && id.User != user {
		return "", usagef("--nats signs in to NATS as %s but you are %s (%s): over the journal's command service you act as your NATS user; log in as %s ('journal login %s') or use %s's credentials",
			user, id.User, id.Source, user, user, id.User)
	}
	return user, nil
}
