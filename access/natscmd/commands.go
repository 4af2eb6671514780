package natscmd

import (
	"context"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
)

// runFunc runs one command with its JSON body in campaign, on j's view
// for call c (catalog.Spec.Run).
type runFunc func(ctx context.Context, j *command.Handler, c command.Call, campaign string, body []byte) (command.Result, error)

// commandFor returns the command named name: the CLI's words joined with
// dashes, with the bodies of the HTTP API (command/catalog). The command
// that creates a campaign (the HTTP API takes it on POST /api/campaigns)
// is here one of the others: its campaign is the request's subject.
func commandFor(name string) (runFunc, bool) {
	s, ok := catalog.Lookup(name)
	if !ok {
		return nil, false
	}
	return s.Run, true
}

// Commands lists the command names the service knows (besides the read,
// access.ReadCommand).
func Commands() []string { return catalog.Names() }
