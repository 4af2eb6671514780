package embedded

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHasJournal: an empty or missing folder holds none, a JetStream
// store or a served folder's InfoFile does; asking creates nothing.
func TestHasJournal(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	if HasJournal(dir) || HasJournal(missing) {
		t.Fatal("an empty or missing folder holds a journal")
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatal("HasJournal created the folder")
	}
	for _, name := range []string{"jetstream", InfoFile} {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if !HasJournal(d) {
			t.Errorf("%s: no journal", name)
		}
	}
}
