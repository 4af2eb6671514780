package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/events/jetstore"
)

const (
	cliGMToken     = "ana-token-0123456789"
	cliPlayerToken = "bea-token-0123456789"
)

// writeAccess writes an access file: the journal, a GM of mordor (HTTP
// token), a player of mordor (NATS password and HTTP token).
func writeAccess(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "access.json")
	body := `{"users": [
  {"name": "journal", "role": "journal", "password": "journal-pw"},
  {"name": "ana", "role": "gm", "campaign": "mordor", "tokens": ["` + access.HashToken(cliGMToken) + `"]},
  {"name": "bea", "role": "player", "campaign": "mordor", "characters": ["ruisenor"], "password": "bea-pw",
   "tokens": ["` + access.HashToken(cliPlayerToken) + `"]}
]}`
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	return path
}

// call sends a request with an optional bearer token and returns the
// status and body.
func call(t *testing.T, method, url, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

// TestServeAccess runs `journal serve --access`: the API wants a token,
// the embedded NATS server admits only the file's users, and a player
// commands through the NATS command service but cannot read the secrets.
func TestServeAccess(t *testing.T) {
	c := newCLI(t)
	file := writeAccess(t)
	s := c.serve("--access", file, "--nats-listen", "127.0.0.1:0")
	if !strings.Contains(s.banner, "access: 3 users") {
		t.Fatalf("banner: %s", s.banner)
	}

	status, body := call(t, "GET", s.url+"/api/campaigns", "", "")
	require.Equal(t, http.StatusUnauthorized, status, body)
	status, body = call(t, "GET", s.url+"/api/campaigns", cliGMToken, "")
	require.Equal(t, http.StatusOK, status, body)
	for _, step := range []struct{ path, body string }{
		{"/api/campaigns", `{"id":"mordor","system":"ryf"}`},
		{"/api/campaigns/mordor/commands/character-create", `{"id":"ruisenor","player":"bea","attributes":"F=6,R=8,D=10,I=8,P=8","skills":"Pelea=3","specialization":"Pelea"}`},
		{"/api/campaigns/mordor/commands/session-start", `{}`},
	} {
		status, body := call(t, "POST", s.url+step.path, cliGMToken, step.body)
		require.Less(t, status, 300, "%s: %s", step.path, body)
		require.Contains(t, body, `"actor": "ana"`)
	}
	status, body = call(t, "POST", s.url+"/api/campaigns/mordor/commands/damage", cliPlayerToken, `{"character":"ruisenor","amount":1}`)
	require.Equal(t, http.StatusForbidden, status, body)

	// NATS: anonymous is refused; the player rolls through the command
	// service and cannot reach the secrets bucket.
	natsURL := regexp.MustCompile(`NATS (nats://\S+)`).FindStringSubmatch(s.banner)
	require.NotNil(t, natsURL, s.banner)
	_, err := nats.Connect(natsURL[1])
	require.Error(t, err, "anonymous connection")
	errs := make(chan error, 16)
	nc, err := nats.Connect(natsURL[1], nats.UserInfo("bea", "bea-pw"), nats.CustomInboxPrefix(access.InboxPrefix("bea")),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	require.NoError(t, err)
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	reply, err := natscmd.Request(ctx, nc, "bea", "mordor", "roll", map[string]string{"character": "ruisenor", "skill": "Pelea"})
	require.NoError(t, err)
	require.Len(t, reply.Recorded, 1)
	require.Equal(t, "bea", reply.Recorded[0].Event.Actor)

	_, err = nc.Request("$JS.API.STREAM.INFO.KV_"+jetstore.SecretsBucket, nil, time.Second)
	require.Error(t, err, "the player reached the secrets bucket")
	select {
	case err := <-errs:
		require.True(t, errors.Is(err, nats.ErrPermissionViolation), "%v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("no permissions violation for the secrets bucket")
	}

	// The CLI still records through the served folder (as its owner).
	c.ok("--access", file, "-c", "mordor", "roll", "ruisenor", "pelea")

	if code := s.shutdown(t); code != 0 {
		t.Fatalf("serve exited %d: %s", code, s.errb)
	}
}

// TestServeHidesPassword: a --nats URL's password is never printed.
func TestServeHidesPassword(t *testing.T) {
	require.Equal(t, "nats://n1:4222,nats://n2:4222,n3:4222,nats://n4", access.RedactURLs("nats://journal:s3cret@n1:4222,nats://journal:s3cret@n2:4222,tok@n3:4222,nats://n4"))
	c := newCLI(t)
	out, errb, code := c.run("--nats", "nats://journal:s3cret@127.0.0.1:1,nats://journal:s3cret@127.0.0.1:2", "serve", "--http", "127.0.0.1:0")
	if code == 0 || strings.Contains(out+errb, "s3cret") || !strings.Contains(errb, "nats://127.0.0.1:1") {
		t.Fatalf("exit %d: %s%s", code, out, errb)
	}
	_, errb, code = c.run("--access", filepath.Join(t.TempDir(), "missing.json"), "serve")
	if code == 0 || !strings.Contains(errb, "--access") {
		t.Fatalf("missing access file: exit %d: %s", code, errb)
	}
}

// TestServeHTTPOnlyAccess runs `journal serve --access` with a file whose
// users all sign in over HTTP only (no NATS password): serve starts, the API
// wants a token, and a GM's token works.
func TestServeHTTPOnlyAccess(t *testing.T) {
	c := newCLI(t)
	path := filepath.Join(t.TempDir(), "access.json")
	body := `{"users": [
  {"name": "ana", "role": "gm", "campaign": "mordor", "tokens": ["` + access.HashToken(cliGMToken) + `"]}
]}`
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	s := c.serve("--access", path)
	status, out := call(t, "GET", s.url+"/api/campaigns", "", "")
	require.Equal(t, http.StatusUnauthorized, status, out)
	status, out = call(t, "POST", s.url+"/api/campaigns", cliGMToken, `{"id":"mordor","system":"ryf"}`)
	require.Equal(t, http.StatusCreated, status, out)
}

// TestServeLoopbackAdmitsJournalOnly: serve --access without --nats-listen
// shares the data folder on a loopback port (server.json) that admits the
// journal's own credentials alone: the access file's users, whose
// passwords open a --nats-listen port, are refused there, and so are the
// anonymous.
func TestServeLoopbackAdmitsJournalOnly(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	s := c.serve("--access", writeAccess(t))
	defer func() { require.Zero(t, s.shutdown(t)) }()
	b, err := os.ReadFile(filepath.Join(c.dir, "server.json"))
	require.NoError(t, err)
	var info struct{ URL, Token, User, Password string }
	require.NoError(t, json.Unmarshal(b, &info))
	require.Regexp(t, `^nats://127\.0\.0\.1:\d+$`, info.URL)
	for _, opt := range []nats.Option{
		nats.UserInfo("bea", "bea-pw"),
		nats.UserInfo("journal", "journal-pw"),
		nats.Name("anonymous"),
	} {
		nc, err := nats.Connect(info.URL, opt, nats.MaxReconnects(0))
		if err == nil {
			nc.Close()
			t.Fatalf("the loopback share admitted a client that is not the journal's own")
		}
	}
	own := []nats.Option{nats.MaxReconnects(0)}
	if info.Token != "" {
		own = append(own, nats.Token(info.Token))
	} else {
		own = append(own, nats.UserInfo(info.User, info.Password))
	}
	nc, err := nats.Connect(info.URL, own...)
	require.NoError(t, err, "the journal's own credentials in server.json")
	nc.Close()
	// The CLI goes through the share as before.
	c.ok("--access", writeAccess(t), "-c", "mordor", "log")
}
