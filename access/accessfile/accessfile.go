// Package accessfile is `journal access`'s work on the access file (the
// users of package access, on disk): it adds a user with new credentials,
// lists the users, removes one, renews one's credentials, and writes the
// nats-server authorization block of them all, printing what it did.
//
// Invariants:
//   - A refused operation leaves the file as it was: the file is rewritten
//     whole (access.Config.Save: mode 0600, atomically) only after every
//     check passed and any password file was written.
//   - New secrets are printed once, by Add and Rotate (or written to a
//     password file); the access file keeps only their hashes, and List
//     prints no secret.
//   - Every result goes to Output.W, as indented JSON with Output.JSON,
//     else as English text; warnings go to Output.Warn.
package accessfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/textout"
)

// Output is where an operation prints.
type Output struct {
	// W is the command's standard output.
	W io.Writer
	// JSON prints each result as indented JSON instead of text.
	JSON bool
	// Warn prints a warning (on standard error, in the output's language).
	Warn func(format string, args ...any)
}

// emit prints v as JSON with o.JSON, or calls text to print it readably.
func (o Output) emit(v any, text func(w io.Writer)) error { return textout.Emit(o.W, o.JSON, v, text) }

// load loads the access file path for command what, which must exist.
func load(path, what string) (*access.Config, error) {
	if path == "" {
		return nil, msgerr.Errorf("access %s: give the access file with --access FILE (or $JOURNAL_ACCESS)", what)
	}
	cfg, err := access.Load(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, msgerr.Errorf("access %s: %s does not exist: add a user first (journal --access %s access add NAME --role gm --campaign CAMPAIGN)", what, path, path)
	}
	if err != nil {
		return nil, msgerr.Errorf("access %s: %w", what, err)
	}
	return cfg, nil
}

// Listing is what List prints: the file and its users, without secrets.
type Listing struct {
	File  string          `json:"file"`
	Users []access.Listed `json:"users"`
}

// List prints the users of the access file path.
func List(path string, o Output) error {
	cfg, err := load(path, "list")
	if err != nil {
		return err
	}
	out := Listing{File: path, Users: cfg.Listing()}
	return o.emit(out, func(w io.Writer) {
		tw := textout.NewTable("", "NAME", "ROLE", "CAMPAIGN", "CHARACTERS", "NATS", "TOKENS", "").AlignRight(5)
		for _, u := range out.Users {
			note := ""
			if u.Example {
				note = "example credentials: rotate them"
			}
			tw.Add(u.Name, u.Role, textout.OrDash(u.Campaign), textout.OrDash(strings.Join(u.Characters, ",")), textout.OrDash(u.NATS), strconv.Itoa(u.Tokens), note)
		}
		tw.Write(w)
	})
}

// Removed is what Remove prints.
type Removed struct {
	File string `json:"file"`
	Name string `json:"name"`
	Role string `json:"role"`
}

// Remove removes user name from the access file path.
func Remove(path, name string, o Output) error {
	cfg, err := load(path, "remove")
	if err != nil {
		return err
	}
	u, err := cfg.User(name)
	if err != nil {
		return msgerr.Errorf("access remove: %w in %s", err, path)
	}
	next, err := cfg.Without(name)
	if err != nil {
		return msgerr.Errorf("access remove: %w", err)
	}
	if err := next.Save(path); err != nil {
		return err
	}
	return o.emit(Removed{File: path, Name: name, Role: string(u.Role)}, func(w io.Writer) {
		fmt.Fprintf(w, "journal access: removed %q (%s) from %s\n", name, u.Role, path)
		fmt.Fprintln(w, "Restart journal serve (and regenerate the NATS servers' config with access nats-config) for it to take effect.")
	})
}

// Rotate gives user name of the access file path a new NATS password (if
// it has one) and one new HTTP token (if it has any), printed once, or the
// password written to passwordFile when it is not "".
func Rotate(path, name, passwordFile string, o Output) error {
	cfg, err := load(path, "rotate")
	if err != nil {
		return err
	}
	u, err := cfg.User(name)
	if err != nil {
		return msgerr.Errorf("access rotate: %w in %s", err, path)
	}
	if u.Password == "" && len(u.Tokens) == 0 {
		return msgerr.Errorf("access rotate: %q signs in with an nkey only: rotate the key with its owner", name)
	}
	if passwordFile != "" && u.Password == "" {
		return msgerr.Errorf("access rotate: %q has no NATS password to write to --password-file", name)
	}
	out, err := access.Issue(&u, path, u.Password != "", len(u.Tokens) > 0)
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
	if err := next.Save(path); err != nil {
		return err
	}
	return o.emit(out, func(w io.Writer) {
		fmt.Fprintf(w, "journal access: new credentials for %q (%s) in %s\n", name, u.Role, path)
		out.WriteText(w)
		fmt.Fprintln(w, "The old ones stop working when journal serve and the NATS servers restart with the file.")
	})
}

// NATSConfigOut is what NATSConfig prints with JSON: the file written (if
// any), the number of NATS users, and the configuration itself when no
// file was.
type NATSConfigOut struct {
	File   string `json:"file,omitempty"`
	Users  int    `json:"users"`
	Config string `json:"config,omitempty"`
}

// NATSConfig writes the nats-server authorization block of the users of
// the access file path to file (mode 0600, atomically), or to o.W when
// file is "". It warns of example credentials.
func NATSConfig(path, file string, o Output) error {
	cfg, err := load(path, "nats-config")
	if err != nil {
		return err
	}
	conf, err := cfg.ServerConfig()
	if err != nil {
		return msgerr.Errorf("access nats-config: %s: %w", path, err)
	}
	users, nkeys := cfg.ServerUsers()
	res := NATSConfigOut{File: file, Users: len(users) + len(nkeys)}
	for _, warn := range cfg.ExampleCredentials() {
		o.Warn("journal access nats-config: warning: %s", warn)
	}
	if file == "" {
		if o.JSON {
			res.Config = conf
			return o.emit(res, nil)
		}
		_, err := io.WriteString(o.W, conf)
		return err
	}
	if err := access.WriteFile(file, []byte(conf)); err != nil {
		return msgerr.Errorf("access nats-config: %w", err)
	}
	return o.emit(res, func(w io.Writer) {
		fmt.Fprintf(w, "journal access: wrote the NATS authorization of %d users to %s (reload the servers)\n", res.Users, file)
	})
}

// Add adds user name to the access file path (created if missing) with
// role, campaign and characters, and a new NATS password (with password)
// and HTTP token (with token), printed once, or the password written to
// passwordFile when it is not "".
func Add(path, name string, role access.Role, campaign string, characters []string, password, token bool, passwordFile string, o Output) error {
	if path == "" {
		return msgerr.New("access add: give the access file with --access FILE (or $JOURNAL_ACCESS)")
	}
	if !password && !token {
		return msgerr.New("access add: --no-password and --no-token together leave the user no way to sign in")
	}
	var cfg *access.Config
	if _, err := os.Stat(path); err == nil {
		if cfg, err = access.Load(path); err != nil {
			return msgerr.Errorf("access add: %w", err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return msgerr.Errorf("access add: %w", err)
	}
	if passwordFile != "" && !password {
		return msgerr.New("access add: --password-file with --no-password: there is no password to write")
	}
	if _, err := cfg.User(name); err == nil {
		return msgerr.Errorf("access add: %q is already in %s (journal access rotate %s gives it new credentials)", name, path, name)
	}
	u := access.User{Name: name, Role: role, Campaign: campaign, Characters: characters}
	out, err := access.Issue(&u, path, password, token)
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
	if err := next.Save(path); err != nil {
		return err
	}
	return o.emit(out, func(w io.Writer) {
		what := string(role)
		if campaign != "" {
			what += " of campaign " + campaign
		}
		if len(characters) > 0 {
			what += " playing " + strings.Join(characters, ", ")
		}
		fmt.Fprintf(w, "journal access: added %q (%s) to %s\n", name, what, path)
		out.WriteText(w)
	})
}
