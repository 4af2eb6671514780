// Package device keeps a CLI user's Ed25519 device keys (journal-dice-v2,
// docs/design.md §3.2): the private key that signs what the user's device asks
// the journal for. It is the I/O edge around package signed.
//
// Keys live in one folder, one file per key name:
//
//	$JOURNAL_CONFIG/keys/<name>.key            when JOURNAL_CONFIG is set
//	<os.UserConfigDir()>/journal/keys/<name>.key otherwise
//	                                           (~/.config/journal/keys on Linux)
//
// A key file is the private key as PKCS #8 in PEM ("PRIVATE KEY"), the form
// `openssl pkey` reads.
//
// Invariants:
//   - A key file is created with mode 0600 in a folder made with mode 0700,
//     written to a temporary file, synced, then linked (or, with Overwrite,
//     renamed) into place: a reader sees no key or a whole key, never part.
//   - An existing key is never replaced unless the caller says Overwrite;
//     two concurrent creations of one name leave exactly one key, and the
//     loser gets ErrExists.
//   - A key file that group or others can read or write, a key folder that
//     they can write, or a key path that is not a regular file (a symlink)
//     is refused with ErrInsecure, and nothing is signed with it (on Unix;
//     Windows has no such mode bits).
//   - Key names are slugs, so a name cannot leave the folder.
package device

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/signed"
)

// EnvConfig names the environment variable that overrides the user's
// configuration folder (tests, several identities on one machine).
const EnvConfig = "JOURNAL_CONFIG"

// DefaultName is the key name used when the user gives none.
const DefaultName = "default"

// Ext is the key files' extension.
const Ext = ".key"

// maxKeyFile bounds what Load reads: a PEM Ed25519 key is 119 bytes.
const maxKeyFile = 4 << 10

const pemType = "PRIVATE KEY"

// Errors callers check with errors.Is.
var (
	// ErrNotFound: no key file of that name.
	ErrNotFound = msgerr.New("device key not found")
	// ErrExists: a key of that name exists and Overwrite was not given.
	ErrExists = msgerr.New("device key already exists")
	// ErrInsecure: the key file or folder can be read or changed by others,
	// or is not a regular file.
	ErrInsecure = msgerr.New("device key file is not private")
	// ErrMalformed: the file is not a PEM PKCS #8 Ed25519 private key.
	ErrMalformed = msgerr.New("malformed device key file")
	// ErrInvalidName: a key name that is not a slug.
	ErrInvalidName = msgerr.New("invalid device key name")
)

// DefaultDir returns the key folder: $JOURNAL_CONFIG/keys if getenv gives
// it, else os.UserConfigDir()/journal/keys. getenv is os.Getenv in the
// binary (injected for tests).
func DefaultDir(getenv func(string) string) (string, error) {
	if dir := getenv(EnvConfig); dir != "" {
		return filepath.Join(dir, "keys"), nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", msgerr.Errorf("device keys: no configuration folder (set $%s): %w", EnvConfig, err)
	}
	return filepath.Join(base, "journal", "keys"), nil
}

// Store is a folder of device keys.
type Store struct {
	dir string
}

// NewStore returns the store of the key folder dir (see DefaultDir). The
// folder is created when the first key is.
func NewStore(dir string) Store { return Store{dir: dir} }

// Dir returns the key folder.
func (s Store) Dir() string { return s.dir }

// Path returns where the key called name is kept.
func (s Store) Path(name string) (string, error) {
	if err := events.ValidID(name); err != nil {
		return "", msgerr.Errorf("%w: %w", ErrInvalidName, err)
	}
	return filepath.Join(s.dir, name+Ext), nil
}

// Key is a loaded device key.
type Key struct {
	name string
	path string
	priv ed25519.PrivateKey
}

// Name returns the key's name.
func (k *Key) Name() string { return k.name }

// Path returns the key's file.
func (k *Key) Path() string { return k.path }

// Public returns the public key, the one registered in campaigns.
func (k *Key) Public() signed.PublicKey { return signed.PublicKeyOf(k.priv) }

// Fingerprint returns the public key's fingerprint (signed.Fingerprint),
// the one the user compares with what the journal shows.
func (k *Key) Fingerprint() string { return k.Public().Fingerprint() }

// Sign signs a signed string (signed.Sign).
func (k *Key) Sign(signedString string) string { return signed.Sign(k.priv, signedString) }

// Seal encodes m (signed.Encode) and signs it: the signed string and its
// signature, as the device sends them.
func (k *Key) Seal(m signed.Message) (signedString, signature string, err error) {
	s, err := signed.Encode(m)
	if err != nil {
		return "", "", err
	}
	return s, k.Sign(s), nil
}

// Info describes a key for `journal key show`: nothing secret.
type Info struct {
	Name        string `json:"name"`
	Path        string `json:"path"`
	PublicKey   string `json:"public_key"`
	Fingerprint string `json:"fingerprint"`
}

// Info returns the key's description.
func (k *Key) Info() Info {
	return Info{Name: k.name, Path: k.path, PublicKey: k.Public().String(), Fingerprint: k.Fingerprint()}
}

// NewOptions tunes Store.New.
type NewOptions struct {
	// Rand is the source of the key (crypto/rand.Reader in the binary).
	Rand io.Reader
	// Overwrite replaces an existing key of the same name. The old key is
	// lost: whatever it signed stays valid, but the user can no longer sign
	// as it.
	Overwrite bool
}

// New makes a key pair called name and stores its private key. Without
// opts.Overwrite an existing key is kept and ErrExists returned.
func (s Store) New(name string, opts NewOptions) (*Key, error) {
	path, err := s.Path(name)
	if err != nil {
		return nil, err
	}
	if opts.Rand == nil {
		return nil, msgerr.New("device keys: no randomness source")
	}
	if !opts.Overwrite {
		if _, err := os.Lstat(path); err == nil {
			return nil, msgerr.Errorf("%w: %s (keep it, or overwrite it explicitly)", ErrExists, path)
		}
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, msgerr.Errorf("device keys: %w", err)
	}
	if err := checkDir(s.dir); err != nil {
		return nil, err
	}
	_, priv, err := ed25519.GenerateKey(opts.Rand)
	if err != nil {
		return nil, msgerr.Errorf("device keys: generate: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, msgerr.Errorf("device keys: encode: %w", err)
	}
	data := pem.EncodeToMemory(&pem.Block{Type: pemType, Bytes: der})
	if err := writeAtomic(s.dir, path, data, opts.Overwrite); err != nil {
		return nil, err
	}
	return &Key{name: name, path: path, priv: priv}, nil
}

// writeAtomic writes data to a private temporary file in dir, syncs it and
// puts it at path: os.Link (fails if path exists) or, to overwrite, os.Rename.
func writeAtomic(dir, path string, data []byte, overwrite bool) (err error) {
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return msgerr.Errorf("device keys: %w", err)
	}
	name := tmp.Name()
	defer func() {
		if rmErr := os.Remove(name); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) && err == nil {
			err = msgerr.Errorf("device keys: remove temporary file: %w", rmErr)
		}
	}()
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return msgerr.Errorf("device keys: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return msgerr.Errorf("device keys: write: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return msgerr.Errorf("device keys: sync: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return msgerr.Errorf("device keys: %w", err)
	}
	if overwrite {
		if err := os.Rename(name, path); err != nil {
			return msgerr.Errorf("device keys: %w", err)
		}
	} else if err := os.Link(name, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return msgerr.Errorf("%w: %s (keep it, or overwrite it explicitly)", ErrExists, path)
		}
		return msgerr.Errorf("device keys: %w", err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes the new directory entry durable where the platform can.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// Load reads the key called name, refusing a file others can read.
func (s Store) Load(name string) (*Key, error) {
	path, err := s.Path(name)
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, msgerr.Errorf("%w: %s (make one with `journal key new`)", ErrNotFound, path)
	}
	if err != nil {
		return nil, msgerr.Errorf("device keys: %w", err)
	}
	if err := checkFile(path, fi); err != nil {
		return nil, err
	}
	if err := checkDir(s.dir); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, msgerr.Errorf("device keys: %w", err)
	}
	defer f.Close()
	// The file opened is the file checked: a swap between Lstat and Open is refused.
	if ofi, err := f.Stat(); err != nil || !os.SameFile(fi, ofi) {
		return nil, msgerr.Errorf("%w: %s changed while it was opened", ErrInsecure, path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, msgerr.Errorf("device keys: %w", err)
	}
	priv, err := parseKey(data)
	if err != nil {
		return nil, msgerr.Errorf("%w: %s: %s", ErrMalformed, path, err)
	}
	return &Key{name: name, path: path, priv: priv}, nil
}

// Show describes the key called name without returning it.
func (s Store) Show(name string) (Info, error) {
	k, err := s.Load(name)
	if err != nil {
		return Info{}, err
	}
	return k.Info(), nil
}

// List describes every key of the folder, by name; files that are not
// usable keys are reported in the error (joined), the others listed.
func (s Store) List() ([]Info, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, msgerr.Errorf("device keys: %w", err)
	}
	var out []Info
	var errs []error
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), Ext)
		if !ok || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		info, err := s.Show(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errors.Join(errs...)
}

func checkFile(path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return msgerr.Errorf("%w: %s is not a regular file (%s)", ErrInsecure, path, fi.Mode().Type())
	}
	if runtime.GOOS == "windows" {
		return nil
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return msgerr.Errorf("%w: %s has mode %04o, readable or writable by others; run `chmod 600 %s` if nobody else could have read it, else make a new key", ErrInsecure, path, perm, path)
	}
	return nil
}

func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return msgerr.Errorf("device keys: %w", err)
	}
	if !fi.IsDir() {
		return msgerr.Errorf("%w: %s is not a folder", ErrInsecure, dir)
	}
	if runtime.GOOS == "windows" {
		return nil
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return msgerr.Errorf("%w: folder %s has mode %04o, writable by others; run `chmod 700 %s`", ErrInsecure, dir, perm, dir)
	}
	return nil
}

func parseKey(data []byte) (ed25519.PrivateKey, error) {
	if len(data) > maxKeyFile {
		return nil, msgerr.Errorf("larger than %d bytes", maxKeyFile)
	}
	block, rest := pem.Decode(data)
	if block == nil {
		return nil, msgerr.New("no PEM block")
	}
	if block.Type != pemType || len(block.Headers) != 0 {
		return nil, msgerr.Errorf("PEM block %q, want %q", block.Type, pemType)
	}
	if len(strings.TrimSpace(string(rest))) != 0 {
		return nil, msgerr.New("data after the PEM block")
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, msgerr.Errorf("not PKCS #8: %v", err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, msgerr.Errorf("a %T, want an Ed25519 key", k)
	}
	return priv, nil
}
