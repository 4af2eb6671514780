package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
)

// TestHostileFlood measures what a hostile player gets into the journal
// by flooding `journal serve`'s HTTP API with rolls: JOURNAL_FLOOD is how
// long (e.g. 30s), with 8 connections; the access file has the default
// limits, or none to speak of with JOURNAL_FLOOD_UNLIMITED=1 (a rate of a
// billion a minute: the journal as it was without limits). Skipped
// without JOURNAL_FLOOD. The figures are in BENCHMARKS.md:
//
//	JOURNAL_FLOOD=30s go test ./cmd/journal -run TestHostileFlood -count=1 -v
func TestHostileFlood(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("JOURNAL_FLOOD"))
	if err != nil {
		t.Skip("set JOURNAL_FLOOD=30s to measure a flood")
	}
	limits := ""
	if os.Getenv("JOURNAL_FLOOD_UNLIMITED") != "" {
		limits = `, "limits": {"appends_per_minute": 1000000000, "burst": 1000000000, "campaign_max_events": 1000000000}`
	}
	path := filepath.Join(t.TempDir(), "access.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"users": [
  {"name": "journal", "role": "journal", "password": "journal-pw"},
  {"name": "ana", "role": "gm", "campaign": "mordor", "tokens": ["`+access.HashToken(cliGMToken)+`"]},
  {"name": "bea", "role": "player", "campaign": "mordor", "characters": ["ruisenor"], "tokens": ["`+access.HashToken(cliPlayerToken)+`"]}
]`+limits+`}`), 0o600))
	c := newCLI(t)
	s := c.serve("--access", path)
	for _, step := range []struct{ path, body string }{
		{"/api/campaigns", `{"id":"mordor","system":"ryf"}`},
		{"/api/campaigns/mordor/commands/character-create", `{"id":"ruisenor","player":"bea","attributes":"F=6,R=8,D=10,I=8,P=8","skills":"Pelea=3","specialization":"Pelea"}`},
		{"/api/campaigns/mordor/commands/session-start", `{}`},
	} {
		status, _, body := postFor(t, s.url+step.path, cliGMToken, step.body)
		require.Less(t, status, 300, "%s: %s", step.path, body)
	}
	before := storedEvents(t, s)

	const workers = 8
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	var ok, limited, other atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for range workers {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				req, _ := http.NewRequest("POST", s.url+"/api/campaigns/mordor/commands/roll", strings.NewReader(`{"character":"ruisenor","skill":"Pelea"}`))
				req.Header.Set("Authorization", "Bearer "+cliPlayerToken)
				req.Header.Set("Content-Type", "application/json")
				res, err := hc.Do(req)
				if err != nil {
					other.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				switch res.StatusCode {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusTooManyRequests:
					limited.Add(1)
				default:
					other.Add(1)
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	got := storedEvents(t, s) - before
	t.Logf("flood of %v by 8 connections: %d requests (%.0f/s): %d recorded, %d refused 429, %d other; %d events got in (%.1f/s)",
		took.Round(time.Millisecond), ok.Load()+limited.Load()+other.Load(), float64(ok.Load()+limited.Load()+other.Load())/took.Seconds(),
		ok.Load(), limited.Load(), other.Load(), got, float64(got)/took.Seconds())
	require.Equal(t, int(ok.Load()), got, "every 200 recorded one event, every refusal none")
	require.Zero(t, other.Load())
}
