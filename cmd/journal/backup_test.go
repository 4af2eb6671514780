package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/cluster"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// backupFixture is a journal with one ended session and one open, its
// backup, and the key that sealed it.
type backupFixture struct {
	src       *cli
	file, key string
	events    int
	lastSeq   uint64
	openSeed  string // the seed of s2, open at the backup, revealed after it
}

// newBackupFixture records a campaign with session s1 ended and s2 open,
// backs it up, and only then ends s2 in the source journal to learn the
// seed the backup must keep secret.
func newBackupFixture(t *testing.T) *backupFixture {
	t.Helper()
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	c.ok("-c", "mordor", "session", "end")
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "Pelea", "--vs", "media")
	dir := t.TempDir()
	f := &backupFixture{src: c, file: filepath.Join(dir, "nightly.jbk"), key: filepath.Join(dir, "keys", "backup.key")}
	out := c.ok("--json", "backup", f.file, "--key", f.key)
	var res struct {
		Manifest struct {
			Parts []struct {
				Stream   string `json:"stream"`
				Messages int    `json:"messages"`
				LastSeq  uint64 `json:"last_seq"`
			} `json:"parts"`
		} `json:"manifest"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	for _, p := range res.Manifest.Parts {
		if p.Stream == jetstore.StreamName {
			f.events, f.lastSeq = p.Messages, p.LastSeq
		}
	}
	require.Equal(t, len(c.events("mordor")), f.events, "the manifest counts every event")
	f.openSeed = endSession(t, c)
	return f
}

// endSession ends the open session of mordor and returns its revealed seed.
func endSession(t *testing.T, c *cli) string {
	t.Helper()
	out := c.ok("--json", "-c", "mordor", "session", "end")
	var res struct {
		Recorded []struct {
			Event events.Event `json:"event"`
		} `json:"recorded"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.Len(t, res.Recorded, 1)
	var d events.SessionEnded
	require.NoError(t, json.Unmarshal(res.Recorded[0].Event.Data, &d))
	require.Len(t, d.Seed, 64)
	return d.Seed
}

// TestBackupRestoreRoundTrip restores a backup into a fresh data folder:
// it verifies clean, holds the same events up to the same sequence, and
// the session open at the backup can still be ended there, revealing the
// seed it committed to — while the backup file holds that seed neither in
// hex nor in bytes.
func TestBackupRestoreRoundTrip(t *testing.T) {
	f := newBackupFixture(t)
	entries, err := os.ReadDir(filepath.Dir(f.file))
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.ElementsMatch(t, []string{"nightly.jbk", "keys"}, names, "the backup leaves no temporary file")
	for _, p := range []string{f.file, f.key} {
		st, err := os.Stat(p)
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "%s is private", p)
	}
	b, err := os.ReadFile(f.file)
	require.NoError(t, err)
	raw, err := hex.DecodeString(f.openSeed)
	require.NoError(t, err)
	if bytes.Contains(b, []byte(f.openSeed)) || bytes.Contains(b, raw) {
		t.Fatal("the backup file holds the open session's seed in clear")
	}
	key, err := os.ReadFile(f.key)
	require.NoError(t, err)
	require.False(t, bytes.Contains(b, bytes.TrimSpace(key)), "the backup file holds its key")

	dst := newCLI(t)
	out := dst.ok("--json", "restore", f.file, "--key", f.key)
	var res struct {
		Restored []struct {
			Stream   string
			Messages int
			LastSeq  uint64
		} `json:"restored"`
		Verified struct {
			Events           int `json:"events"`
			Mismatches       int `json:"mismatches"`
			SessionsVerified int `json:"sessions_verified"`
		} `json:"verified"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	found := false
	for _, r := range res.Restored {
		if r.Stream == jetstore.StreamName {
			found = true
			require.Equal(t, f.events, r.Messages, "events restored")
			require.Equal(t, f.lastSeq, r.LastSeq, "last sequence restored")
		}
	}
	require.True(t, found, "the events were restored")
	require.Equal(t, f.events, res.Verified.Events, "restore verified every event")
	require.Zero(t, res.Verified.Mismatches)
	require.Equal(t, 1, res.Verified.SessionsVerified, "s1 verified; s2 not yet revealed")
	require.Len(t, dst.events("mordor"), f.events)
	dst.ok("replay")

	// The open session's seed survived: it ends with the seed it committed
	// to, the one the source journal revealed, and verifies.
	require.Equal(t, f.openSeed, endSession(t, dst))
	out = dst.ok("replay")
	require.Contains(t, out, "0 aún sin revelar")
	// The restored journal records as before.
	dst.ok("-c", "mordor", "session", "start")
	dst.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
}

// TestRestoreRefusals: every bad restore fails with one clear error and
// creates nothing — no data folder, no stream.
func TestRestoreRefusals(t *testing.T) {
	f := newBackupFixture(t)
	b, err := os.ReadFile(f.file)
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o600))
		return p
	}
	// flip changes the byte at an offset: bit 0, so that a digit stays a
	// digit and the manifest stays JSON.
	flip := func(at int) []byte {
		c := bytes.Clone(b)
		c[at] ^= 0x01
		return c
	}
	// inPart is an offset into the data of a part: a tar header starts
	// with the entry's NUL-padded name, and its data follows 512 bytes on.
	inPart := func(name string, off int) int {
		h := bytes.Index(b, append([]byte(name), 0))
		require.Positive(t, h, name)
		return h + 512 + off
	}
	// Another key: a backup of the same journal under it.
	otherKey := filepath.Join(dir, "other.key")
	f.src.ok("backup", filepath.Join(dir, "other.jbk"), "--key", otherKey)
	looseKey := write("loose.key", mustRead(t, f.key))
	require.NoError(t, os.Chmod(looseKey, 0o644))

	tests := []struct {
		name string
		file string
		key  string
		want string
	}{
		{"wrong key", f.file, otherKey, "wrong backup key"},
		{"key readable by others", f.file, looseKey, "may be read by others"},
		{"no key file", f.file, filepath.Join(dir, "absent.key"), "no backup key"},
		{"truncated", write("half.jbk", b[:len(b)/2]), f.key, "truncated"},
		{"truncated in the manifest", write("head.jbk", b[:700]), f.key, "corrupt"},
		{"a byte of the events flipped", write("events.jbk", flip(inPart("JOURNAL.snap", 100))), f.key, "JOURNAL.snap does not match its SHA-256"},
		{"a byte of the secrets flipped", write("secrets.jbk", flip(inPart("KV_journal_secrets.snap.sealed", 50))), f.key, "KV_journal_secrets.snap.sealed does not match its SHA-256"},
		{"the manifest altered", write("manifest.jbk", flip(bytes.Index(b, []byte(`"last_seq": `))+12)), f.key, "manifest does not match its MAC"},
		{"the manifest altered, --without-secrets", write("manifest.jbk", flip(bytes.Index(b, []byte(`"last_seq": `))+12)), f.key + " --without-secrets", "manifest does not match its MAC"},
		{"the manifest and the events altered together, --without-secrets", write("both.jbk", rehashed(t, b, "JOURNAL.snap", 100)), f.key + " --without-secrets", "manifest does not match its MAC"},
		{"no key file, --without-secrets", f.file, filepath.Join(dir, "absent.key") + " --without-secrets", "no backup key"},
		{"wrong key, --without-secrets", f.file, otherKey + " --without-secrets", "wrong backup key"},
		{"not a backup", write("text.jbk", []byte("hello\n")), f.key, "corrupt"},
		{"no such file", filepath.Join(dir, "absent.jbk"), f.key, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := newCLI(t)
			dst.dir = filepath.Join(dst.dir, "data")
			out, errb, code := dst.run(append([]string{"--lang", "en", "restore", tt.file, "--key"}, strings.Fields(tt.key)...)...)
			if code == 0 {
				t.Fatalf("exit 0, want a refusal; stdout %s", out)
			}
			t.Log(errb)
			require.Contains(t, errb, tt.want)
			require.Equal(t, 0, strings.Count(strings.TrimSpace(errb), "\n"), "one line of error: %s", errb)
			_, err := os.Stat(dst.dir)
			require.True(t, os.IsNotExist(err), "a refused restore created the data folder")
		})
	}

	t.Run("over a journal with events", func(t *testing.T) {
		before := len(f.src.events("mordor"))
		_, errb, code := f.src.run("--lang", "en", "restore", f.file, "--key", f.key)
		require.NotZero(t, code)
		require.Contains(t, errb, "not empty")
		require.Contains(t, errb, "nothing was changed")
		require.Len(t, f.src.events("mordor"), before, "the journal kept its events")
		f.src.ok("replay")
	})

	t.Run("into a folder a journal serve runs on", func(t *testing.T) {
		dst := newCLI(t)
		srv, err := embedded.Start(t.Context(), embedded.Options{Dir: dst.dir, Share: true})
		require.NoError(t, err)
		defer srv.Shutdown()
		_, errb, code := dst.run("--lang", "en", "restore", f.file, "--key", f.key)
		require.NotZero(t, code)
		require.Contains(t, errb, "a journal serve runs on")
		for _, s := range []string{jetstore.StreamName, "KV_" + jetstore.SecretsBucket} {
			_, err := srv.JetStream().Stream(t.Context(), s)
			require.ErrorIs(t, err, jetstream.ErrStreamNotFound, "%s created by a refused restore", s)
		}
	})

	t.Run("twice into the same folder", func(t *testing.T) {
		dst := newCLI(t)
		dst.ok("restore", f.file, "--key", f.key)
		_, errb, code := dst.run("--lang", "en", "restore", f.file, "--key", f.key)
		require.NotZero(t, code)
		require.Contains(t, errb, "not empty")
		require.Len(t, dst.events("mordor"), f.events)
	})
}

// rehashed is the backup b with a byte of part name's data flipped and
// the manifest's SHA-256 of that part made to match: a file whose every
// part matches its manifest, which only the MAC refuses. The manifest
// keeps its length (a hex digest for a hex digest), and a tar header's
// checksum covers the header only: the tar stays whole.
func rehashed(t *testing.T, b []byte, name string, off int) []byte {
	t.Helper()
	c := bytes.Clone(b)
	h := bytes.Index(c, append([]byte(name), 0))
	require.Positive(t, h, name)
	size, err := strconv.ParseInt(strings.TrimRight(string(c[h+124:h+136]), "\x00 "), 8, 64)
	require.NoError(t, err)
	data := c[h+512 : h+512+int(size)]
	old := sha256.Sum256(data)
	data[off] ^= 0x01
	sum := sha256.Sum256(data)
	require.Equal(t, 1, bytes.Count(c, []byte(hex.EncodeToString(old[:]))), "the part's digest, once, in the manifest")
	return bytes.Replace(c, []byte(hex.EncodeToString(old[:])), []byte(hex.EncodeToString(sum[:])), 1)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// TestRestoreWithoutSecrets: without the secrets (the file checked under
// the key all the same) every event comes back and verifies; the session
// open at the backup cannot be ended (its seed was not restored), and says
// so.
func TestRestoreWithoutSecrets(t *testing.T) {
	f := newBackupFixture(t)
	dst := newCLI(t)
	out := dst.ok("restore", f.file, "--key", f.key, "--without-secrets")
	require.Contains(t, out, "left out")
	require.Len(t, dst.events("mordor"), f.events)
	dst.ok("replay")
	_, errb, code := dst.run("--lang", "en", "-c", "mordor", "session", "end")
	require.NotZero(t, code)
	require.Contains(t, errb, "seed of session s2")
}

// TestBackupKeyCreatedOnce: without --key, backup creates the key in the
// user's configuration folder once, prints its fingerprint, and reuses it.
func TestBackupKeyCreatedOnce(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	file := filepath.Join(t.TempDir(), "b.jbk")
	_, errb, code := c.run("--lang", "en", "backup", file)
	require.Zero(t, code, errb)
	require.Contains(t, errb, "created the backup key")
	require.Contains(t, errb, "fingerprint")
	// One fingerprint format everywhere: the backup key's is shown as the
	// device keys' are (signed.Fingerprint: 8 groups of 4 hex digits, ":").
	fp := regexp.MustCompile(`fingerprint ([0-9a-f:-]+)`)
	backupFP := fp.FindStringSubmatch(errb)
	require.NotNil(t, backupFP, errb)
	deviceFP := fp.FindStringSubmatch(c.ok("key", "new"))
	require.NotNil(t, deviceFP)
	format := regexp.MustCompile(`^[0-9a-f]{4}(:[0-9a-f]{4}){7}$`)
	require.Regexp(t, format, deviceFP[1])
	require.Regexp(t, format, backupFP[1], "the backup key's fingerprint in the device keys' format")
	_, errb, code = c.run("backup", file)
	require.Zero(t, code, errb)
	require.Empty(t, errb, "the second backup reuses the key, quietly")
	dst := newCLI(t)
	dst.ok("restore", file)
	require.Len(t, dst.events("mordor"), len(c.events("mordor")))
}

// TestBackupRestoreCluster moves a journal from the embedded store onto a
// three-server cluster (replicas 3) and back into a new data folder: each
// restored journal verifies clean and holds every event.
func TestBackupRestoreCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("cluster test: skipped in short mode")
	}
	f := newBackupFixture(t)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cl, err := cluster.Start(ctx, cluster.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(cl.Shutdown)
	url := cl.URLs(0)
	onCluster := newCLI(t)
	onCluster.dir = filepath.Join(onCluster.dir, "unused")
	nats := func(args ...string) []string { return append([]string{"--nats", url, "--replicas", "3"}, args...) }

	onCluster.ok(nats("restore", f.file, "--key", f.key)...)
	nc, err := cl.Connect(0)
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	for _, name := range []string{jetstore.StreamName, "KV_" + jetstore.SecretsBucket} {
		s, err := js.Stream(ctx, name)
		require.NoError(t, err)
		require.Equal(t, 3, s.CachedInfo().Config.Replicas, "%s restored with 3 replicas", name)
	}
	onCluster.ok(nats("replay")...)
	out, _, code := onCluster.run(nats("-c", "mordor", "export")...)
	require.Zero(t, code)
	require.Equal(t, f.events, strings.Count(out, "\n"))
	// The open session goes on on the cluster, and is backed up from there.
	onCluster.ok(nats("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")...)
	back := filepath.Join(t.TempDir(), "from-cluster.jbk")
	onCluster.ok(nats("backup", back, "--key", f.key)...)

	dst := newCLI(t)
	dst.ok("restore", back, "--key", f.key)
	require.Len(t, dst.events("mordor"), f.events+1)
	require.Equal(t, f.openSeed, endSession(t, dst))
	dst.ok("replay")
}

// TestMeasureBackup measures backup and restore of a journal of N events
// (N rolls in one open session), when $JOURNAL_MEASURE_BACKUP_EVENTS=N:
//
//	JOURNAL_MEASURE_BACKUP_EVENTS=10000 go test ./cmd/journal -run TestMeasureBackup -v
func TestMeasureBackup(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("JOURNAL_MEASURE_BACKUP_EVENTS"))
	if n <= 0 {
		t.Skip("set JOURNAL_MEASURE_BACKUP_EVENTS=N to measure")
	}
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	a := newApp(io.Discard, io.Discard)
	a.dataDir, a.sync = c.dir, false
	j, err := a.journal(t.Context())
	require.NoError(t, err)
	start := time.Now()
	for range n - len(c.events("mordor")) + 1 {
		_, err := j.Roll(t.Context(), "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "media"})
		require.NoError(t, err)
	}
	a.close()
	t.Logf("recorded %d events in %v", n, time.Since(start).Round(time.Millisecond))
	file := filepath.Join(t.TempDir(), "b.jbk")
	key := filepath.Join(t.TempDir(), "k")
	start = time.Now()
	c.ok("backup", file, "--key", key)
	backupTook := time.Since(start)
	st, err := os.Stat(file)
	require.NoError(t, err)
	du := func(dir string) (n int64) {
		_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				n += info.Size()
			}
			return nil
		})
		return n
	}
	dst := newCLI(t)
	start = time.Now()
	dst.ok("restore", file, "--key", key)
	restoreTook := time.Since(start)
	start = time.Now()
	dst.ok("replay")
	replayTook := time.Since(start)
	events := len(dst.events("mordor"))
	t.Logf("%d events: data folder %d bytes; backup %d bytes in %v; restore %v; replay of the restored journal %v",
		events, du(c.dir), st.Size(), backupTook.Round(time.Millisecond), restoreTook.Round(time.Millisecond), replayTook.Round(time.Millisecond))
}
