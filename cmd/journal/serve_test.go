package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// syncBuffer is a buffer written by one goroutine and read by another.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// server is a `journal serve` running in-process.
type server struct {
	url    string
	out    *syncBuffer
	errb   *syncBuffer
	stop   context.CancelFunc
	done   chan struct{} // closed when serve has returned
	exit   int
	banner string
}

var listening = regexp.MustCompile(`listening on (http://\S+?)/ `)

// serve starts `journal serve` on the CLI's data folder, as SIGINT would
// stop it when stop is called.
func (c *cli) serve(args ...string) *server {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{out: &syncBuffer{}, errb: &syncBuffer{}, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.exit = run(ctx, append([]string{"--data", c.dir, "serve", "--http", "127.0.0.1:0", "--checkpoint-interval", "100ms"}, args...), s.out, s.errb)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := listening.FindStringSubmatch(s.out.String()); m != nil {
			s.url, s.banner = m[1], s.out.String()
			break
		}
		select {
		case <-s.done:
			c.t.Fatalf("serve exited %d: %s %s", s.exit, s.out, s.errb)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cancel()
			c.t.Fatalf("serve did not start: %s %s", s.out, s.errb)
		}
	}
	c.t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
		}
	})
	return s
}

// shutdown stops the server as a signal would and returns its exit code.
func (s *server) shutdown(t *testing.T) int {
	t.Helper()
	s.stop()
	select {
	case <-s.done:
		return s.exit
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30 s")
	}
	return -1
}

func (s *server) get(t *testing.T, path string, v any) {
	t.Helper()
	res, err := http.Get(s.url + path)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, "GET %s: %s", path, b)
	require.NoError(t, json.Unmarshal(b, v))
}

func (s *server) post(t *testing.T, path, body string) {
	t.Helper()
	res, err := http.Post(s.url+path, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	require.Equal(t, http.StatusOK, res.StatusCode, "POST %s: %s", path, b)
}

// TestServe runs `journal serve` while CLI commands record through it,
// stops it as a signal does (a final checkpoint), records with the CLI
// alone, and restarts it: it resumes from the checkpoint and catches up.
func TestServe(t *testing.T) {
	c := newCLI(t)
	s := c.serve()
	if !strings.Contains(s.banner, "folding the stream from the start") || !strings.Contains(s.banner, "NATS nats://127.0.0.1:") {
		t.Fatalf("banner: %s", s.banner)
	}

	// The CLI records through the running server.
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "sigilo")
	var sheet struct {
		Rolls int `json:"rolls"`
	}
	s.get(t, "/api/campaigns/mordor/characters/lodin", &sheet)
	if sheet.Rolls != 1 {
		t.Fatalf("lodin's rolls through the API: %d, want 1", sheet.Rolls)
	}
	s.post(t, "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"pelea"}`)

	// A second serve on the same folder refuses.
	out, errb, code := c.run("--lang", "en", "serve", "--http", "127.0.0.1:0")
	if code == 0 || !strings.Contains(errb, "already served") {
		t.Fatalf("second serve: exit %d\n%s%s", code, out, errb)
	}

	if code := s.shutdown(t); code != 0 {
		t.Fatalf("serve exited %d: %s", code, s.errb)
	}
	stopped := regexp.MustCompile(`stopped at sequence (\d+), checkpoint at (\d+)`).FindStringSubmatch(s.out.String())
	if stopped == nil || stopped[1] != stopped[2] || stopped[1] != "6" {
		t.Fatalf("shutdown: %s", s.out)
	}

	// Without the server, the CLI records on its own.
	c.ok("-c", "mordor", "roll", "lodin", "sigilo")

	r := c.serve()
	if !strings.Contains(r.banner, "resumed from checkpoint at sequence 6") {
		t.Fatalf("restart: %s", r.banner)
	}
	s.url = r.url
	s.get(t, "/api/campaigns/mordor/characters/lodin", &sheet)
	if sheet.Rolls != 3 {
		t.Fatalf("lodin's rolls after the restart: %d, want 3", sheet.Rolls)
	}
	var api, cliSheet map[string]any
	s.get(t, "/api/campaigns/mordor/characters/orco", &api)
	require.NoError(t, json.Unmarshal([]byte(c.ok("-c", "mordor", "--json", "character", "show", "orco")), &cliSheet))
	require.Equal(t, cliSheet, api, "the API's sheet differs from the CLI's")
	if code := r.shutdown(t); code != 0 {
		t.Fatalf("serve exited %d: %s", code, r.errb)
	}
}

// TestServeFlags checks refusals of bad flags.
func TestServeFlags(t *testing.T) {
	c := newCLI(t)
	_, errb, code := c.run("serve", "--nats", "nats://127.0.0.1:1", "--nats-listen", "127.0.0.1:0")
	if code == 0 || !strings.Contains(errb, "--nats-listen") {
		t.Fatalf("--nats with --nats-listen: exit %d: %s", code, errb)
	}
	_, errb, code = c.run("serve", "--http", "not an address")
	if code == 0 || !strings.Contains(errb, "--http") {
		t.Fatalf("bad --http: exit %d: %s", code, errb)
	}
}
