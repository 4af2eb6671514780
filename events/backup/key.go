package backup

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"github.com/campaign-journal/journal/internal/msgerr"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// KeySize is the size of a backup key: AES-256.
const KeySize = 32

// Key is a backup key. Its bytes never leave the key file and this
// process: the backup file holds only its fingerprint.
type Key struct {
	b [KeySize]byte
}

// NewKey draws a fresh key from r (crypto/rand.Reader in production).
func NewKey(r io.Reader) (*Key, error) {
	var k Key
	if _, err := io.ReadFull(r, k.b[:]); err != nil {
		return nil, msgerr.Errorf("backup key: %w", err)
	}
	return &k, nil
}

// Fingerprint names the key without revealing it: the first 16 bytes of
// SHA-256("journal-backup-key-v1|" || key), shown as every fingerprint of
// the journal is (signed.Fingerprint): eight groups of four lower-case hex
// digits joined by ":". (Backups before it joined them by "-":
// SameFingerprint reads both.)
func (k *Key) Fingerprint() string {
	h := sha256.Sum256(append([]byte("journal-backup-key-v1|"), k.b[:]...))
	s := hex.EncodeToString(h[:16])
	var parts []string
	for i := 0; i < len(s); i += 4 {
		parts = append(parts, s[i:i+4])
	}
	return strings.Join(parts, ":")
}

// SameFingerprint reports whether two backup key fingerprints name the
// same key, in the format of now or of older manifests ("-" for ":").
func SameFingerprint(a, b string) bool {
	return strings.ReplaceAll(a, "-", ":") == strings.ReplaceAll(b, "-", ":")
}

// subkey derives a key for one purpose, so that the sealing key and the
// manifest's MAC key are never the same bytes.
func (k *Key) subkey(purpose string) []byte {
	m := hmac.New(sha256.New, k.b[:])
	m.Write([]byte("journal-backup-v1|" + purpose))
	return m.Sum(nil)
}

// mac authenticates the manifest's bytes.
func (k *Key) mac(b []byte) []byte {
	m := hmac.New(sha256.New, k.subkey("manifest"))
	m.Write(b)
	return m.Sum(nil)
}

// seal encrypts plain with AES-256-GCM under the sealing subkey; the part's
// name is the additional data, so a sealed part cannot be swapped for
// another. The result is nonce || ciphertext || tag.
func (k *Key) seal(name string, plain []byte, rnd io.Reader) ([]byte, error) {
	aead, err := k.aead()
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := io.ReadFull(rnd, nonce); err != nil {
		return nil, msgerr.Errorf("seal %s: %w", name, err)
	}
	return aead.Seal(nonce, nonce, plain, []byte("journal-backup-v1|"+name)), nil
}

// open decrypts what seal returned.
func (k *Key) open(name string, sealed []byte) ([]byte, error) {
	aead, err := k.aead()
	if err != nil {
		return nil, err
	}
	if len(sealed) < aead.NonceSize()+aead.Overhead() {
		return nil, msgerr.Errorf("%w: sealed part %s is %d bytes, too short", ErrCorrupt, name, len(sealed))
	}
	ns := aead.NonceSize()
	plain, err := aead.Open(nil, sealed[:ns], sealed[ns:], []byte("journal-backup-v1|"+name))
	if err != nil {
		// Open checks the manifest's MAC first: by then the key is known
		// to be right, and a part that does not open was altered.
		return nil, msgerr.Errorf("%w: sealed part %s does not open under the key: it was altered", ErrCorrupt, name)
	}
	return plain, nil
}

func (k *Key) aead() (cipher.AEAD, error) {
	block, err := aes.NewCipher(k.subkey("seal"))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// DefaultKeyPath is where journal backup keeps its key unless told: the
// user's configuration folder, not the data folder, so that losing the
// data disk does not lose the key with it (a copy kept off the machine is
// still needed to survive losing the machine).
func DefaultKeyPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", msgerr.Errorf("backup key: no user configuration folder (%v): pass --key FILE", err)
	}
	return filepath.Join(dir, "campaign-journal", "backup.key"), nil
}

// KeyPath is the key file given (--key), or DefaultKeyPath without one.
func KeyPath(given string) (string, error) {
	if given != "" {
		return given, nil
	}
	return DefaultKeyPath()
}

// keyFileHeader starts a key file; the key follows in hex.
const keyFileHeader = "journal-backup-key-v1 "

// LoadKey reads the key file at path. A key file that others may read
// (group or world permission bits, on Unix) is refused: it holds what opens
// every backup's open sessions.
func LoadKey(path string) (*Key, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, msgerr.Errorf("%w at %s", ErrNoKey, path)
		}
		return nil, msgerr.Errorf("backup key %s: %w", path, err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, msgerr.Errorf("%w: backup key %s may be read by others (mode %04o): chmod 600 %s", ErrInvalidKey, path, st.Mode().Perm(), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, msgerr.Errorf("backup key %s: %w", path, err)
	}
	s := strings.TrimSpace(string(b))
	if !strings.HasPrefix(s, keyFileHeader) {
		return nil, msgerr.Errorf("%w: %s is not a journal backup key (it does not start with %q)", ErrInvalidKey, path, strings.TrimSpace(keyFileHeader))
	}
	raw, err := hex.DecodeString(strings.TrimPrefix(s, keyFileHeader))
	if err != nil || len(raw) != KeySize {
		return nil, msgerr.Errorf("%w: %s does not hold %d bytes of hex after its header", ErrInvalidKey, path, KeySize)
	}
	var k Key
	copy(k.b[:], raw)
	return &k, nil
}

// LoadOrCreateKey loads the key at path, or creates it (mode 0600, its
// folder 0700) if no file is there. created reports which.
func LoadOrCreateKey(path string, rnd io.Reader) (k *Key, created bool, err error) {
	k, err = LoadKey(path)
	if err == nil || !errors.Is(err, ErrNoKey) {
		return k, false, err
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	if k, err = NewKey(rnd); err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, msgerr.Errorf("backup key: %w", err)
	}
	// O_EXCL: two backups started at once never write two keys.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			k, err := LoadKey(path)
			return k, false, err
		}
		return nil, false, msgerr.Errorf("backup key: %w", err)
	}
	_, werr := f.WriteString(keyFileHeader + hex.EncodeToString(k.b[:]) + "\n")
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(path)
		return nil, false, msgerr.Errorf("backup key %s: %w", path, werr)
	}
	return k, true, nil
}
