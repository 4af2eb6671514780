package client

import (
	"context"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/projections"
)

// FollowFrom readies the device key k to witness while its user follows
// campaign's log (Follow), from the campaign's last sequence as load reads
// it on (0 when it cannot); open reads the campaign and its open session
// afresh. The follower's user is fixed at its start, like the journal's
// actor: a later 'journal login' (or environment) never changes who it
// witnesses as. Nil without a user.
func (c *Client) FollowFrom(ctx context.Context, campaign string, k *device.Key,
	load func(context.Context) (*projections.Campaign, error),
	open func(context.Context) (*projections.Campaign, *projections.Session, error)) *Follow {
	var start uint64
	if camp, err := load(ctx); err == nil {
		start = camp.LastSeq
	}
	user, err := c.User()
	if err != nil {
		return nil
	}
	fixed := *c
	fixed.User = func() (string, error) { return user, nil }
	return fixed.NewFollow(ctx, campaign, k, start, open)
}
