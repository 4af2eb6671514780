package main

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/web"
)

// TestServeLoopbackOnly: without an access file, serve refuses every --http
// address other machines could reach, and --public-host, with one message
// naming the flag and the way out, before it opens anything.
func TestServeLoopbackOnly(t *testing.T) {
	for _, args := range [][]string{
		{"--http", "0.0.0.0:0"},
		{"--http", ":0"},
		{"--http", "[::]:0"},
		{"--http", "192.0.2.10:0"},
		{"--http", "[2001:db8::1]:0"},
		{"--http", "[::ffff:192.0.2.10]:0"},
		{"--http", "no-such-host.invalid:0"},
		{"--public-host", "journal.example.org"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			c := newCLI(t)
			t.Setenv("JOURNAL_ACCESS", "")
			out, errb, code := c.run(append([]string{"serve"}, args...)...)
			require.NotEqual(t, 0, code, "stdout: %s", out)
			require.Contains(t, errb, args[0], "the message names the flag")
			require.Contains(t, errb, "--access FILE", "the message says what to do")
			require.Equal(t, 1, strings.Count(strings.TrimSpace(errb), "\n")+1, "one line: %s", errb)
			entries, err := os.ReadDir(c.dir)
			require.NoError(t, err)
			require.Empty(t, entries, "nothing opened in the data folder")
		})
	}
}

// TestServeHosts: with an access file serve listens on every interface and
// answers its public host; a rebinding Host is refused; without one, the
// actor recorded is the server's own whatever header a client sends.
func TestServeHosts(t *testing.T) {
	t.Run("with access", func(t *testing.T) {
		c := newCLI(t)
		s := c.serve("--access", writeAccess(t), "--http", "0.0.0.0:0", "--public-host", "journal.example.org")
		port := s.url[strings.LastIndexByte(s.url, ':')+1:]
		url := "http://127.0.0.1:" + port
		for _, tc := range []struct {
			host string
			want int
		}{
			{"127.0.0.1:" + port, http.StatusOK},
			{"localhost:" + port, http.StatusOK},
			{"journal.example.org", http.StatusOK},
			{"journal.example.org:443", http.StatusOK},
			{"evil.example:" + port, http.StatusMisdirectedRequest},
			{"journal.example.org.evil.example", http.StatusMisdirectedRequest},
		} {
			req, err := http.NewRequest("GET", url+"/api/campaigns", nil)
			require.NoError(t, err)
			req.Host = tc.host
			req.Header.Set("Authorization", "Bearer "+cliGMToken)
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			res.Body.Close()
			require.Equal(t, tc.want, res.StatusCode, "Host %s", tc.host)
		}
	})
	t.Run("without access", func(t *testing.T) {
		c := newCLI(t)
		t.Setenv("JOURNAL_ACTOR", "")
		s := c.serve()
		req, err := http.NewRequest("POST", s.url+"/api/campaigns", strings.NewReader(`{"id":"mordor","system":"ryf"}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(web.ActorHeader, "ana")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusCreated, res.StatusCode)
		require.Equal(t, 0, s.shutdown(t))
		evs := c.events("mordor")
		require.Len(t, evs, 1)
		require.Equal(t, "api", evs[0].Actor)
	})
}
