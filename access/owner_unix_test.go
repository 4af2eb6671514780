//go:build unix

package access_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
)

// TestWriteFileKeepsOwner: root replacing a file of another user (sudo
// journal access add …) leaves it that user's, so the journal's own user
// can still read it.
func TestWriteFileKeepsOwner(t *testing.T) {
	path := filepath.Join(t.TempDir(), "access.json")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	if os.Getuid() != 0 {
		t.Skip("not root: a file of another user cannot be made")
	}
	require.NoError(t, os.Chown(path, 12345, 12346))
	require.NoError(t, access.WriteFile(path, []byte("newer")))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	st := fi.Sys().(*syscall.Stat_t)
	require.Equal(t, [2]uint32{12345, 12346}, [2]uint32{st.Uid, st.Gid}, "the file changed owner")
}
