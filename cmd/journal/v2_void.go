package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
)

// A roller's consent to the void of its journal-dice-v2 roll: `journal key
// consent EVENT --reason R` signs a void.consent on the roller's device and
// prints it; the GM passes it to `journal void EVENT --reason R
// --consent-signed S --consent-signature SIG`. The audit flags every voided
// v2 roll and says whether its roller consented.

// consentCommand is `journal key consent`.
func (a *app) consentCommand() *cobra.Command {
	var keyName, reason string
	cmd := &cobra.Command{
		Use:   "consent EVENT --reason R [--name KEY]",
		Short: "Sign your consent that the GM void your v2 roll EVENT for reason R (prints it for the GM's 'journal void')",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ctx := c.Context()
			campaign, err := a.campaignID()
			if err != nil {
				return err
			}
			k, err := device.LoadUserKey(os.Getenv, keyName)
			if err != nil {
				return err
			}
			id, err := a.resolveEventID(ctx, campaign, args[0])
			if err != nil {
				return err
			}
			st, err := a.openStore(ctx, false, "")
			if err != nil {
				return err
			}
			out, err := a.thisDevice().Consent(ctx, st, campaign, func() uint64 {
				var last uint64 // the latest event this device read
				if j, err := a.journal(ctx); err == nil {
					if camp, err := j.Load(ctx, campaign, 0); err == nil {
						last = camp.LastSeq
					}
				}
				return last
			}, k, id, reason)
			if err != nil {
				return err
			}
			return a.emit(out, func(w io.Writer) { client.WriteConsent(w, a.language(), campaign, id, reason, out) })
		},
	}
	cmd.Flags().StringVar(&keyName, "name", device.DefaultName, "the device key's name")
	cmd.Flags().StringVar(&reason, "reason", "", "why the roll is voided: the GM's void must give the same")
	_ = cmd.MarkFlagRequired("reason")
	return cmd
}
