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
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

// defaultRelay is the drand HTTP relay `roll resolve --beacon` asks.
const defaultRelay = "https://api.drand.sh"

// addGMRollFlags adds the GM's flags of a v2 roll or attack.
func addGMRollFlags(f *pflag.FlagSet) {
	f.Duration("wait", command.DefaultWitnessWait, "journal-dice-v2, a GM's roll: how long it waits for a player's witness before you may resolve it --unwitnessed")
	f.Duration("beacon", 0, "journal-dice-v2, a GM's roll: pin it to the drand quicknet round published this long from now, at least 1m (e.g. 90s, 48h)")
}

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
func (a *app) resolveV2(c *cobra.Command, request string, unwitnessed, byBeacon bool, signature, relay string) error {
	if unwitnessed == (byBeacon || signature != "") {
		return usagef("roll resolve: give --unwitnessed or --beacon")
	}
	if err := a.resolveShortRequest(c, &request); err != nil {
		return err
	}
	if unwitnessed {
		return a.runSpec(c, "roll-resolve", body{"request": request, "unwitnessed": true})
	}
	if signature == "" {
		var err error
		if signature, err = a.fetchBeacon(c.Context(), request, relay); err != nil {
			return err
		}
	}
	return a.runSpec(c, "roll-resolve", body{"request": request, "beacon": true, "signature": signature})
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

// rollGMCommands are roll's subcommands for GM rolls: witness and resolve.
func (a *app) rollGMCommands() []*cobra.Command {
	var keyName, character string
	witness := &cobra.Command{
		Use:     "witness REQUEST [--name KEY] [--character C]",
		Example: "  JOURNAL_ACTOR=ana journal -c mordor roll witness 4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b",
		Short:   "Player: witness a GM's v2 roll with your device's witness chain value (its r combines every contributing device's)",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.witnessV2(c, keyName, character, args[0])
		},
	}
	witness.Flags().StringVar(&keyName, "name", device.DefaultName, "the device key's name")
	witness.Flags().StringVar(&character, "character", "", "a character you play, for the permissions (default: yours, or an NPC)")
	var unwitnessed, byBeacon bool
	var signature, relay string
	resolve := &cobra.Command{
		Use: "resolve REQUEST (--unwitnessed | --beacon [--signature HEX] [--relay URL])",
		Example: "  journal -c mordor roll resolve 4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b --unwitnessed\n" +
			"  journal -c mordor roll resolve 4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b --beacon",
		Short: "GM: resolve your v2 roll after its wait with the witnesses in (partial-witness), or none (unwitnessed), or by its drand round",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.resolveV2(c, args[0], unwitnessed, byBeacon, signature, relay)
		},
	}
	f := resolve.Flags()
	f.BoolVar(&unwitnessed, "unwitnessed", false, "after the wait: r combines the witnesses in (flagged partial-witness), or, with none, comes from the journal's server")
	f.BoolVar(&byBeacon, "beacon", false, "r from the drand quicknet round the request is pinned to")
	f.StringVar(&signature, "signature", "", "the round's signature (hex), if this machine cannot reach the beacon")
	f.StringVar(&relay, "relay", defaultRelay, "the drand HTTP relay to fetch the round from")
	var receiptKey string
	receipt := &cobra.Command{
		Use:     "receipt REQUEST [--name KEY]",
		Example: "  JOURNAL_ACTOR=ana journal -c mordor roll receipt 4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b",
		Short:   "Player: sign that your device saw a GM's beacon roll request before its round ('log --follow' does it by itself)",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			request := args[0]
			if err := a.resolveShortRequest(c, &request); err != nil {
				return err
			}
			t, err := a.openV2(c.Context(), receiptKey)
			if err != nil {
				return err
			}
			cl := a.v2Client(c, t.j)
			res, err := cl.Receipt(c.Context(), t.Session, request)
			if err != nil {
				return err
			}
			return cl.Report(c.Context(), t.Campaign, res)
		},
	}
	receipt.Flags().StringVar(&receiptKey, "name", device.DefaultName, "the device key's name")
	return []*cobra.Command{witness, resolve, receipt}
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
