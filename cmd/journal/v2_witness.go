package main

// The CLI and journal-dice-v2 GM rolls: the GM's roll or attack records a
// request without commitment and waits for a player's witness (or a
// quicknet round); a player's device witnesses it (`roll witness`, or
// `log --follow` automatically); the GM resolves it unwitnessed after the
// wait or by its beacon round (`roll resolve`). The device's side is
// package device/client's (client.Client.Witness, Receipt, Follow).

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

// defaultRelay is the drand HTTP relay `roll resolve --beacon` asks.
const defaultRelay = "https://api.drand.sh"

// witnessV2 sends the user's device's signed roll.witness for a GM's
// request (client.Witness).
func (a *app) witnessV2(c *cobra.Command, keyName, character, request string) error {
	if err := a.resolveShortRequest(c, &request); err != nil {
		return err
	}
	t, err := a.openV2(c.Context(), keyName)
	if err != nil {
		return err
	}
	return a.v2Client(c, t.j).Witness(c.Context(), t.Session, character, request)
}

// resolveV2 resolves a GM's request unwitnessed or by its beacon round.
func (a *app) resolveV2(c *cobra.Command, req command.RollResolveRequest, relay string) error {
	if req.Unwitnessed == (req.Beacon || req.Signature != "") {
		return usagef("roll resolve: give --unwitnessed or --beacon")
	}
	if err := a.resolveShortRequest(c, &req.Request); err != nil {
		return err
	}
	if !req.Unwitnessed && req.Signature == "" {
		var err error
		if req.Signature, err = a.fetchBeacon(c.Context(), req.Request, relay); err != nil {
			return err
		}
	}
	req.Beacon = !req.Unwitnessed
	return a.runSpec(c, "roll-resolve", req)
}

// receiptV2 sends the user's device's signed receipt of a GM's beacon
// request (client.Receipt).
func (a *app) receiptV2(c *cobra.Command, keyName, request string) error {
	if err := a.resolveShortRequest(c, &request); err != nil {
		return err
	}
	t, err := a.openV2(c.Context(), keyName)
	if err != nil {
		return err
	}
	cl := a.v2Client(c, t.j)
	res, err := cl.Receipt(c.Context(), t.Session, request)
	if err != nil {
		return err
	}
	return cl.Report(c.Context(), t.Campaign, res)
}

// fetchBeacon fetches, from relay, the round that request of the open
// session is pinned to (client.BeaconSignature).
func (a *app) fetchBeacon(ctx context.Context, request, relay string) (string, error) {
	campaign, err := a.campaignID()
	if err != nil {
		return "", err
	}
	j, err := a.journal(ctx)
	if err != nil {
		return "", err
	}
	_, s, err := a.openSession(ctx, j, campaign)
	if err != nil {
		return "", err
	}
	return client.BeaconSignature(ctx, s, request, relay)
}

// followWitness is `log --follow`'s witness for the user's device
// (client.Follow); nil without a device key.
type followWitness struct{ f *client.Follow }

// newFollowWitness readies the user's device to witness (see
// client.Follow); nil without a device key.
func (a *app) newFollowWitness(c *cobra.Command, keyName string) *followWitness {
	ctx := c.Context()
	campaign, err := a.campaignID()
	if err != nil {
		return nil
	}
	k, err := loadKey(keyName)
	if err != nil {
		return nil
	}
	j, err := a.journal(ctx)
	if err != nil {
		return nil
	}
	var start uint64
	if camp, err := j.Load(ctx, campaign, 0); err == nil {
		start = camp.LastSeq
	}
	// The follower's user is fixed at its start, like j's actor: a later
	// 'journal login' (or environment) never changes who it witnesses as.
	user, err := a.actingUser()
	if err != nil {
		return nil
	}
	d := a.v2Client(c, j)
	d.User = func() (string, error) { return user, nil }
	return &followWitness{d.NewFollow(ctx, campaign, k, start, func(ctx context.Context) (*projections.Campaign, *projections.Session, error) {
		return a.openSession(ctx, j, campaign)
	})}
}

// pending witnesses the GM requests pending when the follow starts.
func (f *followWitness) pending() {
	if f != nil {
		f.f.Pending()
	}
}

// event witnesses the GM request r records, if it is one recorded after
// the follow began.
func (f *followWitness) event(r events.Recorded) {
	if f != nil {
		f.f.Event(r)
	}
}
