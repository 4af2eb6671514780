package main

// Devices hold keys, not users (docs/design.md §3.3): `journal key register`
// (one's own device, with its proof of possession; or, the GM's, a bare
// key for someone else), `key approve`, `key revoke`, `key devices`, and
// the announcement on every command that reads the campaign of a device
// someone else added to the acting user's name.

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/projections"
)

func (a *app) keyRegisterCommand(name *string) *cobra.Command {
	var pub, role, devName, character string
	register := &cobra.Command{
		Use:   "register [USER --public-key HEX] [--role player|gm] [--device-name NAME]",
		Short: "Register a device key in the campaign: your own (no USER), or, as the GM, another user's",
		Long: `Register a device public key in the campaign (journal-dice-v2).

Without USER it registers your own device key (--name) for you (the user
'journal login' set, or $JOURNAL_ACTOR; there is no default), with a device.register signed by that key (proof that you hold
it). A user may have several devices: a second one is flagged key-by-other
until another of your devices approves it ('journal key approve FINGERPRINT').

USER --public-key HEX is the GM's: a bare key for someone else (a lost
phone). It is allowed, flagged key-by-other by the audit and announced to
USER on every page and command until USER approves or revokes it. A key is
registered once: nothing replaces another registered key.`,
		Example: `  journal -c mordor key register
  journal -c mordor key register ana --public-key 3b6a27bc…`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			me, err := a.actingUser() // identity.go: no default user
			if err != nil {
				return err
			}
			user := me
			if len(args) == 1 {
				user = args[0]
			}
			d := a.thisDevice()
			if user != me || pub != "" {
				req, err := d.RegisterOther(me, user, role, devName, pub)
				if err != nil {
					return err
				}
				return a.runSpec(c, "key-register", req)
			}
			k, err := loadKey(*name)
			if err != nil {
				return err
			}
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			req, err := d.RegisterOwn(c.Context(), camp, k, user, role, devName, character)
			if err != nil {
				return err
			}
			return a.runSpec(c, "key-register", req)
		},
	}
	register.Flags().StringVar(&pub, "public-key", "", "the user's public key: 64 hex digits, as 'journal key show' prints it")
	register.Flags().StringVar(&role, "role", "", "player or gm (default: player; gm for the GM's own key)")
	register.Flags().StringVar(&character, "character", "", "one of your characters, for the permissions of a player over NATS or HTTP (default: yours in the campaign)")
	register.Flags().StringVar(&devName, "device-name", "", "what the device is, as the audit lists it (laptop, phone)")
	return register
}

func (a *app) keyApproveCommand(name *string) *cobra.Command {
	return &cobra.Command{
		Use:     "approve FINGERPRINT [--name N]",
		Short:   "Approve another device of yours, signing with this one (--name): it is no longer flagged key-by-other",
		Example: "  journal -c mordor key approve 1a2b:3c4d:5e6f:7a8b:9c0d:1e2f:3a4b:5c6d",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			k, err := loadKey(*name)
			if err != nil {
				return err
			}
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			req, err := a.thisDevice().Approve(c.Context(), camp, k, args[0])
			if err != nil {
				return err
			}
			if req.Character == "" { // no character yet: for the permissions, the catalogue needs one
				return a.record(c, func(j *command.Handler, campaign string) (command.Result, error) {
					return j.ApproveDevice(c.Context(), campaign, req)
				})
			}
			return a.runSpec(c, "key-approve", req)
		},
	}
}

func (a *app) keyRevokeCommand(name *string) *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:   "revoke FINGERPRINT [--reason R] [--name N]",
		Short: "Revoke a device: one of yours, signed with this device (--name); or, as the GM, anyone's (flagged revoked-by-other)",
		Long: `Revoke a device of the campaign: what it signs from then on is refused.

A device of yours is revoked with a device.revoke signed by one of your active
devices (this one, --name; the revoked one itself, or another). The GM may
revoke anyone's device without signing (a lost phone): the audit flags it
revoked-by-other.`,
		Example: "  journal -c mordor key revoke 1a2b:3c4d:5e6f:7a8b:9c0d:1e2f:3a4b:5c6d --reason 'not mine'",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			req, err := a.thisDevice().Revoke(c.Context(), camp, func() (*device.Key, error) { return loadKey(*name) }, args[0], reason)
			if err != nil {
				return err
			}
			if req.Character == "" { // as key approve
				return a.record(c, func(j *command.Handler, campaign string) (command.Result, error) {
					return j.RevokeDevice(c.Context(), campaign, req)
				})
			}
			return a.runSpec(c, "key-revoke", req)
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why the device is revoked (lost, not mine)")
	return cmd
}

func (a *app) keyDevicesCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "devices",
		Short:   "List every device registered in the campaign: user, name, fingerprint, who registered it, approved or revoked",
		Example: "  journal -c mordor key devices",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			out := client.DeviceLines(camp)
			return a.emit(out, func(w io.Writer) {
				if len(out) == 0 {
					fmt.Fprintf(w, "Campaign %s has no device registered.\n", camp.ID)
				}
				for _, d := range out {
					client.WriteDeviceLine(w, d)
				}
			})
		},
	}
}

// announceDevices warns, once per command, of every device of the acting
// user's flagged key-by-other and neither approved nor revoked (docs/design.md
// §3.3: "the GM added a device to your name on …").
func (a *app) announceDevices(camp *projections.Campaign) {
	if a.announced || camp == nil {
		return
	}
	a.announced = true
	a.thisDevice().Announce(camp)
}

// holdsKey reports whether pub is an active device of user in camp.
func holdsKey(camp *projections.Campaign, user, pub string) bool {
	return client.HoldsKey(camp, user, pub)
}
