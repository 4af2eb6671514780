package main

import (
	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/accessfile"
)

// addedUser is what access add and rotate print (the tests read it back).
type addedUser = access.Issued

// accessCommand is `journal access`: the credentials of the access file
// (--access), made, listed, removed and renewed by the journal alone, and
// the NATS server configuration a cluster reads from them.
func (a *app) accessCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "access",
		Short: "Manage the users of the access file (--access FILE): add, list, remove, rotate, nats-config",
	}
	var role, campaign, passwordFile string
	var characters []string
	var noPassword, noToken bool
	add := &cobra.Command{
		Use:   "add NAME --role gm|player|dashboard|journal [--campaign C] [--character CHAR]...",
		Short: "Add a user with a random NATS password and HTTP token, printed once",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return accessfile.Add(a.accessFile, args[0], access.Role(role), campaign, characters, !noPassword, !noToken, passwordFile, a.accessOutput())
		},
	}
	f := add.Flags()
	f.StringVar(&role, "role", "", "gm, player, dashboard or journal")
	f.StringVar(&campaign, "campaign", "", "the user's campaign (\"*\" for a gm or dashboard of every campaign)")
	f.StringArrayVar(&characters, "character", nil, "a player's character (repeat for more)")
	f.BoolVar(&noPassword, "no-password", false, "no NATS password: the user has HTTP only")
	f.BoolVar(&noToken, "no-token", false, "no HTTP token: the user has NATS only")
	f.StringVar(&passwordFile, "password-file", "", "write the NATS password to this file (mode 0600) instead of printing it")

	list := &cobra.Command{
		Use:   "list",
		Short: "List the users of the access file: names, roles, campaigns, which credentials (no secrets)",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return accessfile.List(a.accessFile, a.accessOutput()) },
	}
	remove := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a user from the access file (its password and tokens stop working at the next start)",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return accessfile.Remove(a.accessFile, args[0], a.accessOutput())
		},
	}
	var rotateFile string
	rotate := &cobra.Command{
		Use:   "rotate NAME [--password-file FILE]",
		Short: "Give a user a new NATS password and a new HTTP token, printed once; the old ones stop working",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return accessfile.Rotate(a.accessFile, args[0], rotateFile, a.accessOutput())
		},
	}
	rotate.Flags().StringVar(&rotateFile, "password-file", "", "write the new NATS password to this file (mode 0600) instead of printing it")
	var out string
	natsConfig := &cobra.Command{
		Use:   "nats-config [--out FILE]",
		Short: "Write the nats-server authorization block of the access file's users (include it from each server's config)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return accessfile.NATSConfig(a.accessFile, out, a.accessOutput())
		},
	}
	natsConfig.Flags().StringVar(&out, "out", "", "write to this file instead of stdout")
	cmd.AddCommand(add, list, remove, rotate, natsConfig)
	return cmd
}

// accessOutput is where the access commands print: stdout, as JSON with
// --json, and their warnings on stderr.
func (a *app) accessOutput() accessfile.Output {
	return accessfile.Output{W: a.stdout, JSON: a.jsonOut, Warn: a.warnf}
}
