package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/internal/msgerr"
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
			return a.accessAdd(args[0], access.Role(role), campaign, characters, !noPassword, !noToken, passwordFile)
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
		RunE:  func(*cobra.Command, []string) error { return a.accessList() },
	}
	remove := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a user from the access file (its password and tokens stop working at the next start)",
		Args:  cobra.ExactArgs(1),
		RunE:  func(_ *cobra.Command, args []string) error { return a.accessRemove(args[0]) },
	}
	var rotateFile string
	rotate := &cobra.Command{
		Use:   "rotate NAME [--password-file FILE]",
		Short: "Give a user a new NATS password and a new HTTP token, printed once; the old ones stop working",
		Args:  cobra.ExactArgs(1),
		RunE:  func(_ *cobra.Command, args []string) error { return a.accessRotate(args[0], rotateFile) },
	}
	rotate.Flags().StringVar(&rotateFile, "password-file", "", "write the new NATS password to this file (mode 0600) instead of printing it")
	var out string
	natsConfig := &cobra.Command{
		Use:   "nats-config [--out FILE]",
		Short: "Write the nats-server authorization block of the access file's users (include it from each server's config)",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return a.accessNATSConfig(out) },
	}
	natsConfig.Flags().StringVar(&out, "out", "", "write to this file instead of stdout")
	cmd.AddCommand(add, list, remove, rotate, natsConfig)
	return cmd
}

// loadAccessFile loads the access file for command what, which must exist.
func (a *app) loadAccessFile(what string) (*access.Config, error) {
	if a.accessFile == "" {
		return nil, msgerr.Errorf("access %s: give the access file with --access FILE (or $JOURNAL_ACCESS)", what)
	}
	cfg, err := access.Load(a.accessFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, msgerr.Errorf("access %s: %s does not exist: add a user first (journal --access %s access add NAME --role gm --campaign CAMPAIGN)", what, a.accessFile, a.accessFile)
	}
	if err != nil {
		return nil, msgerr.Errorf("access %s: %w", what, err)
	}
	return cfg, nil
}

type accessListing struct {
	File  string          `json:"file"`
	Users []access.Listed `json:"users"`
}

func (a *app) accessList() error {
	cfg, err := a.loadAccessFile("list")
	if err != nil {
		return err
	}
	out := accessListing{File: a.accessFile, Users: cfg.Listing()}
	return a.emit(out, func(w io.Writer) {
		tw := newTable("", "NAME", "ROLE", "CAMPAIGN", "CHARACTERS", "NATS", "TOKENS", "").alignRight(5)
		for _, u := range out.Users {
			nats, chars := u.NATS, strings.Join(u.Characters, ",")
			if nats == "" {
				nats = "-"
			}
			if chars == "" {
				chars = "-"
			}
			camp := u.Campaign
			if camp == "" {
				camp = "-"
			}
			note := ""
			if u.Example {
				note = "example credentials: rotate them"
			}
			tw.add(u.Name, u.Role, camp, chars, nats, strconv.Itoa(u.Tokens), note)
		}
		tw.write(w)
	})
}

type removedUser struct {
	File string `json:"file"`
	Name string `json:"name"`
	Role string `json:"role"`
}

func (a *app) accessRemove(name string) error {
	cfg, err := a.loadAccessFile("remove")
	if err != nil {
		return err
	}
	u, err := cfg.User(name)
	if err != nil {
		return msgerr.Errorf("access remove: %w in %s", err, a.accessFile)
	}
	next, err := cfg.Without(name)
	if err != nil {
		return msgerr.Errorf("access remove: %w", err)
	}
	if err := next.Save(a.accessFile); err != nil {
		return err
	}
	return a.emit(removedUser{File: a.accessFile, Name: name, Role: string(u.Role)}, func(w io.Writer) {
		fmt.Fprintf(w, "journal access: removed %q (%s) from %s\n", name, u.Role, a.accessFile)
		fmt.Fprintln(w, "Restart journal serve (and regenerate the NATS servers' config with access nats-config) for it to take effect.")
	})
}

func (a *app) accessRotate(name, passwordFile string) error {
	cfg, err := a.loadAccessFile("rotate")
	if err != nil {
		return err
	}
	u, err := cfg.User(name)
	if err != nil {
		return msgerr.Errorf("access rotate: %w in %s", err, a.accessFile)
	}
	if u.Password == "" && len(u.Tokens) == 0 {
		return msgerr.Errorf("access rotate: %q signs in with an nkey only: rotate the key with its owner", name)
	}
	if passwordFile != "" && u.Password == "" {
		return msgerr.Errorf("access rotate: %q has no NATS password to write to --password-file", name)
	}
	out, err := access.Issue(&u, a.accessFile, u.Password != "", len(u.Tokens) > 0)
	if err != nil {
		return err
	}
	next, err := cfg.Replace(u)
	if err != nil {
		return msgerr.Errorf("access rotate: %w", err)
	}
	if err := out.WritePasswordFile(passwordFile); err != nil {
		return msgerr.Errorf("access rotate: %w", err)
	}
	if err := next.Save(a.accessFile); err != nil {
		return err
	}
	return a.emit(out, func(w io.Writer) {
		fmt.Fprintf(w, "journal access: new credentials for %q (%s) in %s\n", name, u.Role, a.accessFile)
		out.WriteText(w)
		fmt.Fprintln(w, "The old ones stop working when journal serve and the NATS servers restart with the file.")
	})
}

type natsConfigOut struct {
	File   string `json:"file,omitempty"`
	Users  int    `json:"users"`
	Config string `json:"config,omitempty"`
}

func (a *app) accessNATSConfig(out string) error {
	cfg, err := a.loadAccessFile("nats-config")
	if err != nil {
		return err
	}
	conf, err := cfg.ServerConfig()
	if err != nil {
		return msgerr.Errorf("access nats-config: %s: %w", a.accessFile, err)
	}
	users, nkeys := cfg.ServerUsers()
	res := natsConfigOut{File: out, Users: len(users) + len(nkeys)}
	for _, warn := range cfg.ExampleCredentials() {
		a.warnf("journal access nats-config: warning: %s", warn)
	}
	if out == "" {
		if a.jsonOut {
			res.Config = conf
			return a.emit(res, nil)
		}
		_, err := io.WriteString(a.stdout, conf)
		return err
	}
	if err := access.WriteFile(out, []byte(conf)); err != nil {
		return msgerr.Errorf("access nats-config: %w", err)
	}
	return a.emit(res, func(w io.Writer) {
		fmt.Fprintf(w, "journal access: wrote the NATS authorization of %d users to %s (reload the servers)\n", res.Users, out)
	})
}

func (a *app) accessAdd(name string, role access.Role, campaign string, characters []string, password, token bool, passwordFile string) error {
	if a.accessFile == "" {
		return msgerr.New("access add: give the access file with --access FILE (or $JOURNAL_ACCESS)")
	}
	if !password && !token {
		return msgerr.New("access add: --no-password and --no-token together leave the user no way to sign in")
	}
	var cfg *access.Config
	if _, err := os.Stat(a.accessFile); err == nil {
		if cfg, err = access.Load(a.accessFile); err != nil {
			return msgerr.Errorf("access add: %w", err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return msgerr.Errorf("access add: %w", err)
	}
	if passwordFile != "" && !password {
		return msgerr.New("access add: --password-file with --no-password: there is no password to write")
	}
	if _, err := cfg.User(name); err == nil {
		return msgerr.Errorf("access add: %q is already in %s (journal access rotate %s gives it new credentials)", name, a.accessFile, name)
	}
	u := access.User{Name: name, Role: role, Campaign: campaign, Characters: characters}
	out, err := access.Issue(&u, a.accessFile, password, token)
	if err != nil {
		return err
	}
	next, err := cfg.With(u)
	if err != nil {
		return msgerr.Errorf("access add: %w", err)
	}
	if err := out.WritePasswordFile(passwordFile); err != nil {
		return msgerr.Errorf("access add: %w", err)
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
		out.WriteText(w)
	})
}
