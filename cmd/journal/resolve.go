package main

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/replay/eventref"
)

// resolveEventID resolves arg among campaign's events in the journal
// (eventref.Resolve).
func (a *app) resolveEventID(ctx context.Context, campaign, arg string) (string, error) {
	src, err := a.campaignSource(ctx, campaign)
	if err != nil {
		return "", err
	}
	r, err := eventref.Resolve(ctx, src, arg, "campaign "+campaign)
	return r.Event.ID, err
}

// campaignSource is the journal's events of campaign up to its last one
// now, a message that is not an event said on stderr.
func (a *app) campaignSource(ctx context.Context, campaign string) (replay.Source, error) {
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return nil, err
	}
	src, _, err := audit.BoundSource(ctx, st, filter)
	if err != nil {
		return nil, err
	}
	return audit.Warned(src, a.warnForeign()), nil
}

// resolveRequestID resolves arg to the request id of one of campaign's
// journal-dice-v2 roll requests, as every command that names a request
// takes it: a whole request id (a UUID, passed on as it is: the command
// judges it); else as eventref.ResolveRequest finds it among the
// campaign's events in the journal.
func (a *app) resolveRequestID(ctx context.Context, campaign, arg string) (string, error) {
	arg = strings.ToLower(strings.TrimSpace(arg))
	if _, err := uuid.Parse(arg); err == nil && len(arg) == 36 {
		return arg, nil
	}
	src, err := a.campaignSource(ctx, campaign)
	if err != nil {
		return "", err
	}
	return eventref.ResolveRequest(ctx, src, arg, campaign)
}

// resolveShortEvent replaces *arg, an event as a user names it (see
// eventref.Resolve), by its whole id in the command's campaign.
func (a *app) resolveShortEvent(c *cobra.Command, arg *string) error {
	campaign, err := a.campaignID()
	if err != nil {
		return err
	}
	id, err := a.resolveEventID(c.Context(), campaign, *arg)
	if err != nil {
		return err
	}
	*arg = id
	return nil
}

// resolveShortRequest replaces *arg, a roll request as a user names it
// (see resolveRequestID), by its whole request id in the command's
// campaign.
func (a *app) resolveShortRequest(c *cobra.Command, arg *string) error {
	campaign, err := a.campaignID()
	if err != nil {
		return err
	}
	id, err := a.resolveRequestID(c.Context(), campaign, *arg)
	if err != nil {
		return err
	}
	*arg = id
	return nil
}
