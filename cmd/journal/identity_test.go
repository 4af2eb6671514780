package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// asDevice makes the CLI a device of its own: config folder dir, and no
// $JOURNAL_ACTOR, so that only a login says who it is.
func asDevice(t *testing.T, dir string) {
	t.Helper()
	t.Setenv("JOURNAL_CONFIG", dir)
	t.Setenv("JOURNAL_ACTOR", "")
	require.NoError(t, os.Unsetenv("JOURNAL_ACTOR"))
}

// TestNoDefaultUser: a device nobody logged in is nobody: a command that
// records is refused with a usage error saying how to log in, and nothing
// is recorded; reads still work.
func TestNoDefaultUser(t *testing.T) {
	c := newCLI(t)
	c.ok("campaign", "create", "mordor", "--system", "ryf") // as the tests' GM
	before := len(c.events("mordor"))
	asDevice(t, t.TempDir())
	out, errb, code := c.run("-c", "mordor", "--lang", "en", "character", "create", "orco", "--npc", "--attrs", "F=7,R=4,D=5,I=3,P=4", "--skills", "Pelea=4")
	require.Equal(t, exitUsage, code, "stdout %s stderr %s", out, errb)
	require.Contains(t, errb, "journal login")
	require.Len(t, c.events("mordor"), before, "nothing recorded")
	_, errb, code = c.run("-c", "mordor", "--lang", "en", "key", "register")
	require.Equal(t, exitUsage, code, errb)
	require.Contains(t, errb, "journal login")
	_, errb, code = c.run("--lang", "en", "whoami")
	require.Equal(t, exitUsage, code, errb)
	c.ok("-c", "mordor", "log") // reading needs no user
}

// TestLoginWhoami: login sets the device's user once (identity.json, mode
// 0600); whoami says who it is, from where, with its keys and, with -c, its
// devices and characters; $JOURNAL_ACTOR overrides it for one command; a
// login that is not a user id is refused.
func TestLoginWhoami(t *testing.T) {
	c := newCLI(t)
	c.ok("campaign", "create", "mordor", "--system", "ryf")
	c.ok("-c", "mordor", "character", "create", "lodin", "--player", "Ana", "--attrs", "F=8,R=7,D=9,I=8,P=8", "--skills", "Sigilo=3", "--spec", "Sigilo")
	cfg := t.TempDir()
	asDevice(t, cfg)
	_, errb, code := c.run("login", "Not an id")
	require.Equal(t, exitUsage, code, errb)
	out := c.ok("--lang", "en", "login", "Ana")
	require.Contains(t, out, "This device is ana")
	fi, err := os.Stat(filepath.Join(cfg, "identity.json"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	c.ok("key", "new")
	c.ok("-c", "mordor", "key", "register")
	var who whoami
	require.NoError(t, json.Unmarshal([]byte(c.ok("-c", "mordor", "--json", "whoami")), &who))
	require.Equal(t, "ana", who.User)
	require.Equal(t, filepath.Join(cfg, "identity.json"), who.Source)
	require.Len(t, who.Keys, 1)
	require.Len(t, who.Devices, 1)
	require.Equal(t, who.Keys[0].Fingerprint, who.Devices[0].Fingerprint)
	require.Equal(t, []string{"lodin"}, who.Characters, "the character's player is the user id ana")
	t.Setenv("JOURNAL_ACTOR", "bea")
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "whoami")), &who))
	require.Equal(t, "bea", who.User)
	require.Equal(t, "$JOURNAL_ACTOR", who.Source)
}

// TestPlayerDeviceNeverRegistersAsGM is the walkthrough that went wrong:
// the GM's device and a player's device, each with its own config folder.
// The player's key register before any login is refused (it used to
// register the player's key as the GM's); after 'journal login ana' it is
// ana's, and the GM's devices are untouched.
func TestPlayerDeviceNeverRegistersAsGM(t *testing.T) {
	c := newCLI(t)
	gm, ana := t.TempDir(), t.TempDir()
	asDevice(t, gm)
	c.ok("login", "gm")
	c.ok("campaign", "create", "mordor", "--system", "ryf")
	c.ok("key", "new")
	c.ok("-c", "mordor", "key", "register", "--role", "gm")

	asDevice(t, ana)
	c.ok("key", "new")
	_, errb, code := c.run("-c", "mordor", "--lang", "en", "key", "register")
	require.Equal(t, exitUsage, code, errb)
	c.ok("login", "ana")
	c.ok("-c", "mordor", "key", "register")

	asDevice(t, gm)
	var who whoami
	require.NoError(t, json.Unmarshal([]byte(c.ok("-c", "mordor", "--json", "whoami")), &who))
	require.Equal(t, "gm", who.User)
	require.Len(t, who.Devices, 1, "the GM has its one device")
	require.Equal(t, who.Keys[0].Fingerprint, who.Devices[0].Fingerprint)
	log := c.ok("-c", "mordor", "--lang", "en", "key", "devices")
	require.Equal(t, 2, strings.Count(log, "registered by"), log)
}
