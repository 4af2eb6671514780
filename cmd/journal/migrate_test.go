package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
)

// oldLayoutTar is a data folder written by the journal before
// 2026-12-01 (commit 8a3f210: `journal demo` and `journal demo --system
// tor` into one folder): 70 events of 2 campaigns and 2 sessions, every
// event under journal.<campaign>.<kind>.<id>.<event>, the stream
// republishing on journalfeed.>.
const oldLayoutTar = "testdata/oldlayout.tar.gz"

// untar unpacks a gzipped tar into dir.
func untar(t *testing.T, file, dir string) {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	require.NoError(t, err)
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		require.NoError(t, err)
		path := filepath.Join(dir, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			require.NoError(t, os.MkdirAll(path, 0o700))
		case tar.TypeReg:
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
			out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
			require.NoError(t, err)
			_, err = io.Copy(out, tr)
			require.NoError(t, err)
			require.NoError(t, out.Close())
		}
	}
}

// TestMigrateOldFolder: commands on a folder of the old layout refuse with
// one message naming `journal migrate` and change nothing; migrate copies
// every event and says what it did; the migrated journal verifies clean
// (`journal replay`), exports every event and takes new commands (the
// first anchors the old campaign's chain, and the journal still verifies);
// migrate again does nothing. (jetstore's TestMigrate checks every message's
// bytes and sequence.)
func TestMigrateOldFolder(t *testing.T) {
	c := newCLI(t)
	untar(t, oldLayoutTar, c.dir)

	for _, args := range [][]string{{"replay"}, {"-c", "demo-ryf", "export"}, {"-c", "demo-ryf", "day", "new"}} {
		out, errb, code := c.run(append([]string{"--lang", "en"}, args...)...)
		require.NotZero(t, code, "journal %v on the old layout: %s", args, out)
		require.Contains(t, errb, "run `journal migrate`", "journal %v", args)
		require.Equal(t, 1, strings.Count(strings.TrimSpace(errb), "\n")+1, "one line: %s", errb)
	}

	out := c.ok("--json", "migrate")
	var m jetstore.Migration
	require.NoError(t, json.Unmarshal([]byte(out), &m))
	require.Equal(t, jetstore.Migration{Migrated: true, Messages: 70, Events: 70, Campaigns: 2, Sessions: 2, Backup: jetstore.BackupStream}, m)

	replayed := c.ok("--lang", "en", "replay")
	require.Contains(t, replayed, "OK: 70 events, 2 sessions (2 verified, 0 mismatch")
	ryf := c.events("demo-ryf")
	require.Len(t, ryf, 43)
	require.Len(t, c.events("demo-tor"), 27)
	c.ok("-c", "demo-ryf", "day", "new")
	ryf = c.events("demo-ryf")
	require.Len(t, ryf, 45)
	require.Equal(t, events.TypeChainAnchored, ryf[43].Type, "the old campaign's chain is anchored")
	require.Equal(t, events.TypeDayStarted, ryf[44].Type)
	require.Contains(t, c.ok("--lang", "en", "replay"), "OK: 72 events")

	require.Contains(t, c.ok("migrate"), "nothing to migrate")
}
