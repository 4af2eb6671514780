package device_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/signed"
)

func store(t *testing.T) device.Store {
	t.Helper()
	dir, err := device.DefaultDir(func(k string) string {
		if k == device.EnvConfig {
			return t.TempDir()
		}
		return ""
	})
	require.NoError(t, err)
	return device.NewStore(dir)
}

func skipOnWindows(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no Unix mode bits on Windows")
	}
}

func TestDefaultDir(t *testing.T) {
	got, err := device.DefaultDir(func(k string) string {
		if k == device.EnvConfig {
			return "/cfg"
		}
		return ""
	})
	require.NoError(t, err)
	require.Equal(t, filepath.Join("/cfg", "keys"), got)

	if runtime.GOOS == "linux" {
		xdg := t.TempDir()
		t.Setenv("XDG_CONFIG_HOME", xdg)
		got, err = device.DefaultDir(func(string) string { return "" })
		require.NoError(t, err)
		require.Equal(t, filepath.Join(xdg, "journal", "keys"), got)
	}
}

func TestNewLoadShow(t *testing.T) {
	s := store(t)
	k, err := s.New("alice", device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	require.Equal(t, filepath.Join(s.Dir(), "alice.key"), k.Path())

	fi, err := os.Stat(k.Path())
	require.NoError(t, err)
	if runtime.GOOS != "windows" {
		require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "key file mode")
		di, err := os.Stat(s.Dir())
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o700), di.Mode().Perm(), "key folder mode")
	}
	data, err := os.ReadFile(k.Path())
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(data, []byte("-----BEGIN PRIVATE KEY-----\n")), "PEM PKCS #8: %q", data)

	loaded, err := s.Load("alice")
	require.NoError(t, err)
	require.Equal(t, k.Public(), loaded.Public())

	info, err := s.Show("alice")
	require.NoError(t, err)
	require.Equal(t, "alice", info.Name)
	require.Equal(t, k.Public().String(), info.PublicKey)
	require.Equal(t, signed.Fingerprint(k.Public()), info.Fingerprint)
	require.NotContains(t, info.PublicKey+info.Fingerprint, string(data[28:60]), "no secret in Info")

	// What the key signs verifies under its public key, and only under it.
	m := &signed.Contribute{Header: signed.Header{Campaign: "camp-1", Session: "sess-1"}, Value: signed.Hex32{1}}
	str, sig, err := loaded.Seal(m)
	require.NoError(t, err)
	_, err = signed.Open(k.Public(), str, sig, "camp-1", "sess-1")
	require.NoError(t, err)
	other, err := s.New("bob", device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	require.ErrorIs(t, signed.Verify(other.Public(), str, sig), signed.ErrBadSignature)

	// No temporary file is left behind.
	entries, err := os.ReadDir(s.Dir())
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{"alice.key", "bob.key"}, names)

	list, err := s.List()
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, "alice", list[0].Name)
	require.Equal(t, "bob", list[1].Name)
}

func TestNeverOverwritesWithoutFlag(t *testing.T) {
	s := store(t)
	k, err := s.New(device.DefaultName, device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	before, err := os.ReadFile(k.Path())
	require.NoError(t, err)

	_, err = s.New(device.DefaultName, device.NewOptions{Rand: rand.Reader})
	require.ErrorIs(t, err, device.ErrExists)
	after, err := os.ReadFile(k.Path())
	require.NoError(t, err)
	require.Equal(t, before, after, "the existing key is untouched")

	k2, err := s.New(device.DefaultName, device.NewOptions{Rand: rand.Reader, Overwrite: true})
	require.NoError(t, err)
	require.NotEqual(t, k.Public(), k2.Public())
	loaded, err := s.Load(device.DefaultName)
	require.NoError(t, err)
	require.Equal(t, k2.Public(), loaded.Public())
}

// Two devices' CLIs racing to make the same key: one wins, the others get
// ErrExists, and the key on disk is the winner's.
func TestConcurrentNewOneWins(t *testing.T) {
	s := store(t)
	const n = 8
	var wg sync.WaitGroup
	keys := make([]*device.Key, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { keys[i], errs[i] = s.New("race", device.NewOptions{Rand: rand.Reader}) })
	}
	wg.Wait()
	var winner *device.Key
	for i := range n {
		if errs[i] == nil {
			require.Nil(t, winner, "two creations succeeded")
			winner = keys[i]
			continue
		}
		require.ErrorIs(t, errs[i], device.ErrExists)
	}
	require.NotNil(t, winner)
	loaded, err := s.Load("race")
	require.NoError(t, err)
	require.Equal(t, winner.Public(), loaded.Public())
}

func TestLoadRefusesInsecure(t *testing.T) {
	skipOnWindows(t)
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o660, 0o602} {
		t.Run(mode.String(), func(t *testing.T) {
			s := store(t)
			k, err := s.New("alice", device.NewOptions{Rand: rand.Reader})
			require.NoError(t, err)
			require.NoError(t, os.Chmod(k.Path(), mode))
			_, err = s.Load("alice")
			require.ErrorIs(t, err, device.ErrInsecure)
			require.Contains(t, err.Error(), "chmod 600")
			_, err = s.Show("alice")
			require.ErrorIs(t, err, device.ErrInsecure)
		})
	}
	t.Run("read-only to the owner is fine", func(t *testing.T) {
		s := store(t)
		k, err := s.New("alice", device.NewOptions{Rand: rand.Reader})
		require.NoError(t, err)
		require.NoError(t, os.Chmod(k.Path(), 0o400))
		_, err = s.Load("alice")
		require.NoError(t, err)
	})
	t.Run("symlink", func(t *testing.T) {
		s := store(t)
		k, err := s.New("alice", device.NewOptions{Rand: rand.Reader})
		require.NoError(t, err)
		require.NoError(t, os.Symlink(k.Path(), filepath.Join(s.Dir(), "mallory.key")))
		_, err = s.Load("mallory")
		require.ErrorIs(t, err, device.ErrInsecure)
	})
	t.Run("folder writable by others", func(t *testing.T) {
		s := store(t)
		_, err := s.New("alice", device.NewOptions{Rand: rand.Reader})
		require.NoError(t, err)
		require.NoError(t, os.Chmod(s.Dir(), 0o777))
		t.Cleanup(func() { _ = os.Chmod(s.Dir(), 0o700) })
		_, err = s.Load("alice")
		require.ErrorIs(t, err, device.ErrInsecure)
		_, err = s.New("bob", device.NewOptions{Rand: rand.Reader})
		require.ErrorIs(t, err, device.ErrInsecure)
		_, statErr := os.Stat(filepath.Join(s.Dir(), "bob.key"))
		require.ErrorIs(t, statErr, os.ErrNotExist, "no key made in an insecure folder")
	})
}

func TestLoadRefusesMalformed(t *testing.T) {
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	ecDER, err := x509.MarshalPKCS8PrivateKey(ecKey)
	require.NoError(t, err)
	good := func(t *testing.T) []byte {
		s := store(t)
		k, err := s.New("x", device.NewOptions{Rand: rand.Reader})
		require.NoError(t, err)
		b, err := os.ReadFile(k.Path())
		require.NoError(t, err)
		return b
	}(t)
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"garbage", []byte("not a key")},
		{"hex seed", []byte(strings.Repeat("ab", 32))},
		{"wrong PEM type", pem.EncodeToMemory(&pem.Block{Type: "ED25519 PRIVATE KEY", Bytes: []byte{1}})},
		{"PEM headers", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: []byte{1}})},
		{"not PKCS 8", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}})},
		{"an ECDSA key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER})},
		{"two keys", append(append([]byte(nil), good...), good...)},
		{"trailing data", append(append([]byte(nil), good...), "x"...)},
		{"huge", append(append([]byte(nil), good...), bytes.Repeat([]byte("\n"), 5000)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := store(t)
			require.NoError(t, os.MkdirAll(s.Dir(), 0o700))
			require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), "x.key"), tt.data, 0o600))
			_, err := s.Load("x")
			require.ErrorIs(t, err, device.ErrMalformed)
		})
	}
}

func TestNames(t *testing.T) {
	s := store(t)
	for _, name := range []string{"", "../escape", "a/b", "Alice", ".hidden", strings.Repeat("a", 65)} {
		_, err := s.New(name, device.NewOptions{Rand: rand.Reader})
		require.ErrorIs(t, err, device.ErrInvalidName, "New(%q)", name)
		_, err = s.Load(name)
		require.ErrorIs(t, err, device.ErrInvalidName, "Load(%q)", name)
	}
	_, err := os.Stat(s.Dir())
	require.ErrorIs(t, err, os.ErrNotExist, "nothing was created")
	_, err = s.Load("nobody")
	require.ErrorIs(t, err, device.ErrNotFound)
	list, err := s.List()
	require.NoError(t, err)
	require.Empty(t, list)
}

func TestNewFailsCleanlyWithoutRandomness(t *testing.T) {
	s := store(t)
	_, err := s.New("alice", device.NewOptions{Rand: bytes.NewReader([]byte{1, 2, 3})})
	require.Error(t, err)
	_, err = s.Load("alice")
	require.ErrorIs(t, err, device.ErrNotFound, "no key file after a failed creation")
	entries, _ := os.ReadDir(s.Dir())
	require.Empty(t, entries, "no temporary file left")
	_, err = s.New("alice", device.NewOptions{})
	require.Error(t, err)
	if !errors.Is(err, device.ErrNotFound) {
		require.Contains(t, err.Error(), "randomness")
	}
}

func TestListReportsBadFiles(t *testing.T) {
	skipOnWindows(t)
	s := store(t)
	_, err := s.New("alice", device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	bob, err := s.New("bob", device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	require.NoError(t, os.Chmod(bob.Path(), 0o644))
	list, err := s.List()
	require.ErrorIs(t, err, device.ErrInsecure)
	require.Len(t, list, 1)
	require.Equal(t, "alice", list[0].Name)
}
