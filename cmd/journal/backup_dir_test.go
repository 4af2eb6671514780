package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBackupMakesItsFolder: the README's nightly line writes into
// backups/, which nobody has made on the first night; backup makes the
// folder (mode 0700, parents too) and writes the file. When the folder
// cannot be made, it fails before making the key.
func TestBackupMakesItsFolder(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	dir := t.TempDir()
	file := filepath.Join(dir, "backups", "2026", "journal-2026-12-01.jbk")
	c.ok("backup", file, "--key", filepath.Join(dir, "keys", "backup.key"))
	for _, d := range []string{filepath.Join(dir, "backups"), filepath.Dir(file)} {
		st, err := os.Stat(d)
		require.NoError(t, err)
		require.True(t, st.IsDir())
		require.Equal(t, os.FileMode(0o700), st.Mode().Perm(), d)
	}
	st, err := os.Stat(file)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	// An existing folder keeps its mode.
	shared := filepath.Join(dir, "shared")
	require.NoError(t, os.Mkdir(shared, 0o750))
	require.NoError(t, os.Chmod(shared, 0o750))
	c.ok("backup", filepath.Join(shared, "b.jbk"), "--key", filepath.Join(dir, "keys", "backup.key"))
	st, err = os.Stat(shared)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o750), st.Mode().Perm())

	// A folder that cannot be made (a file is in the way): one message,
	// and no key made.
	blocker := filepath.Join(dir, "blocker")
	require.NoError(t, os.WriteFile(blocker, nil, 0o600))
	key := filepath.Join(dir, "other-keys", "backup.key")
	_, errb, code := c.run("--lang", "en", "backup", filepath.Join(blocker, "b.jbk"), "--key", key)
	require.Equal(t, 1, code, errb)
	require.Contains(t, errb, "backup: the folder of "+filepath.Join(blocker, "b.jbk"))
	_, err = os.Stat(key)
	require.ErrorIs(t, err, os.ErrNotExist, "the key was made for a backup that could not be written")
}
