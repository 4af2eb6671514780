package embedded

import (
	"os"
	"path/filepath"
)

// HasJournal reports whether the data folder dir holds a journal: the
// JetStream store the embedded server writes there (its "jetstream"
// folder), or the InfoFile of a server that owns the folder and shares it.
// It creates nothing.
func HasJournal(dir string) bool {
	for _, name := range []string{"jetstream", InfoFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}
