package main

// The CLI and journal-dice-v2 GM rolls: the GM's roll or attack records a
// request without commitment and waits for a player's witness (or a
// quicknet round); a player's device witnesses it (`roll witness`, or
// `log --follow` automatically); the GM resolves it unwitnessed after the
// wait or by its beacon round (`roll resolve`). The device's side is
// package device/client's (client.Client.Witness, Receipt, Follow).

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
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

// resolveV2 resolves a GM's request unwitnessed or by its beacon round
// (fetched from relay for the request of the open session, unless given:
// client.BeaconSignature).
func (a *app) resolveV2(c *cobra.Command, req command.RollResolveRequest, relay string) error {
	if req.Unwitnessed == (req.Beacon || req.Signature != "") {
		return usagef("roll resolve: give --unwitnessed or --beacon")
	}
	if err := a.resolveShortRequest(c, &req.Request); err != nil {
		return err
	}
	if !req.Unwitnessed && req.Signature == "" {
		ctx := c.Context()
		campaign, err := a.campaignID()
		if err != nil {
			return err
		}
		j, err := a.journal(ctx)
		if err != nil {
			return err
		}
		_, s, err := a.openSession(ctx, j, campaign)
		if err != nil {
			return err
		}
		if req.Signature, err = client.BeaconSignature(ctx, s, req.Request, relay); err != nil {
			return err
		}
	}
	req.Beacon = !req.Unwitnessed
	return a.RunSpec(c, "roll-resolve", req)
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

// newFollowWitness readies the user's device to witness while `log
// --follow` follows (client.FollowFrom); nil without a device key.
func (a *app) newFollowWitness(c *cobra.Command, keyName string) *client.Follow {
	ctx := c.Context()
	campaign, err := a.campaignID()
	if err != nil {
		return nil
	}
	k, err := device.LoadUserKey(os.Getenv, keyName)
	if err != nil {
		return nil
	}
	j, err := a.journal(ctx)
	if err != nil {
		return nil
	}
	return a.v2Client(c, j).FollowFrom(ctx, campaign, k, func(ctx context.Context) (*projections.Campaign, error) {
		return j.Load(ctx, campaign, 0)
	}, func(ctx context.Context) (*projections.Campaign, *projections.Session, error) {
		return a.openSession(ctx, j, campaign)
	})
}
