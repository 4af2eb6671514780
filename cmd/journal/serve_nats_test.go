package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// TestServeNATSListenNeedsAccess: without an access file, serve refuses
// --nats-listen with one message naming what to do, opens nothing and
// records nothing.
func TestServeNATSListenNeedsAccess(t *testing.T) {
	t.Setenv("JOURNAL_ACCESS", "")
	c := newCLI(t)
	out, errb, code := c.run("serve", "--http", "127.0.0.1:0", "--nats-listen", "127.0.0.1:0")
	require.NotZero(t, code, "serve opened NATS to anonymous clients: %s", out)
	require.Contains(t, errb, "--nats-listen")
	require.Contains(t, errb, "journal --access access.json access add NAME --role gm --campaign CAMPAIGN")
	require.Equal(t, 1, strings.Count(strings.TrimSpace(errb), "\n")+1, "one message: %s", errb)
	require.NotContains(t, out, "listening")
	_, err := os.Stat(filepath.Join(c.dir, "jetstream"))
	require.True(t, errors.Is(err, os.ErrNotExist), "serve opened the store before refusing")
}

// TestAccessAdd: the command the refusal names makes credentials that
// work: printed once, kept as hashes in a file of mode 0600, and serve
// --nats-listen then admits the user on NATS and on HTTP. Bad input is one
// error and leaves the file as it was.
func TestAccessAdd(t *testing.T) {
	t.Setenv("JOURNAL_ACCESS", "")
	c := newCLI(t)
	file := filepath.Join(t.TempDir(), "access.json")
	var ana addedUser
	require.NoError(t, json.Unmarshal([]byte(c.ok("--access", file, "--json", "access", "add", "ana", "--role", "gm", "--campaign", "mordor")), &ana))
	require.Len(t, ana.Password, 48)
	require.Len(t, ana.Token, 48)
	out := c.ok("--access", file, "access", "add", "bea", "--role", "player", "--campaign", "mordor", "--character", "lodin")
	require.Contains(t, out, "NATS: user bea, password ")
	require.Contains(t, out, "inbox prefix _INBOX.bea")

	fi, err := os.Stat(file)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	saved, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NotContains(t, string(saved), ana.Password, "the file keeps the password in clear")
	require.NotContains(t, string(saved), ana.Token, "the file keeps the token in clear")
	cfg, err := access.Load(file)
	require.NoError(t, err)
	require.Len(t, cfg.Users, 2)
	require.Empty(t, cfg.ExampleCredentials())

	for _, bad := range [][]string{
		{"access", "add", "ana", "--role", "gm", "--campaign", "mordor"},
		{"access", "add", "cai", "--role", "player", "--campaign", "mordor"},
		{"access", "add", "dov", "--role", "wizard", "--campaign", "mordor"},
		{"access", "add", "eve", "--role", "gm", "--campaign", "mordor", "--no-password", "--no-token"},
	} {
		_, errb, code := c.run(append([]string{"--access", file}, bad...)...)
		require.NotZero(t, code, "%v", bad)
		require.Equal(t, 1, strings.Count(strings.TrimSpace(errb), "\n")+1, "one message: %s", errb)
		after, err := os.ReadFile(file)
		require.NoError(t, err)
		require.Equal(t, string(saved), string(after), "a refused add changed the file")
	}
	_, errb, code := c.run("access", "add", "x", "--role", "gm", "--campaign", "mordor")
	require.NotZero(t, code)
	require.Contains(t, errb, "--access")

	s := c.serve("--access", file, "--nats-listen", "127.0.0.1:0")
	defer func() { require.Zero(t, s.shutdown(t)) }()
	require.NotContains(t, s.errb.String(), "warning")
	status, body := call(t, "POST", s.url+"/api/campaigns", ana.Token, `{"id":"mordor","system":"ryf"}`)
	require.Less(t, status, 300, body)
	m := regexp.MustCompile(`NATS (nats://\S+)`).FindStringSubmatch(s.banner)
	require.NotNil(t, m, s.banner)
	nc, err := nats.Connect(m[1], nats.UserInfo("ana", ana.Password), natscmd.InboxPrefix("ana"))
	require.NoError(t, err)
	defer nc.Close()
	reply, err := natscmd.Request(t.Context(), nc, "ana", "mordor", access.ReadCommand, natscmd.ReadRequest{})
	require.NoError(t, err)
	require.Len(t, reply.Events, 1, "the campaign the GM created over HTTP")
}

// TestServeWarnsExampleCredentials: serve warns at start about every
// credential of deploy/access.example.json still in use, and about an
// example password in --nats; with credentials of one's own it is silent.
func TestServeWarnsExampleCredentials(t *testing.T) {
	c := newCLI(t)
	s := c.serve("--lang", "en", "--access", filepath.Join("..", "..", "deploy", "access.example.json"))
	// journal, ana, bea, cai, wall by password; ana, bea, wall by token.
	require.Equal(t, 8, strings.Count(s.errb.String(), "journal serve: warning:"), s.errb.String())
	for _, want := range []string{`user "journal" (journal) signs in to NATS with the example password`, `user "wall" (dashboard) has an example HTTP token`} {
		require.Contains(t, s.errb.String(), want)
	}
	require.Zero(t, s.shutdown(t))

	own := newCLI(t)
	s = own.serve("--lang", "en", "--access", writeNATSAccess(t))
	require.NotContains(t, s.errb.String(), "warning", "credentials of one's own")
	require.Zero(t, s.shutdown(t))

}

// writeNATSAccess writes an access file whose users all sign in to NATS:
// the journal, a GM, a player of lodin and a dashboard, all of mordor.
func writeNATSAccess(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "access.json")
	body := `{"users": [
  {"name": "journal", "role": "journal", "password": "journal-pw"},
  {"name": "ana", "role": "gm", "campaign": "mordor", "password": "ana-pw"},
  {"name": "bea", "role": "player", "campaign": "mordor", "characters": ["lodin"], "password": "bea-pw"},
  {"name": "wall", "role": "dashboard", "campaign": "mordor", "password": "wall-pw"}
]}`
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	return path
}

// servedState is what no attack on a running serve may change.
type servedState struct {
	Msgs, Last uint64
	Config     string
	Secrets    map[string]string
	Streams    []string
}

func readServedState(t *testing.T, js jetstream.JetStream) servedState {
	t.Helper()
	ctx := t.Context()
	st, err := js.Stream(ctx, jetstore.StreamName)
	require.NoError(t, err, "the stream is gone")
	info, err := st.Info(ctx)
	require.NoError(t, err)
	cfg, err := json.Marshal(info.Config)
	require.NoError(t, err)
	s := servedState{Msgs: info.State.Msgs, Last: info.State.LastSeq, Config: string(cfg), Secrets: map[string]string{}}
	kv, err := js.KeyValue(ctx, jetstore.SecretsBucket)
	require.NoError(t, err, "the secrets bucket is gone")
	keys, err := kv.ListKeys(ctx)
	require.NoError(t, err)
	for k := range keys.Keys() {
		e, err := kv.Get(ctx, k)
		require.NoError(t, err)
		s.Secrets[k] = fmt.Sprintf("%x@%d", e.Value(), e.Revision())
	}
	names := js.StreamNames(ctx)
	for n := range names.Name() {
		s.Streams = append(s.Streams, n)
	}
	return s
}

// TestServeNATSAttacks attacks a running `journal serve --access FILE
// --nats-listen`, as the gm, the player and the dashboard of the file and
// as anonymous clients: hostile reply subjects on requests the role may
// send, direct publishes and subscriptions on the stream, the secrets, the
// feed and the JetStream API. Every attack is refused, and the stream (its
// count, last sequence and configuration) and every seed are as they were.
// With the nats tool installed, it also tries the tool's own stream rm, kv
// get and pub.
func TestServeNATSAttacks(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	s := c.serve("--access", writeNATSAccess(t), "--nats-listen", "127.0.0.1:0")
	defer func() { require.Zero(t, s.shutdown(t)) }()
	m := regexp.MustCompile(`NATS (nats://\S+)`).FindStringSubmatch(s.banner)
	require.NotNil(t, m, s.banner)
	url := m[1]

	journal, err := nats.Connect(url, nats.UserInfo("journal", "journal-pw"))
	require.NoError(t, err)
	defer journal.Close()
	js, err := jetstream.New(journal)
	require.NoError(t, err)
	before := readServedState(t, js)
	require.NotEmpty(t, before.Secrets, "the open session's seed")
	var seedKey string
	for k := range before.Secrets {
		seedKey = k
	}

	tried, refused := 0, 0
	check := func(t *testing.T, name string, refusedIt bool) {
		t.Helper()
		tried++
		if !refusedIt {
			t.Errorf("%s: not refused", name)
			return
		}
		after := readServedState(t, js)
		if !assertEqualState(t, name, before, after) {
			return
		}
		refused++
	}

	type user struct {
		name, cmd string
		body      any
		nc        *nats.Conn
		errs      chan error
	}
	users := []*user{
		{name: "ana", cmd: "damage", body: map[string]any{"character": "orco", "amount": 1}},
		{name: "bea", cmd: "roll", body: map[string]any{"character": "lodin", "skill": "Pelea"}},
		{name: "wall", cmd: access.ReadCommand, body: map[string]any{}},
	}
	for _, u := range users {
		u.errs = make(chan error, 256)
		u.nc, err = nats.Connect(url, nats.UserInfo(u.name, u.name+"-pw"), natscmd.InboxPrefix(u.name),
			nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { u.errs <- err }))
		require.NoError(t, err, u.name)
		defer u.nc.Close()
	}

	// Hostile reply subjects: one watcher (the journal's user) per target;
	// after them a request of the same user on its own inbox, answered after
	// the service dropped the earlier ones (it drops in arrival order).
	targets := []string{
		"journal.mordor.char.lodin.roll", "journal.gondor.char.x.roll",
		"$KV." + jetstore.SecretsBucket + "." + seedKey,
		"journal.mordor",
		"$JS.API.STREAM.DELETE." + jetstore.StreamName, "$JS.API.STREAM.PURGE." + jetstore.StreamName,
		"$JS.API.STREAM.UPDATE." + jetstore.StreamName, "$JS.API.STREAM.DELETE.KV_" + jetstore.SecretsBucket,
		"$JS.API.CONSUMER.CREATE.KV_" + jetstore.SecretsBucket,
		access.InboxPrefix("ana") + ".forged", access.InboxPrefix("bea") + ".forged",
		"",
	}
	for _, u := range users {
		for _, target := range targets {
			if target == access.InboxPrefix(u.name)+".forged" {
				continue // its own inbox
			}
			var watch *nats.Subscription
			if target != "" {
				watch, err = journal.SubscribeSync(target)
				require.NoError(t, err)
				require.NoError(t, journal.Flush())
			}
			data, _ := json.Marshal(u.body)
			require.NoError(t, u.nc.PublishMsg(&nats.Msg{Subject: access.CommandSubject(u.name, "mordor", u.cmd), Reply: target, Data: data}))
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			_, err := natscmd.Request(ctx, u.nc, u.name, "mordor", access.ReadCommand, natscmd.ReadRequest{Limit: 1})
			cancel()
			require.NoError(t, err, "%s's own request", u.name)
			got := false
			if watch != nil {
				require.NoError(t, journal.Flush())
				_, err := watch.NextMsg(0)
				got = err == nil
				require.NoError(t, watch.Unsubscribe())
			}
			check(t, u.name+" replies to "+target, !got)
		}
		// Direct paths.
		for _, subject := range []string{
			"journal.mordor.char.lodin.roll", "journal.mordor",
			"$KV." + jetstore.SecretsBucket + "." + seedKey,
			"$JS.API.STREAM.DELETE." + jetstore.StreamName, "$JS.API.STREAM.PURGE." + jetstore.StreamName,
			"$JS.API.STREAM.UPDATE." + jetstore.StreamName,
			"$JS.API.DIRECT.GET.KV_" + jetstore.SecretsBucket,
			"$JS.API.CONSUMER.CREATE.KV_" + jetstore.SecretsBucket,
		} {
			require.NoError(t, u.nc.PublishMsg(&nats.Msg{Subject: subject, Reply: u.nc.NewRespInbox(), Data: []byte(`{}`)}))
			require.NoError(t, u.nc.Flush())
			check(t, u.name+" publishes on "+subject, waitViolation(u.errs, "Publish", subject))
		}
		for _, subject := range []string{"$KV.>", "journal.>", "_INBOX.>", "$JS.API.>"} {
			sub, err := u.nc.SubscribeSync(subject)
			require.NoError(t, err)
			require.NoError(t, u.nc.Flush())
			check(t, u.name+" subscribes to "+subject, waitViolation(u.errs, "Subscription", subject))
			_ = sub.Unsubscribe()
		}
	}
	for _, opt := range []nats.Option{nats.Name("anonymous"), nats.UserInfo("bea", "wrong"), nats.Token("journal-pw")} {
		nc, err := nats.Connect(url, opt, nats.MaxReconnects(0))
		if err == nil {
			nc.Close()
		}
		check(t, "anonymous signs in", err != nil)
	}

	// The nats tool, as a user would run it.
	if tool := natsTool(); tool == "" {
		t.Log("the nats tool is not installed (nor in $(go env GOPATH)/bin): its attacks are skipped")
	} else {
		for _, args := range [][]string{
			{"--server", url, "stream", "rm", jetstore.StreamName, "-f"},
			{"--server", url, "--user", "bea", "--password", "bea-pw", "--inbox-prefix", "_INBOX.bea", "stream", "rm", jetstore.StreamName, "-f"},
			{"--server", url, "--user", "ana", "--password", "ana-pw", "--inbox-prefix", "_INBOX.ana", "stream", "purge", jetstore.StreamName, "-f"},
			{"--server", url, "--user", "ana", "--password", "ana-pw", "--inbox-prefix", "_INBOX.ana", "kv", "get", jetstore.SecretsBucket, seedKey},
			{"--server", url, "--user", "wall", "--password", "wall-pw", "--inbox-prefix", "_INBOX.wall", "pub", "journal.mordor.char.lodin.roll", "{}"},
			// The confused deputy: a pull request whose reply is the
			// stream's delete, and a KV delete through a reply.
			{"--server", url, "--user", "wall", "--password", "wall-pw", "--inbox-prefix", "_INBOX.wall", "pub", "--reply", "$JS.API.STREAM.DELETE." + jetstore.StreamName, "$JS.API.CONSUMER.MSG.NEXT." + jetstore.StreamName + ".x", `{"batch":1,"no_wait":true}`},
			{"--server", url, "--user", "bea", "--password", "bea-pw", "--inbox-prefix", "_INBOX.bea", "pub", "--reply", "$JS.API.STREAM.DELETE.KV_" + jetstore.SecretsBucket, "$JS.API.INFO", ""},
			{"--server", url, "--user", "bea", "--password", "bea-pw", "--inbox-prefix", "_INBOX.bea", "consumer", "add", jetstore.StreamName, "evil", "--pull", "--defaults"},
		} {
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			// A refused request waits for the tool's timeout (5 s by
			// default): 2 s is enough for an answer on loopback.
			out, err := exec.CommandContext(ctx, tool, append([]string{"--timeout", "2s"}, args...)...).CombinedOutput()
			cancel()
			// pub exits 0 on a permissions violation: the state is the judge.
			check(t, "nats "+strings.Join(args[2:], " "), err != nil || slices.Contains(args, "pub"))
			t.Logf("nats %s: %v %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
	}
	t.Logf("journal serve --access --nats-listen: attacks tried %d, refused %d, events recorded by them %d",
		tried, refused, readServedState(t, js).Last-before.Last)
	require.Equal(t, tried, refused)
}

func assertEqualState(t *testing.T, name string, before, after servedState) bool {
	t.Helper()
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("%s changed the journal:\nbefore %+v\nafter  %+v", name, before, after)
		return false
	}
	return true
}

// waitViolation waits for the server's permissions violation naming
// subject among a connection's errors.
func waitViolation(errs chan error, kind, subject string) bool {
	want := fmt.Sprintf("Permissions Violation for %s to %q", kind, subject)
	deadline := time.After(10 * time.Second)
	for {
		select {
		case err := <-errs:
			if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), want) {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

// natsTool returns the path of the nats command-line tool, or "".
func natsTool() string {
	if p, err := exec.LookPath("nats"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "nats")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// TestServeNoAccessFile: serve without an access file shares the data
// folder on loopback only, behind the random token in server.json (mode
// 0600); no anonymous client signs in, and nothing changes.
func TestServeNoAccessFile(t *testing.T) {
	t.Setenv("JOURNAL_ACCESS", "")
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	s := c.serve()
	defer func() { require.Zero(t, s.shutdown(t)) }()
	path := filepath.Join(c.dir, embedded.InfoFile)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var info struct{ URL, Token string }
	require.NoError(t, json.Unmarshal(b, &info))
	require.Regexp(t, `^nats://127\.0\.0\.1:\d+$`, info.URL, "the share is on loopback only")
	require.NotEmpty(t, info.Token)

	owner, err := nats.Connect(info.URL, nats.Token(info.Token))
	require.NoError(t, err)
	defer owner.Close()
	js, err := jetstream.New(owner)
	require.NoError(t, err)
	before := readServedState(t, js)
	tried, refused := 0, 0
	for _, opt := range []nats.Option{nats.Name("anonymous"), nats.Token("wrong"), nats.UserInfo("journal", "journal-change-me")} {
		tried++
		nc, err := nats.Connect(info.URL, opt, nats.MaxReconnects(0))
		if err == nil {
			nc.Close()
			t.Error("an anonymous client signed in to serve's share")
			continue
		}
		if assertEqualState(t, "anonymous", before, readServedState(t, js)) {
			refused++
		}
	}
	if tool := natsTool(); tool != "" {
		tried++
		out, err := exec.Command(tool, "--server", info.URL, "stream", "rm", jetstore.StreamName, "-f").CombinedOutput()
		if err != nil && assertEqualState(t, "nats stream rm", before, readServedState(t, js)) {
			refused++
		}
		t.Logf("nats stream rm: %v %s", err, out)
	} else {
		t.Log("the nats tool is not installed (nor in $(go env GOPATH)/bin): its attack is skipped")
	}
	t.Logf("journal serve without an access file: attacks tried %d, refused %d, events recorded by them %d",
		tried, refused, readServedState(t, js).Last-before.Last)
	require.Equal(t, tried, refused)
}
