package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHealthcheckFindsServe: without --url, `journal healthcheck` asks the
// serve that owns its --data folder, wherever it listens (here a random
// port, not the default 8080): serve keeps its HTTP address in
// <data>/http.json (mode 0600) while it runs and removes it when it stops;
// then healthcheck says that no serve runs there. --url still overrides,
// and healthcheck creates no data folder.
func TestHealthcheckFindsServe(t *testing.T) {
	c := newCLI(t)
	s := c.serve()
	info := filepath.Join(c.dir, HTTPInfoFile)
	st, err := os.Stat(info)
	require.NoError(t, err, "serve keeps its HTTP address in the data folder")
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	var hi httpInfo
	b, err := os.ReadFile(info)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &hi))
	require.Equal(t, s.url, hi.URL)
	require.Equal(t, os.Getpid(), hi.PID)

	out := c.ok("--lang", "en", "healthcheck")
	require.Contains(t, out, s.url+"/healthz answered 200 ok")
	var rep healthReport
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "healthcheck")), &rep))
	require.Equal(t, healthReport{URL: s.url + "/healthz", Code: 200, Status: "ok"}, rep)

	// --url overrides the data folder's serve.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer other.Close()
	_, errb, code := c.run("--lang", "en", "healthcheck", "--url", other.URL+"/healthz")
	require.Equal(t, 1, code)
	require.Contains(t, errb, "answered 503")

	require.Zero(t, s.shutdown(t))
	_, err = os.Stat(info)
	require.ErrorIs(t, err, os.ErrNotExist, "serve left %s behind", HTTPInfoFile)
	_, errb, code = c.run("--lang", "en", "healthcheck")
	require.Equal(t, 1, code)
	require.Contains(t, errb, "healthcheck: no journal serve runs on "+c.dir)
	require.Contains(t, errb, "give --url")

	// A stale file (a serve killed with SIGKILL): nothing answers there.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + ln.Addr().String()
	require.NoError(t, ln.Close())
	require.NoError(t, os.WriteFile(info, []byte(`{"pid":1,"url":"`+closed+`"}`), 0o600))
	_, errb, code = c.run("--lang", "en", "healthcheck")
	require.Equal(t, 1, code)
	require.Contains(t, errb, closed+"/healthz")
	require.Contains(t, errb, "connection refused")

	missing := filepath.Join(t.TempDir(), "none")
	_, errb, code = c.run("--lang", "en", "--data", missing, "healthcheck")
	require.Equal(t, 1, code)
	require.Contains(t, errb, "no journal serve runs on "+missing)
	_, err = os.Stat(missing)
	require.ErrorIs(t, err, os.ErrNotExist, "healthcheck created the data folder")

	_, errb, code = c.run("--lang", "en", "--nats", "nats://127.0.0.1:1", "healthcheck")
	require.Equal(t, 1, code)
	require.Contains(t, errb, "with --nats")
}
