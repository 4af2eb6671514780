package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/projections"
)

// Who the CLI is: the device's user, set once with 'journal login USER'
// (device.SetIdentity, <config>/identity.json) or, for one process,
// $JOURNAL_ACTOR. There is no default: a command that acts (records or
// signs) without a user is refused with device.ErrNoIdentity, so that a
// player's device never acts as the GM because nobody said who it is.

// identity is who the CLI is: over the journal's NATS command service
// its NATS user (serviceActor refuses a login naming another), else the
// device's (device.CurrentIdentity).
func (a *app) identity() (device.Identity, error) {
	if user, _, ok := a.serviceCreds(); ok { // remote.go
		if _, err := serviceActor(user); err != nil {
			return device.Identity{}, err
		}
		return device.Identity{User: user, Source: "--nats"}, nil
	}
	return device.CurrentIdentity(os.Getenv)
}

// cliActor is who the CLI acts as, "" when this device has no user (a
// command that only reads needs none).
func (a *app) cliActor() string {
	id, err := a.identity()
	if err != nil {
		return ""
	}
	return id.User
}

// cliUser is who the CLI acts as, for a command that acts: the identity
// file's or $JOURNAL_ACTOR's error when there is none.
func (a *app) cliUser() (string, error) {
	id, err := a.identity()
	if err != nil {
		return "", err
	}
	return id.User, nil
}

// whoami is what 'journal whoami' reports.
type whoami = client.Whoami

func (a *app) identityCommands() []*cobra.Command {
	login := &cobra.Command{
		Use:   "login USER",
		Short: "Set who this device is (once): the user its commands and signatures are made as",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			l, err := a.thisDevice().SetLogin(os.Getenv, args[0])
			if err != nil {
				return err
			}
			return a.emit(l.Identity, l.Write)
		},
	}
	who := &cobra.Command{
		Use:   "whoami",
		Short: "Who this device is: its user, its keys and, with -c, its devices and characters in the campaign",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			id, err := a.identity()
			if err != nil {
				return err
			}
			keys := []device.Info{}
			if st, err := device.UserStore(os.Getenv); err == nil {
				if k, err := st.List(); err == nil {
					keys = k
				}
			}
			var camp *projections.Campaign
			if a.campaign != "" {
				if camp, err = a.load(c, 0); err != nil {
					return err
				}
			}
			out := client.WhoamiOf(id, keys, camp)
			return a.emit(out, out.Write)
		},
	}
	return []*cobra.Command{login, who}
}

// actingUser returns the CLI's user for a command that acts, or
// device.ErrNoIdentity as a usage error.
func (a *app) actingUser() (string, error) {
	return a.cliUser() // exitcode.Of: device.ErrNoIdentity is a usage error
}

// signedAs tells the user, once per command on standard error, who its
// device signs as and with which key: every signed action shows it.
func (a *app) signedAs(user string, k *device.Key) {
	if a.jsonOut || a.signedShown {
		return
	}
	a.signedShown = true
	a.warnf("journal: signed as %s with device key %s (%s)", user, k.Name(), k.Fingerprint())
}
