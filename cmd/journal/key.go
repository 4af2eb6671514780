package main

import (
	"crypto/rand"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/device"
)

// The device key of journal-dice-v2 (docs/design.md §3.2): the CLI's Ed25519
// key pair, kept in the user's configuration folder (device.DefaultDir:
// $JOURNAL_CONFIG/keys, else the OS's user config folder), mode 0600. The
// private key never leaves it; what the CLI asks for in a v2 session is
// signed with it.

func (a *app) keyCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "key", Short: "Your device key: it signs your v2 rolls (journal-dice-v2)"}
	var name string
	var overwrite bool
	newKey := &cobra.Command{
		Use:   "new [--name N] [--overwrite]",
		Short: "Make a device key pair; the private key stays in your configuration folder (mode 0600)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			st, err := device.UserStore(os.Getenv)
			if err != nil {
				return err
			}
			k, err := st.New(name, device.NewOptions{Rand: rand.Reader, Overwrite: overwrite})
			if err != nil {
				return err
			}
			info := k.Info()
			return a.emit(info, func(w io.Writer) {
				fmt.Fprintf(w, "New device key %s in %s\n", info.Name, info.Path)
				info.WriteText(w)
				fmt.Fprintf(w, "Register it in a campaign with: journal -c CAMPAIGN key register\n")
			})
		},
	}
	newKey.Flags().BoolVar(&overwrite, "overwrite", false, "replace an existing key of that name (what it signed stays valid)")
	show := &cobra.Command{
		Use:   "show [--name N]",
		Short: "Show your device key's fingerprint and public key (and, with -c, the key the campaign holds for you)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			st, err := device.UserStore(os.Getenv)
			if err != nil {
				return err
			}
			info, err := st.Show(name)
			if err != nil {
				return err
			}
			out := struct {
				device.Info
				User       string `json:"user"`
				Registered string `json:"registered_fingerprint,omitempty"`
				Matches    *bool  `json:"matches,omitempty"`
			}{Info: info, User: a.cliActor()}
			if a.campaign != "" {
				camp, err := a.load(c, 0)
				if err != nil {
					return err
				}
				if p := camp.Participants[out.User]; p != nil {
					m := holdsKey(camp, out.User, info.PublicKey)
					out.Registered, out.Matches = p.Fingerprint, &m
				}
			}
			return a.emit(out, func(w io.Writer) {
				fmt.Fprintf(w, "Device key %s (%s)\n", info.Name, info.Path)
				info.WriteText(w)
				switch {
				case a.campaign == "":
				case out.Matches == nil:
					fmt.Fprintf(w, "Campaign %s holds no key for %s: register it with 'journal key register'\n", a.campaign, out.User)
				case *out.Matches:
					fmt.Fprintf(w, "Campaign %s holds this key for %s.\n", a.campaign, out.User)
				default:
					fmt.Fprintf(w, "WARNING: campaign %s holds ANOTHER key for %s: fingerprint %s\n", a.campaign, out.User, out.Registered)
				}
			})
		},
	}
	for _, c := range []*cobra.Command{newKey, show} {
		c.Flags().StringVar(&name, "name", device.DefaultName, "the device key's name")
	}
	cmd.AddCommand(newKey, show, a.specCommand("key-register"), a.specCommand("key-approve"), a.specCommand("key-revoke"),
		a.keyDevicesCommand(), a.consentCommand())
	return cmd
}
