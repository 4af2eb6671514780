package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/access"
)

// addedUser is what `journal access add` prints, the credentials once.
type addedUser struct {
	File       string   `json:"file"`
	Name       string   `json:"name"`
	Role       string   `json:"role"`
	Campaign   string   `json:"campaign,omitempty"`
	Characters []string `json:"characters,omitempty"`
	Password   string   `json:"password,omitempty"`
	Token      string   `json:"token,omitempty"`
}

// accessCommand is `journal access add`: the command that makes the
// credentials `serve --nats-listen` needs.
func (a *app) accessCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "access", Short: "Add users to the access file (--access FILE) with fresh credentials"}
	var role, campaign string
	var characters []string
	var noPassword, noToken bool
	add := &cobra.Command{
		Use:   "add NAME --role gm|player|dashboard|journal [--campaign C] [--character CHAR]...",
		Short: "Add a user with a random NATS password and HTTP token, printed once",
		Long: `add adds a user to the access file named by --access (created, mode 0600, if
missing), with a random NATS password and a random HTTP token. The file keeps
only their hashes (bcrypt, sha256): the credentials are printed this once.
A gm or dashboard needs --campaign (or "*"), a player --campaign and at least
one --character.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return a.accessAdd(args[0], access.Role(role), campaign, characters, !noPassword, !noToken)
		},
	}
	f := add.Flags()
	f.StringVar(&role, "role", "", "gm, player, dashboard or journal")
	f.StringVar(&campaign, "campaign", "", "the user's campaign (\"*\" for a gm or dashboard of every campaign)")
	f.StringArrayVar(&characters, "character", nil, "a player's character (repeat for more)")
	f.BoolVar(&noPassword, "no-password", false, "no NATS password: the user has HTTP only")
	f.BoolVar(&noToken, "no-token", false, "no HTTP token: the user has NATS only")
	cmd.AddCommand(add)
	return cmd
}

func (a *app) accessAdd(name string, role access.Role, campaign string, characters []string, password, token bool) error {
	if a.accessFile == "" {
		return errors.New("access add: give the access file with --access FILE (or $JOURNAL_ACCESS)")
	}
	if !password && !token {
		return errors.New("access add: --no-password and --no-token together leave the user no way to sign in")
	}
	var cfg *access.Config
	if _, err := os.Stat(a.accessFile); err == nil {
		if cfg, err = access.Load(a.accessFile); err != nil {
			return fmt.Errorf("access add: %w", err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("access add: %w", err)
	}
	out := addedUser{File: a.accessFile, Name: name, Role: string(role), Campaign: campaign, Characters: characters}
	u := access.User{Name: name, Role: role, Campaign: campaign, Characters: characters}
	var err error
	if password {
		if out.Password, err = access.NewSecret(nil); err != nil {
			return err
		}
		if u.Password, err = access.HashPassword(out.Password); err != nil {
			return err
		}
	}
	if token {
		if out.Token, err = access.NewSecret(nil); err != nil {
			return err
		}
		u.Tokens = []string{access.HashToken(out.Token)}
	}
	next, err := cfg.With(u)
	if err != nil {
		return fmt.Errorf("access add: %w", err)
	}
	if err := next.Save(a.accessFile); err != nil {
		return err
	}
	return a.emit(out, func(w io.Writer) {
		what := string(role)
		if campaign != "" {
			what += " of campaign " + campaign
		}
		if len(characters) > 0 {
			what += " playing " + strings.Join(characters, ", ")
		}
		fmt.Fprintf(w, "journal access: added %q (%s) to %s\n", name, what, a.accessFile)
		if out.Password != "" {
			fmt.Fprintf(w, "  NATS: user %s, password %s (inbox prefix %s)\n", name, out.Password, access.InboxPrefix(name))
		}
		if out.Token != "" {
			fmt.Fprintf(w, "  HTTP: Authorization: Bearer %s\n", out.Token)
		}
		fmt.Fprintln(w, "Shown this once: the file keeps only their hashes.")
	})
}
