package natscmd

import (
	"context"
	"fmt"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
)

// runFunc runs one command with its JSON body in campaign.
type runFunc func(ctx context.Context, j *command.Journal, campaign string, body []byte) (command.Result, error)

// campaignCreate is the one command the HTTP API takes on another route
// (POST /api/campaigns): here the campaign is the request's subject.
const campaignCreate = "campaign-create"

// commandFor returns the command named name: the CLI's words joined with
// dashes, with the bodies of the HTTP API (command/catalog).
func commandFor(name string) (runFunc, bool) {
	if name == campaignCreate {
		return func(ctx context.Context, j *command.Journal, c string, body []byte) (command.Result, error) {
			var req command.CreateCampaign
			if err := catalog.DecodeStrict(body, &req); err != nil {
				return command.Result{}, err
			}
			if req.ID == "" {
				req.ID = c
			}
			if req.ID != c {
				return command.Result{}, fmt.Errorf("%w: campaign id %q in a request for campaign %q", command.ErrInvalid, req.ID, c)
			}
			return j.ForCommand(campaignCreate, req).CreateCampaign(ctx, req)
		}, true
	}
	s, ok := catalog.Lookup(name)
	if !ok {
		return nil, false
	}
	return s.Run, true
}

// Commands lists the command names the service knows (besides the read,
// access.ReadCommand).
func Commands() []string {
	return append([]string{campaignCreate}, catalog.Names()...)
}
