package access_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
)

// TestWriteFile: the file is replaced whole, mode 0600 whatever it was,
// with no temporary file left beside it.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "access.json")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	require.NoError(t, access.WriteFile(path, []byte("new")))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new", string(b))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "a temporary file is left")

	require.Error(t, access.WriteFile(filepath.Join(dir, "missing", "x"), []byte("x")))

}

// TestWithoutReplace: Without and Replace name the user they miss, and
// leave the configuration they are called on as it was.
func TestWithoutReplace(t *testing.T) {
	c := testConfig(t)
	n := len(c.Users)
	_, err := c.Without("nobody")
	require.ErrorIs(t, err, access.ErrNoUser)
	_, err = c.Replace(access.User{Name: "nobody", Role: access.RoleGM, Campaign: "mordor", Password: "x"})
	require.ErrorIs(t, err, access.ErrNoUser)
	_, err = c.User("nobody")
	require.ErrorIs(t, err, access.ErrNoUser)

	less, err := c.Without("bea")
	require.NoError(t, err)
	require.Len(t, less.Users, n-1)
	_, ok := less.ByToken("bea-token-0123456789")
	require.False(t, ok)
	_, ok = c.ByToken("bea-token-0123456789")
	require.True(t, ok, "Without changed its receiver")

	ana, err := c.User("ana")
	require.NoError(t, err)
	ana.Tokens = []string{access.HashToken("ana-new-token-0123456789")}
	next, err := c.Replace(ana)
	require.NoError(t, err)
	_, ok = next.ByToken("ana-token-0123456789")
	require.False(t, ok, "the replaced token still works")
	p, ok := next.ByToken("ana-new-token-0123456789")
	require.True(t, ok)
	require.Equal(t, "ana", p.Name)
	_, ok = c.ByToken("ana-token-0123456789")
	require.True(t, ok, "Replace changed its receiver")

	ana.Role = "wizard"
	_, err = c.Replace(ana)
	require.ErrorIs(t, err, access.ErrConfig, "Replace validates")
}
