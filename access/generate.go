package access

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

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
		return "", fmt.Errorf("access: secret: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// HashPassword returns the bcrypt hash of password, the form the access
// file keeps (nats-server checks it).
func HashPassword(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	if err != nil {
		return "", fmt.Errorf("access: hash password: %w", err)
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
	return New(append(users, u)...)
}

// Save writes the configuration to path as JSON, mode 0600 (it holds the
// hashes of every credential), through a temporary file renamed over path.
func (c *Config) Save(path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("access: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("access: write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("access: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("access: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("access: write %s: %w", path, err)
	}
	return nil
}
