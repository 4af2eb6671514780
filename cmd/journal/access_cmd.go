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
		Long: `access manages the access file named by --access (or $JOURNAL_ACCESS): the
users, their roles and the hashes of their credentials. add and rotate print
the new credentials once; the file (mode 0600, rewritten atomically) keeps only
their hashes. nats-config writes the authorization block a nats-server of a
cluster includes. A running journal serve reads the file at start: restart it
after a change.`,
	}
	var role, campaign, passwordFile string
	var characters []string
	var noPassword, noToken bool
	add := &cobra.Command{
		Use:   "add NAME --role gm|player|dashboard|journal [--campaign C] [--character CHAR]...",
		Short: "Add a user with a random NATS password and HTTP token, printed once",
		Long: `add adds a user to the access file named by --access (created, mode 0600, if
missing), with a random NATS password and a random HTTP token. The file keeps
only their hashes (bcrypt, sha256): the credentials are printed this once.
A gm or dashboard needs --campaign (or "*"), a player --campaign and at least
one --character. --password-file writes the password to a file (mode 0600)
instead of printing it, for a service's own user (the journal's, in a
cluster).`,
		Args: cobra.ExactArgs(1),
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
		Long: `rotate replaces a user's credentials: a new random NATS password if the user
has one, and one new random HTTP token in place of all its tokens if it has
any. They are printed once (or the password written to --password-file); the
old ones stop working when journal serve and the NATS servers restart with the
file. A user that signs in to NATS with an nkey keeps it: rotate the key with
its owner.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return accessfile.Rotate(a.accessFile, args[0], rotateFile, a.accessOutput())
		},
	}
	rotate.Flags().StringVar(&rotateFile, "password-file", "", "write the new NATS password to this file (mode 0600) instead of printing it")
	var out string
	natsConfig := &cobra.Command{
		Use:   "nats-config [--out FILE]",
		Short: "Write the nats-server authorization block of the access file's users (include it from each server's config)",
		Long: `nats-config writes the authorization block of a nats-server configuration with
the users of the access file and their roles' permissions (see
deploy/nats.conf, which includes it), to stdout or to --out FILE (mode 0600,
rewritten atomically: it holds the password hashes). It refuses a file where
no user signs in to NATS, or none of role journal: the server would admit
anyone, or the journal could not connect. Reload the servers after writing
(nats-server --signal reload, or a restart).`,
		Args: cobra.NoArgs,
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
