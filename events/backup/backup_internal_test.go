package backup

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/jetstore"
)

func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cfg", "backup.key")
	k, created, err := LoadOrCreateKey(path, rand.Reader)
	require.NoError(t, err)
	require.True(t, created)
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	again, created, err := LoadOrCreateKey(path, rand.Reader)
	require.NoError(t, err)
	require.False(t, created, "the key is made once")
	require.Equal(t, k.Fingerprint(), again.Fingerprint())
	require.Len(t, k.Fingerprint(), 39)
	require.Regexp(t, `^[0-9a-f]{4}(:[0-9a-f]{4}){7}$`, k.Fingerprint(), "signed.Fingerprint's format")
	require.True(t, SameFingerprint(strings.ReplaceAll(k.Fingerprint(), ":", "-"), k.Fingerprint()), "an older manifest's format")

	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), mode))
		require.NoError(t, os.Chmod(p, mode))
		return p
	}
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	tests := []struct {
		name, path string
		want       error
		text       string
	}{
		{"absent", filepath.Join(dir, "none.key"), ErrNoKey, "no backup key at"},
		{"others may read it", write("loose.key", string(good), 0o640), ErrInvalidKey, "chmod 600"},
		{"no header", write("raw.key", strings.Repeat("ab", 32), 0o600), ErrInvalidKey, "not a journal backup key"},
		{"short", write("short.key", keyFileHeader+"abcd\n", 0o600), ErrInvalidKey, "32 bytes of hex"},
		{"not hex", write("nothex.key", keyFileHeader+strings.Repeat("zz", 32), 0o600), ErrInvalidKey, "32 bytes of hex"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadKey(tt.path)
			require.ErrorIs(t, err, tt.want)
			require.Contains(t, err.Error(), tt.text)
		})
	}
}

// TestSealBindsKeyAndName: a sealed part opens only under its key and its
// own name, and any flipped bit is refused.
func TestSealBindsKeyAndName(t *testing.T) {
	k, err := NewKey(rand.Reader)
	require.NoError(t, err)
	other, err := NewKey(rand.Reader)
	require.NoError(t, err)
	plain := []byte("the seed of an open session")
	sealed, err := k.seal("a.snap.sealed", plain, rand.Reader)
	require.NoError(t, err)
	require.False(t, bytes.Contains(sealed, plain))
	got, err := k.open("a.snap.sealed", sealed)
	require.NoError(t, err)
	require.Equal(t, plain, got)
	_, err = other.open("a.snap.sealed", sealed)
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = k.open("b.snap.sealed", sealed)
	require.ErrorIs(t, err, ErrCorrupt)
	sealed[len(sealed)/2] ^= 1
	_, err = k.open("a.snap.sealed", sealed)
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = k.open("a.snap.sealed", sealed[:10])
	require.ErrorIs(t, err, ErrCorrupt)
}

// startJournal starts an embedded server with the journal's streams, a few
// events and one secret.
func startJournal(t *testing.T, ctx context.Context) (*embedded.Server, jetstream.JetStream) {
	t.Helper()
	srv := embeddedtest.Start(t, embedded.Options{})
	return srv, srv.JetStream()
}

// makeBackup backs up a journal of five messages and one secret.
func makeBackup(t *testing.T, ctx context.Context) (string, *Key) {
	t.Helper()
	src, js := startJournal(t, ctx)
	st, err := jetstore.Open(ctx, js, jetstore.Options{})
	require.NoError(t, err)
	for i := range 5 {
		_, err := js.Publish(ctx, "journal.c"+string(rune('a'+i)), []byte(`{}`))
		require.NoError(t, err)
	}
	require.NoError(t, st.PutSecret(ctx, "c.s1", []byte("0123456789abcdef0123456789abcdef")))
	key, err := NewKey(rand.Reader)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "b.jbk")
	m, err := Write(ctx, src.Conn(), key, file, Options{})
	require.NoError(t, err)
	require.Equal(t, uint64(5), m.Part(jetstore.StreamName).Messages)
	return file, key
}

// TestRestoreIntoEmptyStreams: the journal's streams, created empty (a
// journal opened once), make way for the restore; an empty stream that
// something consumes (a running journal serve) refuses it, and stays.
func TestRestoreIntoEmptyStreams(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	file, key := makeBackup(t, ctx)
	a, err := Open(file, key)
	require.NoError(t, err)

	dst, js := startJournal(t, ctx)
	_, err = jetstore.Open(ctx, js, jetstore.Options{})
	require.NoError(t, err)
	res, err := a.Restore(ctx, dst.Conn(), Options{})
	require.NoError(t, err)
	require.Equal(t, uint64(5), res[0].Messages)

	followed, js := startJournal(t, ctx)
	_, err = jetstore.Open(ctx, js, jetstore.Options{})
	require.NoError(t, err)
	_, err = js.CreateConsumer(ctx, jetstore.StreamName, jetstream.ConsumerConfig{Durable: "serve"})
	require.NoError(t, err)
	_, err = a.Restore(ctx, followed.Conn(), Options{})
	require.ErrorIs(t, err, ErrNotEmpty)
	require.Contains(t, err.Error(), "consumers")
	info, err := js.Stream(ctx, jetstore.StreamName)
	require.NoError(t, err)
	require.Equal(t, 1, info.CachedInfo().State.Consumers, "the followed stream stays as it was")
}

// TestRestoreFailingPartWayLeavesNothing: a backup whose sealed secrets
// are well sealed and hashed but are not a snapshot passes Open, then fails
// at the server after the events were restored: the restore deletes the
// events stream it created, and the target is as empty as before.
func TestRestoreFailingPartWayLeavesNothing(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	file, key := makeBackup(t, ctx)

	// Re-seal the secrets part as garbage, with a manifest that matches.
	forged := forge(t, file, key, func(p *Part) []byte {
		if !p.Sealed {
			return nil
		}
		b, err := key.seal(p.File, []byte("not a snapshot at all"), rand.Reader)
		require.NoError(t, err)
		return b
	})
	a, err := Open(forged, key)
	require.NoError(t, err, "the forged file passes every check a file can")

	dst, _ := startJournal(t, ctx)
	_, err = a.Restore(ctx, dst.Conn(), Options{})
	require.Error(t, err)
	require.Contains(t, err.Error(), "KV_journal_secrets")
	for _, s := range []string{jetstore.StreamName, "KV_" + jetstore.SecretsBucket} {
		_, err := getState(ctx, dst.Conn(), jetstream.DefaultAPIPrefix, s)
		require.ErrorIs(t, err, errNoStream, "%s left behind by a failed restore", s)
	}

	// The genuine file restores into the same target afterwards.
	a, err = Open(file, key)
	require.NoError(t, err)
	res, err := a.Restore(ctx, dst.Conn(), Options{})
	require.NoError(t, err)
	require.Len(t, res, 2)
}

// forge rewrites the archive at path with the parts change returns new
// bytes for, updating the manifest and its MAC, and returns the new path.
func forge(t *testing.T, path string, key *Key, change func(p *Part) []byte) string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	tr := tar.NewReader(f)
	files := map[string][]byte{}
	var order []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		b, err := io.ReadAll(tr)
		require.NoError(t, err)
		files[h.Name] = b
		order = append(order, h.Name)
	}
	var m Manifest
	require.NoError(t, json.Unmarshal(files[ManifestFile], &m))
	for i := range m.Parts {
		p := &m.Parts[i]
		if b := change(p); b != nil {
			files[p.File] = b
			sum := sha256.Sum256(b)
			p.Size, p.SHA256 = int64(len(b)), hex.EncodeToString(sum[:])
		}
	}
	manifest, err := json.Marshal(m)
	require.NoError(t, err)
	files[ManifestFile] = manifest
	files[MACFile] = []byte(hex.EncodeToString(key.mac(manifest)))
	out := filepath.Join(t.TempDir(), "forged.jbk")
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range order {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(files[name]))}))
		_, err := tw.Write(files[name])
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	require.NoError(t, os.WriteFile(out, buf.Bytes(), 0o600))
	return out
}
