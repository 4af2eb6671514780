package web_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/web"
)

// jetBackendJS is jetBackend that also hands out the server's JetStream.
func jetBackendJS(js *jetstream.JetStream) backend {
	return backend{"jetstream", func(t testing.TB) (web.Store, live.KV) {
		srv, st := embeddedtest.Store(t, embedded.Options{})
		kv, err := live.OpenBucket(context.Background(), srv.JetStream(), 1)
		require.NoError(t, err)
		*js = srv.JetStream()
		return st, kv
	}}
}

// consumers returns the number of consumers of the journal's stream.
func consumers(t testing.TB, js jetstream.JetStream) int {
	t.Helper()
	st, err := js.Stream(context.Background(), jetstore.StreamName)
	require.NoError(t, err)
	info, err := st.Info(context.Background())
	require.NoError(t, err)
	return info.State.Consumers
}

// seqsOf returns the sequences of campaign's events from sequence from on.
func (h *harness) seqsOf(campaign string, from uint64) []uint64 {
	h.t.Helper()
	var out []uint64
	require.NoError(h.t, h.store.Read(context.Background(), events.Query{Subject: "journal." + campaign, From: from}, func(r events.Recorded) error {
		out = append(out, r.Seq)
		return nil
	}))
	return out
}

// nextSeqs reads n events of s.
func (s *sse) nextSeqs(t testing.TB, n int) []uint64 {
	t.Helper()
	out := make([]uint64, 0, n)
	for range n {
		out = append(out, s.next(t, 10*time.Second).ID)
	}
	return out
}

// dayEvent is a new event of campaign, for appending straight to the store.
func dayEvent(t testing.TB, ids events.IDs, campaign string) events.Event {
	t.Helper()
	ev, err := events.New(events.Spec{
		Campaign: campaign, Kind: events.KindCampaign, AggregateID: campaign, Name: "day",
		Type: events.TypeDayStarted, Actor: "test", Data: events.DayStarted{Reason: "gm"},
	}, ids, time.Now())
	require.NoError(t, err)
	return ev
}

// TestStreamsFanOut: many readers of the event stream each get every event
// of their campaign, in order, with no gap, and the NATS server has no
// more consumers with them than without: they follow the live
// projection's one.
func TestStreamsFanOut(t *testing.T) {
	var js jetstream.JetStream
	h := newHarnessWith(t, jetBackendJS(&js), func(o *web.Options) { o.MaxStreamsPerUser = 100 })
	h.setup("mordor")
	h.setup("moria")
	before := consumers(t, js)
	const n = 40
	readers := make([]*sse, n)
	campaign := func(i int) string { return []string{"mordor", "moria"}[min(i%4, 1)] }
	for i := range readers {
		readers[i] = h.stream("/api/campaigns/" + campaign(i) + "/events")
	}
	for range 5 {
		h.command("mordor", "day-new", `{}`, http.StatusOK)
		h.command("moria", "day-new", `{}`, http.StatusOK)
	}
	want := map[string][]uint64{"mordor": h.seqsOf("mordor", 1), "moria": h.seqsOf("moria", 1)}
	for i, r := range readers {
		w := want[campaign(i)]
		if got := r.nextSeqs(t, len(w)); !slices.Equal(got, w) {
			t.Fatalf("reader %d of %s got %v, want %v", i, campaign(i), got, w)
		}
	}
	if after := consumers(t, js); after != before {
		t.Fatalf("consumers of the stream: %d with %d readers, %d without", after, n, before)
	}
	if before > 1 {
		t.Fatalf("%d consumers before any reader: want the live projection's alone", before)
	}
}

// TestStreamSwitchesFromHistoryToLive: readers that join while events are
// appended, from the start or resuming after any event, each get exactly
// the events after their start, once each, in order: nothing is lost or
// doubled where the history read hands over to the live feed.
func TestStreamSwitchesFromHistoryToLive(t *testing.T) {
	h := newHarnessWith(t, jetBackend(false), func(o *web.Options) { o.MaxStreamsPerUser = 100 })
	h.setup("mordor")
	ctx := context.Background()
	ids := events.NewV7(time.Now, rand.Reader)
	sentinel := dayEvent(t, ids, "mordor")
	const appends, readers = 150, 16

	type reader struct {
		from uint64
		got  []uint64
		err  error
	}
	rs := make([]*reader, readers)
	var wg sync.WaitGroup
	appended := make(chan struct{})
	go func() {
		defer close(appended)
		for i := range appends {
			if _, err := h.store.Append(ctx, events.Expect{}, dayEvent(t, ids, "mordor")); err != nil {
				t.Errorf("append %d: %v", i, err)
				return
			}
			time.Sleep(time.Millisecond)
		}
		if _, err := h.store.Append(ctx, events.Expect{}, sentinel); err != nil {
			t.Errorf("append the last: %v", err)
		}
	}()
	for i := range rs {
		time.Sleep(8 * time.Millisecond)
		last := h.count(t)
		r := &reader{from: 1}
		var header []string
		if i%2 == 1 { // resume after an event somewhere in the past
			after := last * uint64(i) / readers
			r.from = after + 1
			header = []string{"Last-Event-ID", fmt.Sprint(after)}
		}
		rs[i] = r
		s := h.stream("/api/campaigns/mordor/events", header...)
		wg.Go(func() {
			timer := time.AfterFunc(30*time.Second, s.cancel)
			defer timer.Stop()
			for {
				ev, err := s.read()
				if err != nil {
					r.err = err
					return
				}
				r.got = append(r.got, ev.ID)
				if ev.Event.ID == sentinel.ID {
					return
				}
			}
		})
	}
	<-appended
	wg.Wait()
	for i, r := range rs {
		want := h.seqsOf("mordor", r.from)
		if r.err != nil || !slices.Equal(r.got, want) {
			t.Errorf("reader %d from %d: got %v (err %v),\nwant %v", i, r.from, r.got, r.err, want)
		}
	}
}

// TestStreamResumesExactly: a reader resuming with Last-Event-ID gets
// exactly the events it missed, then the live ones.
func TestStreamResumesExactly(t *testing.T) {
	h := newHarness(t, jetBackend(false))
	h.setup("mordor")
	s := h.stream("/api/campaigns/mordor/events")
	seen := s.nextSeqs(t, 3)
	s.close()
	for range 4 {
		h.command("mordor", "day-new", `{}`, http.StatusOK)
	}
	r := h.stream("/api/campaigns/mordor/events", "Last-Event-ID", fmt.Sprint(seen[2]))
	missed := h.seqsOf("mordor", seen[2]+1)
	if got := r.nextSeqs(t, len(missed)); !slices.Equal(got, missed) {
		t.Fatalf("resumed after %d: got %v, want %v", seen[2], got, missed)
	}
	res := h.command("mordor", "day-new", `{}`, http.StatusOK)
	if ev := r.next(t, 5*time.Second); ev.ID != res.Recorded[0].Seq {
		t.Fatalf("after the missed events: %d, want the new %d", ev.ID, res.Recorded[0].Seq)
	}
}

// metric returns the value of a metric without labels, as /metrics says it.
func (h *harness) metric(name string) string {
	h.t.Helper()
	text := string(h.get("/metrics", http.StatusOK, nil).body)
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			return v
		}
	}
	return ""
}

// openStatus opens an event stream and returns its status, and the
// response (a refusal read whole) or the stream.
func (h *harness) openStatus(path string, header ...string) (response, *sse) {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.url+path, nil)
	require.NoError(h.t, err)
	req.Header.Set("Accept", "text/event-stream")
	setHeaders(req, header)
	res, err := h.hc.Do(req)
	require.NoError(h.t, err)
	if res.StatusCode == http.StatusOK {
		s := &sse{res: res, lines: bufio.NewReader(res.Body), cancel: cancel}
		h.t.Cleanup(s.close)
		return response{status: res.StatusCode, header: res.Header}, s
	}
	defer cancel()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(h.t, err)
	return response{status: res.StatusCode, header: res.Header, body: b}, nil
}

// TestStreamLimits: a user over its limit of open streams, or anyone over
// the server's, is refused with 429, a JSON error and Retry-After, and the
// open streams go on; a closed stream frees its place.
func TestStreamLimits(t *testing.T) {
	h := newHarnessWith(t, memBackend(), func(o *web.Options) {
		o.Access = accessConfig(t)
		o.MaxStreamsPerUser, o.MaxStreams = 2, 3
	})
	require.Equal(t, http.StatusCreated, h.do("POST", "/api/campaigns", `{"id":"mordor","system":"ryf"}`, bearer(anaToken)...).status)
	path := "/api/campaigns/mordor/events"
	a1 := h.stream(path, bearer(anaToken)...)
	a2 := h.stream(path+"?access_token="+anaToken, "Accept", "text/event-stream")
	r, _ := h.openStatus(path, bearer(anaToken)...)
	wantError(t, "ana's third stream", r, http.StatusTooManyRequests)
	if r.header.Get("Retry-After") == "" || !strings.Contains(string(r.body), "ana") {
		t.Fatalf("ana's refusal: Retry-After %q, %s", r.header.Get("Retry-After"), r.body)
	}
	r, _ = h.openStatus(path + "?access_token=" + anaToken)
	wantError(t, "ana's third stream by query token", r, http.StatusTooManyRequests)
	w1 := h.stream(path, bearer(wallToken)...)
	r, _ = h.openStatus(path, bearer(beaToken)...)
	wantError(t, "bea's stream over the server's limit", r, http.StatusTooManyRequests)
	if !strings.Contains(string(r.body), "server") {
		t.Fatalf("the server's refusal: %s", r.body)
	}
	if got := h.metric("journal_sse_clients"); got != "3" {
		t.Fatalf("journal_sse_clients = %q, want 3", got)
	}
	if got := h.metric("journal_sse_refused_total"); got != "3" {
		t.Fatalf("journal_sse_refused_total = %q, want 3", got)
	}
	// The open streams go on.
	res := h.do("POST", "/api/campaigns/mordor/commands/day-new", `{}`, bearer(anaToken)...)
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	var day result
	res.json(t, &day)
	for name, s := range map[string]*sse{"a1": a1, "a2": a2, "w1": w1} {
		if ev := s.next(t, 5*time.Second); ev.ID != 1 {
			t.Fatalf("%s: event %d", name, ev.ID)
		}
		if ev := s.next(t, 5*time.Second); ev.ID != day.Recorded[0].Seq {
			t.Fatalf("%s: event %d, want %d", name, ev.ID, day.Recorded[0].Seq)
		}
	}
	// A closed stream frees its place.
	a1.close()
	require.Eventually(t, func() bool {
		r, s := h.openStatus(path, bearer(beaToken)...)
		if s != nil {
			return true
		}
		require.Equal(t, http.StatusTooManyRequests, r.status)
		return false
	}, 5*time.Second, 20*time.Millisecond, "bea's stream after ana closed one")
}

// TestStreamLimitsWithoutAccess: without access control the streams count
// by the client's address.
func TestStreamLimitsWithoutAccess(t *testing.T) {
	h := newHarnessWith(t, memBackend(), func(o *web.Options) { o.MaxStreamsPerUser = 2 })
	h.setup("mordor")
	h.stream("/api/campaigns/mordor/events")
	h.stream("/api/campaigns/mordor/events")
	r, _ := h.openStatus("/api/campaigns/mordor/events")
	wantError(t, "a third stream from one address", r, http.StatusTooManyRequests)
}

// ended reads s until it ends, and fails if it has not within d.
func ended(t *testing.T, what string, s *sse, d time.Duration) {
	t.Helper()
	timer := time.AfterFunc(d, s.cancel)
	defer timer.Stop()
	for {
		_, err := s.read()
		if err == nil {
			continue
		}
		if !errors.Is(err, io.EOF) {
			t.Fatalf("%s: still open after %v (%v)", what, d, err)
		}
		return
	}
}

// deviceHarness is a harness with access control and a book of
// invites, mordor created by ana, revocations by another process looked
// for every check.
func deviceHarness(t *testing.T, check time.Duration) (*harness, *invite.Book) {
	t.Helper()
	book := invite.Open(t.TempDir()+"/access.json.devices.json", nil, nil)
	h := newHarnessWith(t, memBackend(), func(o *web.Options) {
		o.Access, o.Devices, o.RevokeCheck = accessConfig(t), book, check
	})
	require.Equal(t, http.StatusCreated, h.do("POST", "/api/campaigns", `{"id":"mordor","system":"ryf"}`, bearer(anaToken)...).status)
	return h, book
}

// device signs in a viewer's device and returns its token and id.
func (h *harness) device(book *invite.Book) (token, id string) {
	h.t.Helper()
	tok, _, err := book.Create(context.Background(), invite.Spec{User: "tv", Role: invite.RoleViewer, Campaign: "mordor", By: "ana"})
	require.NoError(h.t, err)
	r := h.do("POST", "/api/invites/"+tok, `{}`)
	require.Equal(h.t, http.StatusOK, r.status, "%s", r.body)
	var red struct{ Token, Device string }
	r.json(h.t, &red)
	return red.Token, red.Device
}

// TestRevokedDeviceStreamsEnd: a device revoked through the API has its
// open event streams ended at once (the book is not looked at again for
// an hour); another device's stream goes on.
func TestRevokedDeviceStreamsEnd(t *testing.T) {
	h, book := deviceHarness(t, time.Hour)
	tok1, id1 := h.device(book)
	tok2, _ := h.device(book)
	path := "/api/campaigns/mordor/events?access_token="
	s1, s1b, s2 := h.stream(path+tok1), h.stream(path+tok1), h.stream(path+tok2)
	for _, s := range []*sse{s1, s1b, s2} {
		s.next(t, 5*time.Second)
	}
	start := time.Now()
	require.Equal(t, http.StatusOK, h.do("POST", "/api/campaigns/mordor/devices/"+id1+"/revoke", "", bearer(anaToken)...).status)
	ended(t, "the revoked device's first stream", s1, 2*time.Second)
	ended(t, "the revoked device's second stream", s1b, 2*time.Second)
	t.Logf("revoked through the API: streams ended in %v", time.Since(start))
	h.do("POST", "/api/campaigns/mordor/commands/day-new", `{}`, bearer(anaToken)...)
	s2.next(t, 5*time.Second) // the other device's stream goes on
	r, _ := h.openStatus(path + tok1)
	wantError(t, "the revoked device's new stream", r, http.StatusUnauthorized)
}

// TestDeviceRevokedElsewhereStreamsEnd: a device revoked by another
// process (`journal devices revoke` writes the book) has its open streams
// ended at the next check of the book.
func TestDeviceRevokedElsewhereStreamsEnd(t *testing.T) {
	h, book := deviceHarness(t, 50*time.Millisecond)
	tok, id := h.device(book)
	s := h.stream("/api/campaigns/mordor/events?access_token=" + tok)
	s.next(t, 5*time.Second)
	start := time.Now()
	require.NoError(t, book.Revoke(context.Background(), id))
	ended(t, "the device revoked in the book", s, 2*time.Second)
	t.Logf("revoked in the book: stream ended in %v", time.Since(start))
}

// newFeedHarness is newHarnessWith on memstore with the live projection's
// feed buffering buffer events per reader.
func newFeedHarness(t *testing.T, buffer int) *harness {
	t.Helper()
	st, kv := memBackend().open(t)
	proj := live.New(st, kv, live.Options{FeedBuffer: buffer})
	_, err := proj.Restore(context.Background())
	require.NoError(t, err)
	ws, err := web.New(web.Options{Store: st, Projector: proj, Keepalive: time.Second})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = proj.Run(ctx)
	}()
	srv := httptest.NewServer(ws)
	t.Cleanup(func() {
		ws.CloseStreams()
		srv.Close()
		cancel()
		<-done
	})
	return &harness{t: t, store: st, kv: kv, proj: proj, web: ws, srv: srv, url: srv.URL, hc: srv.Client()}
}

// TestSlowStreamResumes: a reader that falls behind the live feed (here a
// feed of one event a reader, and bursts of events appended at once) is
// closed, counted, and resumes with Last-Event-ID exactly where it was.
func TestSlowStreamResumes(t *testing.T) {
	h := newFeedHarness(t, 1)
	h.setup("mordor")
	ctx := context.Background()
	ids := events.NewV7(time.Now, rand.Reader)
	s := h.stream("/api/campaigns/mordor/events")
	var got []uint64
	closed := false
	for burst := 0; burst < 10 && !closed; burst++ {
		evs := make([]events.Event, 200)
		for i := range evs {
			evs[i] = dayEvent(t, ids, "mordor")
		}
		_, err := h.store.Append(ctx, events.Expect{}, evs...)
		require.NoError(t, err)
		want := h.count(t)
		for len(got) == 0 || got[len(got)-1] < want {
			timer := time.AfterFunc(5*time.Second, s.cancel)
			ev, err := s.read()
			timer.Stop()
			if err != nil {
				require.ErrorIs(t, err, io.EOF, "the slow stream ends, it does not stall")
				closed = true
				break
			}
			got = append(got, ev.ID)
		}
	}
	require.True(t, closed, "no reader fell behind a feed of one event in 10 bursts of 200")
	require.Equal(t, h.seqsOf("mordor", 1)[:len(got)], got, "before it was closed")
	require.Equal(t, "1", h.metric("journal_sse_slow_closed_total"))
	r := h.stream("/api/campaigns/mordor/events", "Last-Event-ID", fmt.Sprint(got[len(got)-1]))
	rest := h.seqsOf("mordor", got[len(got)-1]+1)
	require.Equal(t, rest, r.nextSeqs(t, len(rest)), "resumed")
}
