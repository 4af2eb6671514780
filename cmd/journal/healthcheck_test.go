package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHealthcheck: `journal healthcheck` exits 0 against a running serve's
// /healthz, and non-zero with one message when the answer is not 200, when
// nothing listens, and for a URL that is not http(s).
func TestHealthcheck(t *testing.T) {
	c := newCLI(t)
	s := c.serve()
	defer func() { require.Zero(t, s.shutdown(t)) }()

	out := c.ok("healthcheck", "--url", s.url+"/healthz")
	require.Contains(t, out, "answered 200 ok")
	var rep healthReport
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "healthcheck", "--url", s.url+"/healthz")), &rep))
	require.Equal(t, healthReport{URL: s.url + "/healthz", Code: 200, Status: "ok"}, rep)

	// What serve answers when its projection is stuck or its store is gone
	// (web's health tests make serve say it); here, only the code matters.
	unavailable := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"status":"unavailable"}`))
	}))
	defer unavailable.Close()
	redirect := httptest.NewServer(http.RedirectHandler(s.url+"/healthz", http.StatusFound))
	defer redirect.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + ln.Addr().String() + "/healthz"
	require.NoError(t, ln.Close())

	for _, tt := range []struct{ url, want string }{
		{unavailable.URL + "/healthz", "answered 503, not 200"},
		{redirect.URL, "answered 302, not 200"},
		{closed, "connection refused"},
		{"ftp://127.0.0.1/healthz", "want an http:// or https:// URL"},
		{"127.0.0.1:8080/healthz", "want an http:// or https:// URL"},
	} {
		_, errb, code := c.run("--lang", "en", "healthcheck", "--url", tt.url)
		require.Equal(t, 1, code, tt.url)
		require.Contains(t, errb, tt.want, tt.url)
	}
}
