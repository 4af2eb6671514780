package accessfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campaign-journal/journal/access"
)

func noWarn(t *testing.T) func(string, ...any) {
	return func(format string, args ...any) { t.Errorf("warning: "+format, args...) }
}

// TestAddListRotateRemove: the file's round trip, and a refused add
// leaves the file as it was.
func TestAddListRotateRemove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "access.json")
	var b bytes.Buffer
	o := Output{W: &b, Warn: noWarn(t)}
	if err := Add(path, "ana", access.RoleGM, "mordor", nil, true, true, "", o); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, `added "ana" (gm of campaign mordor) to `+path) {
		t.Fatalf("add printed %q", out)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Add(path, "ana", access.RoleGM, "mordor", nil, true, true, "", o); err == nil || !strings.Contains(err.Error(), "already in") {
		t.Fatalf("second add: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("a refused add rewrote the file")
	}
	if err := Add(path, "svc", access.RoleJournal, "", nil, true, false, "", o); err != nil {
		t.Fatal(err)
	}

	b.Reset()
	if err := List(path, Output{W: &b, JSON: true}); err != nil {
		t.Fatal(err)
	}
	var l Listing
	if err := json.Unmarshal(b.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	if l.File != path || len(l.Users) != 2 || l.Users[0].Name != "ana" || l.Users[0].Tokens != 1 || l.Users[1].NATS != "password" {
		t.Fatalf("listing = %+v", l)
	}

	b.Reset()
	if err := Rotate(path, "ana", "", Output{W: &b, JSON: true}); err != nil {
		t.Fatal(err)
	}
	var rot access.Issued
	if err := json.Unmarshal(b.Bytes(), &rot); err != nil || rot.Password == "" || rot.Token == "" {
		t.Fatalf("rotate: %v %+v", err, rot)
	}

	conf := filepath.Join(t.TempDir(), "auth.conf")
	b.Reset()
	if err := NATSConfig(path, conf, Output{W: &b, JSON: true, Warn: noWarn(t)}); err != nil {
		t.Fatal(err)
	}
	var res NATSConfigOut
	if err := json.Unmarshal(b.Bytes(), &res); err != nil || res != (NATSConfigOut{File: conf, Users: 2}) {
		t.Fatalf("nats-config: %v %+v", err, res)
	}

	b.Reset()
	if err := Remove(path, "ana", o); err != nil {
		t.Fatal(err)
	}
	if err := Remove(path, "ana", o); err == nil || !strings.Contains(err.Error(), " in "+path) {
		t.Fatalf("second remove: %v", err)
	}
}

// TestMissingFile: every operation but add needs the file to exist.
func TestMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.json")
	err := List(path, Output{W: &bytes.Buffer{}})
	if err == nil || !strings.Contains(err.Error(), "access list: "+path+" does not exist: add a user first") {
		t.Fatalf("list: %v", err)
	}
	if err := List("", Output{W: &bytes.Buffer{}}); err == nil || !strings.Contains(err.Error(), "--access FILE") {
		t.Fatalf("no path: %v", err)
	}
}
