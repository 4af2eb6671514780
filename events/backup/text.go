package backup

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// WriteText writes the parts of m, one a line: stream, messages, last
// sequence, bytes, and whether it is sealed.
func (m *Manifest) WriteText(w io.Writer) {
	for _, p := range m.Parts {
		what := ""
		if p.Sealed {
			what = " (sealed)"
		}
		fmt.Fprintf(w, "  %-24s %s, last sequence %d, %d bytes%s\n", p.Stream, Messages(p.Messages), p.LastSeq, p.Size, what)
	}
}

// WriteRestored writes what Restore put back, one part a line.
func WriteRestored(w io.Writer, res []Restored) {
	for _, r := range res {
		if r.Skipped {
			fmt.Fprintf(w, "  %-24s left out (--without-secrets): the sessions open at the backup cannot be ended\n", r.Stream)
			continue
		}
		fmt.Fprintf(w, "  %-24s %s, last sequence %d\n", r.Stream, Messages(r.Messages), r.LastSeq)
	}
}

// MakeDir creates the folder a backup file goes into (and its parents,
// mode 0700) when missing, before anything else is done: a nightly job's
// first run into backups/ must not stop there, with the key made and no
// backup written. An existing folder is left as it is.
func MakeDir(file string) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return msgerr.Errorf("backup: the folder of %s: %w", file, err)
	}
	return nil
}

// Within reports whether path is inside folder dir (a backup or its key
// inside the data folder is lost with the disk that holds the journal).
func Within(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
