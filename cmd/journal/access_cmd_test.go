package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/accessfile"
)

// accessCLI runs `journal --access file ...` command lines.
type accessCLI struct {
	*cli
	file string
}

func newAccessCLI(t *testing.T) *accessCLI {
	t.Helper()
	t.Setenv("JOURNAL_ACCESS", "")
	return &accessCLI{cli: newCLI(t), file: filepath.Join(t.TempDir(), "access.json")}
}

func (c *accessCLI) ok(args ...string) string {
	c.t.Helper()
	return c.cli.ok(append([]string{"--access", c.file}, args...)...)
}

func (c *accessCLI) run(args ...string) (string, string, int) {
	c.t.Helper()
	return c.cli.run(append([]string{"--access", c.file}, args...)...)
}

func (c *accessCLI) add(args ...string) addedUser {
	c.t.Helper()
	var u addedUser
	require.NoError(c.t, json.Unmarshal([]byte(c.ok(append([]string{"--json", "access", "add"}, args...)...)), &u))
	return u
}

func (c *accessCLI) load() *access.Config {
	c.t.Helper()
	fi, err := os.Stat(c.file)
	require.NoError(c.t, err)
	require.Equal(c.t, os.FileMode(0o600), fi.Mode().Perm(), "the access file's mode")
	cfg, err := access.Load(c.file)
	require.NoError(c.t, err)
	return cfg
}

func requireUser(t *testing.T, cfg *access.Config, name string) access.User {
	t.Helper()
	u, err := cfg.User(name)
	require.NoError(t, err)
	return u
}

// TestAccessListRemoveRotate: list shows who is there and what kind of
// credential each has, never a secret or a hash; remove takes a user out;
// rotate gives new credentials that the file's hashes accept, and the old
// ones are refused. The file stays mode 0600.
func TestAccessListRemoveRotate(t *testing.T) {
	c := newAccessCLI(t)
	pwFile := filepath.Join(t.TempDir(), "journal.password")
	j := c.add("journal", "--role", "journal", "--no-token", "--password-file", pwFile)
	require.Empty(t, j.Password, "--password-file: the password is not printed")
	require.Equal(t, pwFile, j.PasswordFile)
	ana := c.add("ana", "--role", "gm", "--campaign", "mordor")
	bea := c.add("bea", "--role", "player", "--campaign", "mordor", "--character", "lodin", "--character", "orco")
	wall := c.add("wall", "--role", "dashboard", "--campaign", "*", "--no-password")
	fi, err := os.Stat(pwFile)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	jpw, err := os.ReadFile(pwFile)
	require.NoError(t, err)
	require.NoError(t, bcrypt.CompareHashAndPassword([]byte(requireUser(t, c.load(), "journal").Password), []byte(strings.TrimSpace(string(jpw)))))

	secrets := []string{strings.TrimSpace(string(jpw)), ana.Password, ana.Token, bea.Password, bea.Token, wall.Token}
	for _, u := range c.load().Users {
		secrets = append(secrets, u.Password)
		secrets = append(secrets, u.Tokens...)
	}
	text := c.ok("access", "list")
	jsonOut := c.ok("--json", "access", "list")
	for _, out := range []string{text, jsonOut} {
		for _, s := range secrets {
			if s != "" {
				require.NotContains(t, out, s, "list shows a secret or its hash")
			}
		}
		require.NotContains(t, out, "$2a$")
		require.NotContains(t, out, "sha256:")
	}
	require.Regexp(t, `bea\s+player\s+mordor\s+lodin,orco\s+password\s+1`, text)
	require.Regexp(t, `wall\s+dashboard\s+\*\s+-\s+-\s+1`, text)
	var listed accessfile.Listing
	require.NoError(t, json.Unmarshal([]byte(jsonOut), &listed))
	require.Len(t, listed.Users, 4)
	require.Equal(t, access.Listed{Name: "journal", Role: "journal", NATS: "password"}, listed.Users[0])
	require.Equal(t, access.Listed{Name: "wall", Role: "dashboard", Campaign: "*", Tokens: 1}, listed.Users[3])

	// rotate: new password and token, the old ones no longer match.
	before := requireUser(t, c.load(), "ana")
	var rot addedUser
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "access", "rotate", "ana")), &rot))
	require.Len(t, rot.Password, 48)
	require.Len(t, rot.Token, 48)
	require.NotEqual(t, ana.Password, rot.Password)
	require.NotEqual(t, ana.Token, rot.Token)
	after := requireUser(t, c.load(), "ana")
	require.NoError(t, bcrypt.CompareHashAndPassword([]byte(after.Password), []byte(rot.Password)))
	require.Error(t, bcrypt.CompareHashAndPassword([]byte(after.Password), []byte(ana.Password)), "the old password still works")
	require.Equal(t, []string{access.HashToken(rot.Token)}, after.Tokens)
	_, ok := c.load().ByToken(ana.Token)
	require.False(t, ok, "the old token still works")
	p, ok := c.load().ByToken(rot.Token)
	require.True(t, ok)
	require.Equal(t, before.Principal(), p, "rotate changed the user's role or campaign")

	// rotate of a token-only user gives a token only; of the journal's
	// user with --password-file, writes the file.
	var wrot addedUser
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "access", "rotate", "wall")), &wrot))
	require.Empty(t, wrot.Password)
	require.NotEqual(t, wall.Token, wrot.Token)
	out := c.ok("access", "rotate", "journal", "--password-file", pwFile)
	require.Contains(t, out, "password in "+pwFile)
	jpw2, err := os.ReadFile(pwFile)
	require.NoError(t, err)
	require.NotEqual(t, string(jpw), string(jpw2))
	require.NoError(t, bcrypt.CompareHashAndPassword([]byte(requireUser(t, c.load(), "journal").Password), []byte(strings.TrimSpace(string(jpw2)))))

	// remove.
	require.Contains(t, c.ok("access", "remove", "bea"), `removed "bea" (player)`)
	cfg := c.load()
	require.Len(t, cfg.Users, 3)
	_, ok = cfg.ByToken(bea.Token)
	require.False(t, ok, "a removed user's token still works")
	_, err = cfg.User("bea")
	require.ErrorIs(t, err, access.ErrNoUser)
}

// TestAccessBadInput: each mistake is one message naming it, and the access
// file (and the password file) are as they were.
func TestAccessBadInput(t *testing.T) {
	c := newAccessCLI(t)
	missing := []string{"list", "remove ana", "rotate ana", "nats-config"}
	for _, args := range missing {
		_, errb, code := c.run(append([]string{"--lang", "en", "access"}, strings.Fields(args)...)...)
		require.NotZero(t, code, args)
		require.Contains(t, errb, "does not exist: add a user first", args)
		_, err := os.Stat(c.file)
		require.ErrorIs(t, err, os.ErrNotExist, "%s made the file", args)
	}
	pwFile := filepath.Join(t.TempDir(), "journal.password")
	c.add("journal", "--role", "journal", "--no-token", "--password-file", pwFile)
	c.add("ana", "--role", "gm", "--campaign", "mordor")
	c.add("nk", "--role", "dashboard", "--campaign", "mordor", "--no-token")
	// A user with an nkey only, written by hand.
	cfg := c.load()
	nk := requireUser(t, cfg, "nk")
	nk.Password, nk.NKey = "", "UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4"
	cfg, err := cfg.Replace(nk)
	require.NoError(t, err)
	require.NoError(t, cfg.Save(c.file))

	saved, err := os.ReadFile(c.file)
	require.NoError(t, err)
	pw, err := os.ReadFile(pwFile)
	require.NoError(t, err)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"access", "add", "ana", "--role", "gm", "--campaign", "mordor"}, `"ana" is already in`},
		{[]string{"access", "add", "dov", "--role", "wizard", "--campaign", "mordor"}, `role "wizard"`},
		{[]string{"access", "add", "cai", "--role", "player", "--campaign", "mordor"}, "at least one character"},
		{[]string{"access", "add", "eve", "--role", "gm", "--campaign", "mordor", "--no-password", "--password-file", pwFile}, "--password-file with --no-password"},
		{[]string{"access", "remove", "bob"}, `no such user "bob"`},
		{[]string{"access", "remove"}, "accepts 1 arg"},
		{[]string{"access", "rotate", "bob"}, `no such user "bob"`},
		{[]string{"access", "rotate", "nk"}, "nkey only"},
		{[]string{"access", "rotate", "ana", "extra"}, "accepts 1 arg"},
		{[]string{"access", "list", "extra"}, "unknown command"},
	}
	for _, tt := range tests {
		_, errb, code := c.run(append([]string{"--lang", "en"}, tt.args...)...)
		require.NotZero(t, code, "%v", tt.args)
		require.Contains(t, errb, tt.want, "%v", tt.args)
		require.Equal(t, 1, strings.Count(strings.TrimSpace(errb), "\n")+1, "one message: %s", errb)
		after, err := os.ReadFile(c.file)
		require.NoError(t, err)
		require.Equal(t, string(saved), string(after), "%v changed the access file", tt.args)
		pwAfter, err := os.ReadFile(pwFile)
		require.NoError(t, err)
		require.Equal(t, string(pw), string(pwAfter), "%v changed the password file", tt.args)
	}
	for _, args := range [][]string{{"access", "list"}, {"access", "remove", "ana"}, {"access", "rotate", "ana"}, {"access", "nats-config"}} {
		_, errb, code := c.cli.run(args...)
		require.NotZero(t, code)
		require.Contains(t, errb, "--access FILE", "%v", args)
	}
}

// TestAccessNATSConfig: nats-config writes (mode 0600) what nats-server's
// own parser reads as exactly the users the embedded server would get,
// also through deploy/nats.conf's include; a server started from it admits
// the printed credentials and refuses anonymous clients, old credentials
// after rotate and removed users after remove. A file that would leave the
// server open, or the journal locked out, is refused.
func TestAccessNATSConfig(t *testing.T) {
	c := newAccessCLI(t)
	pwFile := filepath.Join(t.TempDir(), "journal.password")
	c.add("journal", "--role", "journal", "--no-token", "--password-file", pwFile)
	ana := c.add("ana", "--role", "gm", "--campaign", "mordor")
	bea := c.add("bea", "--role", "player", "--campaign", "mordor", "--character", "lodin")
	c.add("wall", "--role", "dashboard", "--campaign", "mordor", "--no-password")

	dir := t.TempDir()
	out := filepath.Join(dir, "auth.conf")
	var res accessfile.NATSConfigOut
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "access", "nats-config", "--out", out)), &res))
	require.Equal(t, accessfile.NATSConfigOut{File: out, Users: 3}, res)
	fi, err := os.Stat(out)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	cfg := c.load()
	require.Equal(t, cfg.NATSConfig(), string(b))
	require.Equal(t, cfg.NATSConfig(), c.ok("access", "nats-config"), "stdout without --out")

	// deploy/nats.conf, as the compose servers read it, with the file in
	// access/ beside it.
	deployConf, err := os.ReadFile(filepath.Join("..", "..", "deploy", "nats.conf"))
	require.NoError(t, err)
	clusterDir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(clusterDir, "access"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(clusterDir, "nats.conf"), deployConf, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(clusterDir, "access", "auth.conf"), b, 0o600))
	t.Setenv("NATS_SERVER_NAME", "n1")
	opts, err := natsserver.ProcessConfigFile(filepath.Join(clusterDir, "nats.conf"))
	require.NoError(t, err)
	require.Equal(t, "n1", opts.ServerName)
	require.Equal(t, "journal", opts.Cluster.Name)
	requireSameUsers(t, cfg, opts)

	// A real server from the generated file.
	url := startConfigServer(t, dir, out)
	connect := func(user, password string) error {
		opts := []nats.Option{nats.MaxReconnects(0), nats.Timeout(5 * time.Second)}
		if user != "" {
			opts = append(opts, nats.UserInfo(user, password))
		}
		nc, err := nats.Connect(url, opts...)
		if err == nil {
			nc.Close()
		}
		return err
	}
	jpw, err := os.ReadFile(pwFile)
	require.NoError(t, err)
	require.NoError(t, connect("journal", strings.TrimSpace(string(jpw))))
	require.NoError(t, connect("ana", ana.Password))
	require.NoError(t, connect("bea", bea.Password))
	require.Error(t, connect("", ""), "an anonymous client")
	require.Error(t, connect("ana", bea.Password), "ana with bea's password")
	require.Error(t, connect("wall", ""), "an HTTP-only user")

	// rotate ana, remove bea, regenerate: a server from the new file
	// refuses the old password and bea.
	var rot addedUser
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "access", "rotate", "ana")), &rot))
	c.ok("access", "remove", "bea")
	c.ok("access", "nats-config", "--out", out)
	url = startConfigServer(t, t.TempDir(), out)
	require.NoError(t, connect("ana", rot.Password))
	require.Error(t, connect("ana", ana.Password), "ana's old password after rotate")
	require.Error(t, connect("bea", bea.Password), "bea after remove")

	// Refusals leave the output as it was.
	written, err := os.ReadFile(out)
	require.NoError(t, err)
	for name, users := range map[string][]access.User{
		"no user signs in to NATS": {{Name: "wall", Role: access.RoleDashboard, Campaign: "mordor", Tokens: []string{access.HashToken("wall-token-0123456789")}}},
		"no user of role journal":  {{Name: "ana", Role: access.RoleGM, Campaign: "mordor", Password: "$2a$11$x"}},
	} {
		bad, err := access.New(users...)
		require.NoError(t, err)
		require.NoError(t, bad.Save(c.file))
		_, errb, code := c.run("--lang", "en", "access", "nats-config", "--out", out)
		require.NotZero(t, code, name)
		require.Contains(t, errb, name)
		after, err := os.ReadFile(out)
		require.NoError(t, err)
		require.Equal(t, string(written), string(after), "a refused nats-config wrote %s", out)
	}

	// The example file: written, with a warning per example credential.
	c.file = filepath.Join("..", "..", "deploy", "access.example.json")
	_, errb, code := c.run("--lang", "en", "access", "nats-config")
	require.Zero(t, code, errb)
	require.Contains(t, errb, "warning: user \"journal\" (journal) signs in to NATS with the example password")
}

// requireSameUsers checks that a parsed nats-server configuration has
// exactly cfg's NATS users with their permissions.
func requireSameUsers(t *testing.T, cfg *access.Config, opts *natsserver.Options) {
	t.Helper()
	users, nkeys := cfg.ServerUsers()
	require.Len(t, opts.Users, len(users))
	require.Len(t, opts.Nkeys, len(nkeys))
	for i, u := range users {
		got := opts.Users[i]
		require.Equal(t, u.Username, got.Username)
		require.Equal(t, u.Password, got.Password)
		if u.Permissions == nil {
			require.Nil(t, got.Permissions, u.Username)
			continue
		}
		require.NotNil(t, got.Permissions, u.Username)
		require.ElementsMatch(t, u.Permissions.Publish.Allow, got.Permissions.Publish.Allow)
		require.ElementsMatch(t, u.Permissions.Publish.Deny, got.Permissions.Publish.Deny)
		require.ElementsMatch(t, u.Permissions.Subscribe.Allow, got.Permissions.Subscribe.Allow)
		require.ElementsMatch(t, u.Permissions.Subscribe.Deny, got.Permissions.Subscribe.Deny)
	}
}

// startConfigServer starts a nats-server whose configuration in dir
// includes the authorization file auth, and returns its client URL.
func startConfigServer(t *testing.T, dir, auth string) string {
	t.Helper()
	path := filepath.Join(dir, "server.conf")
	rel, err := filepath.Rel(dir, auth) // nats-server includes relative to the including file
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte("listen: \"127.0.0.1:-1\"\ninclude "+quoteConf(rel)+"\n"), 0o600))
	opts, err := natsserver.ProcessConfigFile(path)
	require.NoError(t, err)
	opts.NoLog, opts.NoSigs = true, true
	ns, err := natsserver.NewServer(opts)
	require.NoError(t, err)
	ns.Start()
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	require.True(t, ns.ReadyForConnections(30*time.Second))
	return ns.ClientURL()
}

func quoteConf(s string) string { return "\"" + strings.ReplaceAll(s, "\"", "\\\"") + "\"" }
