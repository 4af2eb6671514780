package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/web"
)

// harness is the service over a store, a running projector and an
// httptest server.
type harness struct {
	t     testing.TB
	store web.Store
	kv    live.KV
	proj  *live.Projector
	web   *web.Server
	srv   *httptest.Server
	url   string
	hc    *http.Client
}

// backend opens a store and a checkpoint bucket.
type backend struct {
	name string
	open func(t testing.TB) (web.Store, live.KV)
}

func memBackend() backend {
	return backend{"memstore", func(testing.TB) (web.Store, live.KV) {
		return memstore.New(memstore.Options{}), live.NewMemKV()
	}}
}

// jetBackend is a real embedded JetStream server on a fresh temporary
// folder; sync makes it sync every write to disk.
func jetBackend(sync bool) backend {
	return backend{"jetstream", func(t testing.TB) (web.Store, live.KV) {
		ctx := context.Background()
		srv, st := embeddedtest.Store(t, embedded.Options{Sync: sync})
		kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
		require.NoError(t, err)
		return st, kv
	}}
}

func backends() []backend { return []backend{memBackend(), jetBackend(false)} }

func newHarness(t testing.TB, b backend) *harness {
	t.Helper()
	return newHarnessWith(t, b, nil)
}

// newHarnessWith is newHarness with the server's options changed by opt
// (when not nil).
func newHarnessWith(t testing.TB, b backend, opt func(*web.Options)) *harness {
	t.Helper()
	st, kv := b.open(t)
	metrics := web.NewMetrics()
	proj := live.New(st, kv, live.Options{Every: 50, Interval: 200 * time.Millisecond,
		OnEvent: metrics.Folded, OnError: metrics.FoldFailed})
	_, err := proj.Restore(context.Background())
	require.NoError(t, err)
	o := web.Options{Store: st, Projector: proj, Metrics: metrics, Keepalive: 200 * time.Millisecond}
	if opt != nil {
		opt(&o)
	}
	ws, err := web.New(o)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = proj.Run(ctx)
	}()
	srv := httptest.NewUnstartedServer(ws)
	srv.Config.RegisterOnShutdown(ws.CloseStreams)
	srv.Start()
	t.Cleanup(func() {
		ws.CloseStreams()
		srv.Close()
		cancel()
		<-done
	})
	return &harness{t: t, store: st, kv: kv, proj: proj, web: ws, srv: srv, url: srv.URL, hc: srv.Client()}
}

// response is an HTTP response read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.body, v), "body: %s", r.body)
}

// do sends a request; a non-empty body is sent as JSON.
func (h *harness) do(method, path, body string, header ...string) response {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.url+path, rd)
	require.NoError(h.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	setHeaders(req, header)
	res, err := h.hc.Do(req)
	require.NoError(h.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(h.t, err)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// setHeaders sets the request's headers from name, value pairs; "Host"
// sets the request's Host (what the client sends, not the address it
// connects to).
func setHeaders(req *http.Request, header []string) {
	for i := 0; i+1 < len(header); i += 2 {
		switch {
		case http.CanonicalHeaderKey(header[i]) == "Host":
			req.Host = header[i+1]
		default:
			req.Header.Set(header[i], header[i+1])
		}
	}
}

// get fetches path, requires want and decodes the JSON into v (if not nil).
func (h *harness) get(path string, want int, v any) response {
	h.t.Helper()
	r := h.do(http.MethodGet, path, "")
	if r.status != want {
		h.t.Fatalf("GET %s: status %d, want %d: %s", path, r.status, want, r.body)
	}
	if v != nil {
		r.json(h.t, v)
	}
	return r
}

// result is the JSON answer to a command.
type result struct {
	Command  string `json:"command"`
	Campaign string `json:"campaign"`
	Recorded []struct {
		Seq   uint64       `json:"seq"`
		Text  string       `json:"text"`
		Event events.Event `json:"event"`
	} `json:"recorded"`
	LastSeq uint64 `json:"last_seq"`
}

// types lists the types of the recorded events.
func (r result) types() []string {
	var out []string
	for _, e := range r.Recorded {
		out = append(out, e.Event.Type)
	}
	return out
}

// command runs a command that must answer want.
func (h *harness) command(campaign, name, body string, want int) result {
	h.t.Helper()
	path := "/api/campaigns/" + campaign + "/commands/" + name
	r := h.do(http.MethodPost, path, body)
	if r.status != want {
		h.t.Fatalf("POST %s %s: status %d, want %d: %s", path, body, r.status, want, r.body)
	}
	var res result
	if want < 300 {
		r.json(h.t, &res)
	}
	return res
}

// errorBody is the JSON of an error.
type errorBody struct {
	Error struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		MessageEN string `json:"message_en"`
		Exit      int    `json:"exit"`
	} `json:"error"`
	Status int `json:"status"`
}

// wantError checks that r is a JSON error with the status.
func wantError(t testing.TB, what string, r response, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("%s: status %d, want %d: %s", what, r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s: Content-Type %q, want JSON", what, ct)
	}
	var e errorBody
	if err := json.Unmarshal(r.body, &e); err != nil || e.Status != status || e.Error.Message == "" || e.Error.MessageEN == "" || e.Error.Code == "" || e.Error.Exit == 0 {
		t.Fatalf("%s: error body %s, want {\"error\": {\"code\", \"message\", \"message_en\", \"exit\"}, \"status\": %d}", what, r.body, status)
	}
}

// sse is a client of an event stream.
type sse struct {
	res    *http.Response
	lines  *bufio.Reader
	cancel context.CancelFunc
}

// sseEvent is one event of a stream.
type sseEvent struct {
	ID    uint64
	Event events.Event
}

// stream opens path as an event stream (openStatus), failing the test on
// a refusal.
func (h *harness) stream(path string, header ...string) *sse {
	h.t.Helper()
	r, s := h.openStatus(path, header...)
	if s == nil {
		h.t.Fatalf("stream %s: status %d: %s", path, r.status, r.body)
	}
	return s
}

func (s *sse) close() {
	s.cancel()
	s.res.Body.Close()
}

// next reads the next event (skipping comments), failing after timeout.
func (s *sse) next(t testing.TB, timeout time.Duration) sseEvent {
	t.Helper()
	timer := time.AfterFunc(timeout, s.cancel)
	defer timer.Stop()
	ev, err := s.read()
	if err != nil {
		t.Fatalf("event stream: no event within %v: %v", timeout, err)
	}
	return ev
}

// read reads the next event, skipping comments.
func (s *sse) read() (sseEvent, error) {
	var ev sseEvent
	var data []byte
	for {
		line, err := s.lines.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if data != nil {
				e, err := events.Decode(data)
				if err != nil {
					return ev, fmt.Errorf("data %s: %w", data, err)
				}
				ev.Event = e
				return ev, nil
			}
		case strings.HasPrefix(line, ":"), strings.HasPrefix(line, "retry:"):
		case strings.HasPrefix(line, "id: "):
			if ev.ID, err = strconv.ParseUint(strings.TrimPrefix(line, "id: "), 10, 64); err != nil {
				return ev, err
			}
		case strings.HasPrefix(line, "data: "):
			if data != nil {
				return ev, fmt.Errorf("event %d has more than one data line", ev.ID)
			}
			data = bytes.Clone([]byte(strings.TrimPrefix(line, "data: ")))
		default:
			return ev, fmt.Errorf("unexpected line %q", line)
		}
	}
}
