package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/limit"
)

const cliJournalToken = "journal-token-0123456789"

// writeLimitedAccess writes an access file with limits: the journal (a
// NATS password and an HTTP token), a GM of mordor with a rate of its
// own, and a player of mordor; every user but the journal 60 commands a
// minute, 3 at once.
func writeLimitedAccess(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "access.json")
	body := `{"users": [
  {"name": "journal", "role": "journal", "password": "journal-pw", "tokens": ["` + access.HashToken(cliJournalToken) + `"]},
  {"name": "ana", "role": "gm", "campaign": "mordor", "tokens": ["` + access.HashToken(cliGMToken) + `"], "limits": {"burst": 20}},
  {"name": "bea", "role": "player", "campaign": "mordor", "characters": ["ruisenor"], "password": "bea-pw",
   "tokens": ["` + access.HashToken(cliPlayerToken) + `"]}
],
 "limits": {"appends_per_minute": 60, "burst": 3}}`
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	return path
}

// postFor sends a command as token and returns the status, the
// Retry-After header and the body.
func postFor(t *testing.T, url, token, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(res.Body)
	return res.StatusCode, res.Header.Get("Retry-After"), b.String()
}

// storedEvents is the number of events of mordor (its "events" count), as
// the GM reads it.
func storedEvents(t *testing.T, s *server) int {
	t.Helper()
	status, body := call(t, "GET", s.url+"/api/campaigns/mordor", cliGMToken, "")
	require.Equal(t, http.StatusOK, status, body)
	var c struct {
		Events *int `json:"events"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &c))
	require.NotNil(t, c.Events, body)
	return *c.Events
}

// TestServeLimits runs `journal serve` with an access file's limits: a
// player's burst beyond them is refused over HTTP (429, Retry-After) and
// over NATS (429, "rate_limited"), from one bucket, recording nothing;
// the journal role and the CLI are not limited; after the refill the
// player records again.
func TestServeLimits(t *testing.T) {
	c := newCLI(t)
	s := c.serve("--access", writeLimitedAccess(t), "--nats-listen", "127.0.0.1:0")
	require.Contains(t, s.banner, "limits: 60 commands a minute a user and campaign (3 at once), 200000 events a campaign")
	for _, step := range []struct{ path, body string }{
		{"/api/campaigns", `{"id":"mordor","system":"ryf"}`},
		{"/api/campaigns/mordor/commands/character-create", `{"id":"ruisenor","player":"bea","attributes":"F=6,R=8,D=10,I=8,P=8","skills":"Pelea=3","specialization":"Pelea"}`},
		{"/api/campaigns/mordor/commands/session-start", `{}`},
		{"/api/campaigns/mordor/commands/damage", `{"character":"ruisenor","amount":1}`},
	} {
		status, _, body := postFor(t, s.url+step.path, cliGMToken, step.body)
		require.Less(t, status, 300, "the GM's own burst (20): %s: %s", step.path, body)
	}
	roll := s.url + "/api/campaigns/mordor/commands/roll"
	const rollBody = `{"character":"ruisenor","skill":"Pelea"}`
	for i := range 3 {
		status, _, body := postFor(t, roll, cliPlayerToken, rollBody)
		require.Equal(t, http.StatusOK, status, "roll %d of bea's burst: %s", i+1, body)
	}
	before := storedEvents(t, s)
	status, retry, body := postFor(t, roll, cliPlayerToken, rollBody)
	require.Equal(t, http.StatusTooManyRequests, status, body)
	require.Equal(t, "1", retry, "Retry-After")
	require.Contains(t, body, "rate limit: bea may record 60 commands a minute in campaign mordor (3 at once); try again in 1 s")

	// NATS: the same bucket.
	natsURL := regexp.MustCompile(`NATS (nats://\S+)`).FindStringSubmatch(s.banner)
	require.NotNil(t, natsURL, s.banner)
	nc, err := nats.Connect(natsURL[1], nats.UserInfo("bea", "bea-pw"), nats.CustomInboxPrefix(access.InboxPrefix("bea")))
	require.NoError(t, err)
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := nc.RequestWithContext(ctx, access.CommandSubject("bea", "mordor", "roll"), []byte(rollBody))
	require.NoError(t, err)
	require.Equal(t, "429", msg.Header.Get("Nats-Service-Error-Code"))
	require.Equal(t, "1", msg.Header.Get("Retry-After"))
	reply, err := natscmd.Request(ctx, nc, "bea", "mordor", "roll", json.RawMessage(rollBody))
	require.ErrorIs(t, err, events.ErrRateLimited)
	require.Equal(t, "rate_limited", reply.Code)
	require.Equal(t, 1, reply.RetryAfter)
	require.Equal(t, before, storedEvents(t, s), "the refused commands recorded nothing")

	// The journal role, over HTTP, and the CLI on the data folder are not
	// limited.
	for i := range 10 {
		status, _, body := postFor(t, roll, cliJournalToken, rollBody)
		require.Equal(t, http.StatusOK, status, "the journal's roll %d: %s", i+1, body)
	}
	for range 4 {
		c.ok("-c", "mordor", "roll", "ruisenor", "pelea")
	}
	require.Equal(t, before+14, storedEvents(t, s))

	time.Sleep(1100 * time.Millisecond) // one token at 60 a minute
	status, _, body = postFor(t, roll, cliPlayerToken, rollBody)
	require.Equal(t, http.StatusOK, status, "after the refill: %s", body)
	status, _, _ = postFor(t, roll, cliPlayerToken, rollBody)
	require.Equal(t, http.StatusTooManyRequests, status)

	if code := s.shutdown(t); code != 0 {
		t.Fatalf("serve exited %d: %s", code, s.errb)
	}
}

// TestLimitErrors: the limits' refusals exit 1 with their own codes, in
// English and in Spanish; an access file with a bad limits object is
// refused at start with a message naming the value.
func TestLimitErrors(t *testing.T) {
	l := limit.New(limit.Config{Rate: limit.Rate{PerMinute: 120, Burst: 1}, CampaignMaxEvents: 10})
	require.NoError(t, l.Admit("bea", "gondor", 0, 1))
	rate := l.Admit("bea", "gondor", 0, 1)
	quota := l.Admit("bea", "gondor", 10, 1)
	for _, tt := range []struct {
		err      error
		name     string
		en, es   string
		code     int
		sentinel error
	}{
		{rate, "rate_limited", "journal: rate limit: bea may record 120 commands a minute in campaign gondor (1 at once); try again in 1 s",
			"journal: límite de frecuencia: bea puede registrar 120 órdenes por minuto en la campaña gondor (1 seguidas); vuelve a intentarlo en 1 s", exitFailure, events.ErrRateLimited},
		{quota, "quota", "journal: quota: campaign gondor holds 10 events, at most 10: 1 more cannot be recorded",
			"journal: cuota: la campaña gondor tiene 10 eventos, como mucho 10: no se pueden registrar 1 más", exitFailure, events.ErrQuota},
	} {
		require.ErrorIs(t, tt.err, tt.sentinel)
		code, name := exitCode(tt.err)
		if code != tt.code || name != tt.name {
			t.Errorf("%v: exit %d %q, want %d %q", tt.err, code, name, tt.code, tt.name)
		}
		for lang, want := range map[i18n.Lang]string{i18n.EN: tt.en, i18n.ES: tt.es} {
			var w bytes.Buffer
			reportError(&w, tt.err, false, lang)
			if got := strings.TrimSpace(w.String()); got != want {
				t.Errorf("%s:\n got %q\nwant %q", lang, got, want)
			}
		}
		var w bytes.Buffer
		reportError(&w, tt.err, true, i18n.EN)
		require.Contains(t, w.String(), `"code":"`+tt.name+`"`)
	}
	require.False(t, errors.Is(rate, events.ErrQuota))

	c := newCLI(t)
	bad := filepath.Join(t.TempDir(), "access.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"users":[{"name":"ana","role":"gm","campaign":"mordor","tokens":["`+access.HashToken(cliGMToken)+`"]}],
 "limits":{"appends_per_minute":-5}}`), 0o600))
	for lang, want := range map[string]string{
		"en": "limits: appends_per_minute is -5: want a positive number (0 or none: the default)",
		"es": "limits: appends_per_minute es -5: se espera un número positivo (0 o nada: el valor por defecto)",
	} {
		_, errb, code := c.run("--lang", lang, "--access", bad, "serve")
		if code != exitFailure || !strings.Contains(errb, want) {
			t.Errorf("--lang %s: exit %d: %s; want %d and %q", lang, code, errb, exitFailure, want)
		}
	}
}
