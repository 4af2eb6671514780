package access

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/campaign-journal/journal/internal/msgerr"
	"golang.org/x/crypto/bcrypt"
)

// PasswordCost is the bcrypt cost of the passwords HashPassword makes.
const PasswordCost = 11

// NewSecret returns a random secret for a password or a token: 24 bytes of
// r (crypto/rand.Reader when nil), in hex.
func NewSecret(r io.Reader) (string, error) {
	if r == nil {
		r = rand.Reader
	}
	b := make([]byte, 24)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", msgerr.Errorf("access: secret: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// HashPassword returns the bcrypt hash of password, the form the access
// file keeps (nats-server checks it).
func HashPassword(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	if err != nil {
		return "", msgerr.Errorf("access: hash password: %w", err)
	}
	return string(h), nil
}

// With returns a new configuration: c's users (none when c is nil) and u,
// validated; a repeated name is an error wrapping ErrConfig. c is not
// changed.
func (c *Config) With(u User) (*Config, error) {
	var users []User
	if c != nil {
		users = slices.Clone(c.Users)
	}
	return c.derive(append(users, u))
}

// ErrNoUser is returned (wrapped) for a user name the configuration does
// not have.
var ErrNoUser = msgerr.New("no such user")

// Without returns a new configuration: c's users but the one named name,
// which must be there (else an error wrapping ErrNoUser). c is not changed.
func (c *Config) Without(name string) (*Config, error) {
	i, err := c.index(name)
	if err != nil {
		return nil, err
	}
	return c.derive(slices.Delete(slices.Clone(c.Users), i, i+1))
}

// Replace returns a new configuration in which u takes the place of the
// user of the same name, which must be there (else an error wrapping
// ErrNoUser); the result is validated. c is not changed.
func (c *Config) Replace(u User) (*Config, error) {
	i, err := c.index(u.Name)
	if err != nil {
		return nil, err
	}
	users := slices.Clone(c.Users)
	users[i] = u
	return c.derive(users)
}

// User returns the user named name (a copy), or an error wrapping
// ErrNoUser.
func (c *Config) User(name string) (User, error) {
	i, err := c.index(name)
	if err != nil {
		return User{}, err
	}
	u := c.Users[i]
	u.Characters = slices.Clone(u.Characters)
	u.Tokens = slices.Clone(u.Tokens)
	return u, nil
}

func (c *Config) index(name string) (int, error) {
	if c != nil {
		for i, u := range c.Users {
			if u.Name == name {
				return i, nil
			}
		}
	}
	return 0, msgerr.Errorf("%w %q", ErrNoUser, name)
}

// ServerConfig is NATSConfig for a configuration that is to lock a NATS
// server: an error wrapping ErrConfig when no user of c signs in to NATS
// (an authorization block without users would let the server admit
// anyone) or when none of them has the journal role (journal serve --nats
// could not connect, and nobody could write the stream).
func (c *Config) ServerConfig() (string, error) {
	if c == nil {
		return "", msgerr.Errorf("%w: no users", ErrConfig)
	}
	nats, journal := 0, 0
	for _, u := range c.Users {
		if u.Password == "" && u.NKey == "" {
			continue
		}
		nats++
		if u.Role == RoleJournal {
			journal++
		}
	}
	switch {
	case nats == 0:
		return "", msgerr.Errorf("%w: no user signs in to NATS (a password or an nkey): the server would admit anyone", ErrConfig)
	case journal == 0:
		return "", msgerr.Errorf("%w: no user of role journal signs in to NATS: journal serve --nats could not connect (add one: journal access add journal --role journal --no-token)", ErrConfig)
	}
	return c.NATSConfig(), nil
}

// Save writes the configuration to path as JSON, mode 0600 (it holds the
// hashes of every credential), atomically (WriteFile).
func (c *Config) Save(path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return msgerr.Errorf("access: %w", err)
	}
	return WriteFile(path, append(b, '\n'))
}

// WriteFile writes data to path with mode 0600 through a temporary file in
// the same folder, synced and then renamed over path: a reader sees the old
// content or the new, never a part, and a crash leaves the old file. A file
// replaced keeps its owner (see keepOwner).
func WriteFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return msgerr.Errorf("access: write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	fail := func(err error) error {
		tmp.Close()
		return msgerr.Errorf("access: write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		return fail(err)
	}
	if err := keepOwner(tmp, path); err != nil {
		return fail(err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return msgerr.Errorf("access: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return msgerr.Errorf("access: write %s: %w", path, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync() // the rename itself survives a crash where the folder can be synced
		d.Close()
	}
	return nil
}
