package access

import (
	"fmt"
	"io"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// Issued is what 'journal access add' and 'rotate' show of a user, with
// its new credentials in clear, once: the access file keeps only their
// hashes.
type Issued struct {
	File       string   `json:"file"`
	Name       string   `json:"name"`
	Role       string   `json:"role"`
	Campaign   string   `json:"campaign,omitempty"`
	Characters []string `json:"characters,omitempty"`
	Password   string   `json:"password,omitempty"`
	// PasswordFile is where WritePasswordFile wrote the password (then not
	// shown).
	PasswordFile string `json:"password_file,omitempty"`
	Token        string `json:"token,omitempty"`
}

// Issue gives u a new random NATS password (password) and a new random
// HTTP token in place of all its tokens (token), storing only their
// hashes in u, and returns what to show of u in file, with them in clear.
func Issue(u *User, file string, password, token bool) (Issued, error) {
	out := Issued{File: file, Name: u.Name, Role: string(u.Role), Campaign: u.Campaign, Characters: u.Characters}
	var err error
	if password {
		if out.Password, err = NewSecret(nil); err != nil {
			return Issued{}, err
		}
		if u.Password, err = HashPassword(out.Password); err != nil {
			return Issued{}, err
		}
	}
	if token {
		if out.Token, err = NewSecret(nil); err != nil {
			return Issued{}, err
		}
		u.Tokens = []string{HashToken(out.Token)}
	}
	return out, nil
}

// WritePasswordFile writes the password to path (mode 0600, WriteFile)
// and clears it from what is shown; nothing when path is empty.
func (out *Issued) WritePasswordFile(path string) error {
	if path == "" {
		return nil
	}
	if out.Password == "" {
		return msgerr.New("--password-file: the user has no NATS password")
	}
	if err := WriteFile(path, []byte(out.Password+"\n")); err != nil {
		return err
	}
	out.Password, out.PasswordFile = "", path
	return nil
}

// WriteText prints the credentials, as add and rotate show them once.
func (out Issued) WriteText(w io.Writer) {
	if out.Password != "" {
		fmt.Fprintf(w, "  NATS: user %s, password %s (inbox prefix %s)\n", out.Name, out.Password, InboxPrefix(out.Name))
	}
	if out.PasswordFile != "" {
		fmt.Fprintf(w, "  NATS: user %s, password in %s (inbox prefix %s)\n", out.Name, out.PasswordFile, InboxPrefix(out.Name))
	}
	if out.Token != "" {
		fmt.Fprintf(w, "  HTTP: Authorization: Bearer %s\n", out.Token)
	}
	fmt.Fprintln(w, "Shown this once: the file keeps only their hashes.")
}

// Listed is a line of 'journal access list': what a user is, and which
// kinds of credential it has, never the credentials or their hashes.
type Listed struct {
	Name       string   `json:"name"`
	Role       string   `json:"role"`
	Campaign   string   `json:"campaign,omitempty"`
	Characters []string `json:"characters,omitempty"`
	// NATS is how the user signs in to NATS: "password", "nkey" or "" (none).
	NATS string `json:"nats"`
	// Tokens is how many HTTP tokens it has.
	Tokens int `json:"tokens"`
	// Example is set when a credential is one published with the repository
	// (deploy/access.example.json).
	Example bool `json:"example,omitempty"`
}

// Listing lists c's users, in the file's order, without their secrets.
func (c *Config) Listing() []Listed {
	out := []Listed{}
	for _, u := range c.Users {
		l := Listed{Name: u.Name, Role: string(u.Role), Campaign: u.Campaign, Characters: u.Characters, Tokens: len(u.Tokens)}
		switch {
		case u.Password != "":
			l.NATS = "password"
		case u.NKey != "":
			l.NATS = "nkey"
		}
		one, err := New(u)
		l.Example = err == nil && len(one.ExampleCredentials()) > 0
		out = append(out, l)
	}
	return out
}
