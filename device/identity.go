package device

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// A device's identity: the user this device acts as, set once
// ('journal login USER') and kept in the configuration folder beside the
// device's keys, so that what the device signs and asks for is its user's,
// never a default's (docs/design.md §3.3, keys per device).
//
// Invariants:
//   - The identity file is <config>/identity.json, mode 0600, holding one
//     valid user id (events.ValidID); a file that does not hold one is an
//     error naming the file, never read as "no identity".
//   - No identity is an answer of its own (ErrNoIdentity): nothing here
//     falls back to "gm" or to any other user.

// EnvActor is the environment variable that overrides the identity file
// for one process (scripts, tests, a GM acting for a bot).
const EnvActor = "JOURNAL_ACTOR"

// ErrNoIdentity: this device has no user set.
var ErrNoIdentity = msgerr.New("this device has no user: set it once with 'journal login USER' (the GM: 'journal login gm'), or $JOURNAL_ACTOR for one command")

// Identity is who a device acts as and where that came from.
type Identity struct {
	User string `json:"user"`
	// Source is where User came from: the identity file's path, or
	// "$JOURNAL_ACTOR".
	Source string `json:"source"`
}

// IdentityPath returns where the identity file is kept: $JOURNAL_CONFIG/
// identity.json if getenv gives it, else os.UserConfigDir()/journal/
// identity.json.
func IdentityPath(getenv func(string) string) (string, error) {
	if dir := getenv(EnvConfig); dir != "" {
		return filepath.Join(dir, "identity.json"), nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", msgerr.Errorf("identity: no configuration folder (set $%s): %w", EnvConfig, err)
	}
	return filepath.Join(base, "journal", "identity.json"), nil
}

// CurrentIdentity returns who this device acts as: $JOURNAL_ACTOR when set,
// else the identity file's user, else ErrNoIdentity.
func CurrentIdentity(getenv func(string) string) (Identity, error) {
	if u := strings.TrimSpace(getenv(EnvActor)); u != "" {
		return Identity{User: u, Source: "$" + EnvActor}, nil
	}
	path, err := IdentityPath(getenv)
	if err != nil {
		return Identity{}, err
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Identity{}, ErrNoIdentity
	}
	if err != nil {
		return Identity{}, err
	}
	var id Identity
	if err := json.Unmarshal(b, &id); err != nil {
		return Identity{}, msgerr.Errorf("identity file %s: %w", path, err)
	}
	if err := events.ValidID(id.User); err != nil {
		return Identity{}, msgerr.Errorf("identity file %s: user %q: %w", path, id.User, err)
	}
	id.Source = path
	return id, nil
}

// SetIdentity records user as this device's user (the identity file,
// mode 0600, its folder 0700) and returns the identity. user must be a
// valid user id.
func SetIdentity(getenv func(string) string, user string) (Identity, error) {
	if err := events.ValidID(user); err != nil {
		return Identity{}, msgerr.Errorf("user %q: %w", user, err)
	}
	path, err := IdentityPath(getenv)
	if err != nil {
		return Identity{}, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Identity{}, err
	}
	b, err := json.Marshal(struct {
		User string `json:"user"`
	}{user})
	if err != nil {
		return Identity{}, err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return Identity{}, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return Identity{}, err
	}
	return Identity{User: user, Source: path}, nil
}
