//go:build unix

package access

import (
	"github.com/campaign-journal/journal/internal/msgerr"
	"os"
	"syscall"
)

// keepOwner gives tmp the owner and group of the file at path, when there
// is one owned by someone else: an access file replaced by root (sudo
// journal access add …) stays readable by the journal's own user. It is an
// error, and nothing is replaced, when that is not permitted.
func keepOwner(tmp *os.File, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil // a new file is the writer's
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Getuid() && int(st.Gid) == os.Getgid()) {
		return nil
	}
	if err := tmp.Chown(int(st.Uid), int(st.Gid)); err != nil {
		return msgerr.Errorf("keep the owner (uid %d, gid %d) of the file: %w", st.Uid, st.Gid, err)
	}
	return nil
}
