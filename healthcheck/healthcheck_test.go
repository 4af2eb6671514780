package healthcheck

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestProbe reads the status and lag of a 200 and refuses a 503, a
// redirect (not followed) and a URL that is not http(s).
func TestProbe(t *testing.T) {
	code := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/healthz", http.StatusFound)
			return
		}
		w.WriteHeader(code)
		_, _ = w.Write([]byte(`{"status":"lagging","lag":3}`))
	}))
	defer srv.Close()
	rep, err := Probe(context.Background(), srv.URL+"/healthz")
	if err != nil || rep.Err() != nil || rep.Status != "lagging" || rep.Lag != 3 || rep.Code != 200 {
		t.Fatalf("200: %+v, %v, %v", rep, err, rep.Err())
	}
	var b strings.Builder
	rep.WriteText(&b)
	if want := "journal healthcheck: " + srv.URL + "/healthz answered 200 lagging (lag 3)\n"; b.String() != want {
		t.Fatalf("text %q, want %q", b.String(), want)
	}
	code = http.StatusServiceUnavailable
	if rep, err := Probe(context.Background(), srv.URL+"/healthz"); err != nil || rep.Err() == nil {
		t.Fatalf("503: %+v, %v: want Err", rep, err)
	}
	code = http.StatusOK
	if rep, err := Probe(context.Background(), srv.URL+"/moved"); err != nil || rep.Code != http.StatusFound || rep.Err() == nil {
		t.Fatalf("redirect: %+v, %v: want 302 and Err", rep, err)
	}
	if _, err := Probe(context.Background(), "ftp://x/healthz"); err == nil {
		t.Fatal("ftp URL: no error")
	}
}
