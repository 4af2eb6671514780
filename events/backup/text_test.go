package backup

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	tests := []struct {
		path, dir string
		want      bool
	}{
		{"data/b.jbk", "data", true},
		{"./data/sub/b.jbk", "data/", true},
		{"data-b.jbk", "data", false},
		{"../data/b.jbk", "data", false},
		{"/srv/backups/b.jbk", "/srv/journal-data", false},
	}
	for _, tt := range tests {
		if got := Within(tt.path, tt.dir); got != tt.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tt.path, tt.dir, got, tt.want)
		}
	}
}

func TestMakeDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "backups", "nightly", "b.jbk")
	if err := MakeDir(file); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Dir(file))
	if err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
		t.Fatalf("%v %v", info, err)
	}
}

func TestPartsText(t *testing.T) {
	var b bytes.Buffer
	(&Manifest{Parts: []Part{{Stream: "JOURNAL", Messages: 1, LastSeq: 7, Size: 512}, {Stream: "secrets", Messages: 2, Sealed: true}}}).WriteText(&b)
	WriteRestored(&b, []Restored{{Stream: "JOURNAL", Messages: 3, LastSeq: 3}, {Stream: "secrets", Skipped: true}})
	want := "  JOURNAL                  1 message, last sequence 7, 512 bytes\n" +
		"  secrets                  2 messages, last sequence 0, 0 bytes (sealed)\n" +
		"  JOURNAL                  3 messages, last sequence 3\n" +
		"  secrets                  left out (--without-secrets): the sessions open at the backup cannot be ended\n"
	if b.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", b.String(), want)
	}
}
