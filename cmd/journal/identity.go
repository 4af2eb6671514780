package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/device"
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
type whoami struct {
	User   string        `json:"user"`
	Source string        `json:"source"`
	Keys   []device.Info `json:"keys"`
	// Campaign, Devices and Characters: with a campaign (-c), the
	// campaign's devices of this user and the characters it plays.
	Campaign   string               `json:"campaign,omitempty"`
	Devices    []projections.Device `json:"devices,omitempty"`
	Characters []string             `json:"characters,omitempty"`
}

func (a *app) identityCommands() []*cobra.Command {
	login := &cobra.Command{
		Use:   "login USER",
		Short: "Set who this device is (once): the user its commands and signatures are made as",
		Long: `Set this device's user, once: every command it records, and everything
its device key signs, is made as USER. It is kept in the configuration
folder ($JOURNAL_CONFIG, else the OS's user config folder) beside the
device's keys, as identity.json (mode 0600). $JOURNAL_ACTOR overrides it for
one command. There is no default user: a device that has none is refused.`,
		Example: "  journal login ana\n  journal login gm",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			user := strings.ToLower(args[0])
			prev, perr := device.CurrentIdentity(os.Getenv)
			id, err := device.SetIdentity(os.Getenv, user)
			if err != nil {
				return usagef("login: %v", err)
			}
			if env := os.Getenv(device.EnvActor); env != "" && env != user {
				a.warnf("journal: $JOURNAL_ACTOR=%s still overrides it in this shell", env)
			}
			return a.emit(id, func(w io.Writer) {
				if perr == nil && prev.User != user && prev.Source == id.Source {
					fmt.Fprintf(w, "This device was %s; it is now %s (%s)\n", prev.User, id.User, id.Source)
					return
				}
				fmt.Fprintf(w, "This device is %s (%s)\n", id.User, id.Source)
			})
		},
	}
	who := &cobra.Command{
		Use:     "whoami",
		Short:   "Who this device is: its user, its keys and, with -c, its devices and characters in the campaign",
		Example: "  journal whoami\n  journal -c mordor whoami",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			id, err := a.identity()
			if err != nil {
				return err
			}
			out := whoami{User: id.User, Source: id.Source, Keys: []device.Info{}}
			if st, err := keyStore(); err == nil {
				if keys, err := st.List(); err == nil {
					out.Keys = keys
				}
			}
			if a.campaign != "" {
				camp, err := a.load(c, 0)
				if err != nil {
					return err
				}
				out.Campaign = camp.ID
				if p := camp.Participants[id.User]; p != nil {
					out.Devices = p.Devices
				}
				for chID, ch := range camp.Characters {
					if strings.EqualFold(ch.Player, id.User) {
						out.Characters = append(out.Characters, chID)
					}
				}
				slices.Sort(out.Characters)
			}
			return a.emit(out, func(w io.Writer) { printWhoami(w, out) })
		},
	}
	return []*cobra.Command{login, who}
}

func printWhoami(w io.Writer, out whoami) {
	fmt.Fprintf(w, "You are %s (%s)\n", out.User, out.Source)
	if len(out.Keys) == 0 {
		fmt.Fprintln(w, "No device key here: make one with 'journal key new'")
	}
	for _, k := range out.Keys {
		fmt.Fprintf(w, "Device key %s: %s\n", k.Name, k.Fingerprint)
	}
	if out.Campaign == "" {
		return
	}
	if len(out.Devices) == 0 {
		fmt.Fprintf(w, "Campaign %s holds no device of yours: 'journal -c %s key register'\n", out.Campaign, out.Campaign)
	}
	for _, d := range out.Devices {
		state := "active"
		switch {
		case d.Revoked:
			state = "revoked"
		case d.NeedsApproval && !d.Approved:
			state = "not approved"
		}
		fmt.Fprintf(w, "Campaign %s: device %s %s (%s)\n", out.Campaign, d.Name, d.Fingerprint, state)
	}
	if len(out.Characters) > 0 {
		fmt.Fprintf(w, "You play %s in %s\n", strings.Join(out.Characters, ", "), out.Campaign)
	}
}

// actingUser returns the CLI's user for a command that acts, or
// device.ErrNoIdentity as a usage error.
func (a *app) actingUser() (string, error) {
	return a.cliUser() // exitCode: device.ErrNoIdentity is a usage error
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
