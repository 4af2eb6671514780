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

	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/projections"
)

func (a *app) keyDevicesCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "devices",
		Short: "List every device registered in the campaign: user, name, fingerprint, who registered it, approved or revoked",
		Args:  cobra.NoArgs,
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
