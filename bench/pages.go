package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/web"
)

// PageTimes are the times, in milliseconds, a page waits for: its first
// card (the newest page of cards drawn) and its interactive state (every
// request of its start answered and its live feed open).
type PageTimes struct {
	// FirstCardP50 and InteractiveP50 are the p50 over the repeats (each
	// after one more roll, the server warm); P90 the same at p90.
	FirstCardP50   float64 `json:"first_card_p50_ms"`
	FirstCardP90   float64 `json:"first_card_p90_ms"`
	InteractiveP50 float64 `json:"interactive_p50_ms"`
	InteractiveP90 float64 `json:"interactive_p90_ms"`
	// FirstCardCold and InteractiveCold are the first load after `serve`
	// started on a filled stream (no checkpoint: the projector folded the
	// stream before the load); FirstCardRestart and InteractiveRestart the
	// first load after a restart of the server (projector restored from its
	// checkpoint, plus a tail of rolls made while it was down).
	FirstCardCold      float64 `json:"first_card_cold_ms"`
	InteractiveCold    float64 `json:"interactive_cold_ms"`
	FirstCardRestart   float64 `json:"first_card_restart_ms"`
	InteractiveRestart float64 `json:"interactive_restart_ms"`
	// Slowest names the request the interactive state waited for last, in
	// the warm p50 load.
	Slowest string `json:"slowest"`
}

// PagesSize is the pages stage at one size of campaign.
type PagesSize struct {
	Events    int       `json:"events"`
	Dashboard PageTimes `json:"dashboard"`
	Table     PageTimes `json:"table"`
	// StateBytes is the size of GET /api/campaigns/{c}'s answer.
	StateBytes int `json:"state_bytes"`
	// PageCheckpoints and PageCheckpointBytes are the number and the
	// largest size of the page checkpoints (web/pagecache.go) the first
	// server left for the restart to load.
	PageCheckpoints     int `json:"page_checkpoints"`
	PageCheckpointBytes int `json:"page_checkpoint_bytes"`
}

// Pages is the pages stage: what a user waits for in the browser pages,
// their requests timed over loopback against the real web handler.
type Pages struct {
	What    string      `json:"what"`
	Repeats int         `json:"repeats"`
	Sizes   []PagesSize `json:"sizes"`
	// RollToCard is from a roll's POST to its event on another client's
	// live feed (the event stream the pages follow), at the largest size.
	RollToCard RollLatency `json:"roll_to_card"`
}

// pagesSession is the session the pages' campaign plays.
const pagesSession = "s1"

// feedTypes are the event types feed.js asks the newest page of (TYPES).
var feedTypes = []string{
	"journal.roll.made.v1", "journal.attack.resolved.v1", "journal.contest.resolved.v1", "journal.damage.taken.v1",
	"journal.healed.v1", "journal.combat.started.v1", "journal.combat.round.v1", "journal.combat.ended.v1",
	"journal.session.started.v1", "journal.session.ended.v1", "journal.xp.granted.v1", "journal.event.voided.v1",
	"journal.roll.cancelled.v1", "journal.roll.proved.v1", "journal.roll.hidden.v1",
	"journal.tor.hope.spent.v1", "journal.tor.fellowship.spent.v1", "journal.tor.shadow.gained.v1",
	"journal.tor.advancement.granted.v1", "journal.tor.madness.begun.v1",
}

// pages measures the pages at each of Options.PagesEvents.
func (e *env) pages(ctx context.Context) (*Pages, error) {
	o := e.o
	out := &Pages{Repeats: o.PagesRepeats,
		What: "a RyF campaign of N events (10 characters, one open session) served by web.Server with a live projector and its checkpoints on the embedded JetStream, over loopback; " +
			"the dashboard's requests as app.js open() makes them (campaigns, campaign, then the newest cards with the transcript and stats beside, then the live feed), the table's as table.js start() does (me, campaigns, campaign+calls+void-proposals, newest cards, live feed)"}
	for i, n := range o.PagesEvents {
		o.progress(StagePages, "setup", 0, n)
		size, rtc, err := e.pagesAt(ctx, i, n, i == len(o.PagesEvents)-1)
		if err != nil {
			return nil, err
		}
		out.Sizes = append(out.Sizes, size)
		if rtc != nil {
			out.RollToCard = *rtc
		}
	}
	return out, nil
}

// pageServer is the web server of the stage over a store.
type pageServer struct {
	proj *live.Projector
	ws   *web.Server
	hs   *http.Server
	base string
	stop func(context.Context) error
}

// servePages starts a projector (restored from kv) and the web server on
// a loopback port, and waits for the projector to reach the stream's end.
func servePages(ctx context.Context, st *jetstore.Store, kv live.KV) (*pageServer, error) {
	proj := live.New(st, kv, live.Options{})
	if _, err := proj.Restore(ctx); err != nil {
		return nil, err
	}
	ws, err := web.New(web.Options{Store: st, Projector: proj, Actor: "api"})
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = proj.Run(pctx) }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		<-done
		return nil, err
	}
	hs := &http.Server{Handler: ws, ReadHeaderTimeout: 10 * time.Second}
	hs.RegisterOnShutdown(ws.CloseStreams)
	go func() { _ = hs.Serve(ln) }()
	ps := &pageServer{proj: proj, ws: ws, hs: hs, base: "http://" + ln.Addr().String()}
	ps.stop = func(ctx context.Context) error {
		ws.CloseStreams()
		_ = hs.Close()
		cancel()
		<-done
		return proj.Checkpoint(ctx) // as serve does when it stops
	}
	last, err := st.Last(ctx, events.AllFilter)
	if err == nil {
		wctx, wcancel := context.WithTimeout(ctx, 5*time.Minute)
		err = proj.WaitFor(wctx, last)
		wcancel()
	}
	if err != nil {
		_ = ps.stop(ctx)
		return nil, err
	}
	return ps, nil
}

// pagesAt fills a stream with a campaign of n events and measures its
// pages; with rollToCard, also the roll → card latency.
func (e *env) pagesAt(ctx context.Context, i, n int, rollToCard bool) (PagesSize, *RollLatency, error) {
	o := e.o
	size := PagesSize{Events: n}
	srv, st, err := e.startStore(ctx, fmt.Sprintf("pages-%d", i))
	if err != nil {
		return size, nil, err
	}
	defer srv.Shutdown()
	camp, chars, err := fillPages(ctx, srv, st, n)
	if err != nil {
		return size, nil, err
	}
	kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
	if err != nil {
		return size, nil, err
	}
	ps, err := servePages(ctx, st, kv)
	if err != nil {
		return size, nil, err
	}
	defer func() { _ = ps.stop(ctx) }()
	c := &pageClient{hc: &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}, base: ps.base, campaign: camp}
	roll := func(k int) error { return c.roll(ctx, chars[k%len(chars)]) }

	// The first loads after serve started: its caches are empty.
	dash, err := c.dashboard(ctx)
	if err != nil {
		return size, nil, err
	}
	size.Dashboard.FirstCardCold, size.Dashboard.InteractiveCold = ms(dash.firstCard), ms(dash.interactive)
	size.StateBytes = dash.stateBytes
	tbl, err := c.table(ctx)
	if err != nil {
		return size, nil, err
	}
	size.Table.FirstCardCold, size.Table.InteractiveCold = ms(tbl.firstCard), ms(tbl.interactive)

	// Warm: each load after one more roll, as a page opened while the
	// table plays.
	var dl, tl []pageLoad
	for k := range o.PagesRepeats {
		if err := roll(k); err != nil {
			return size, nil, err
		}
		settle()
		d, err := c.dashboard(ctx)
		if err != nil {
			return size, nil, err
		}
		t, err := c.table(ctx)
		if err != nil {
			return size, nil, err
		}
		dl, tl = append(dl, d), append(tl, t)
		o.progress(StagePages, fmt.Sprintf("%d events", n), k+1, o.PagesRepeats)
	}
	warm(&size.Dashboard, dl)
	warm(&size.Table, tl)

	var rtc *RollLatency
	if rollToCard {
		l, err := c.rollToCard(ctx, chars, o.PagesRolls)
		if err != nil {
			return size, nil, err
		}
		rtc = &l
	}

	// A restart of serve: the projector checkpoints as it stops, rolls
	// are made while it is down, and the new one restores and reads on;
	// the new web server's pages load the page checkpoints the first one
	// wrote and read the events after them.
	if err := ps.stop(ctx); err != nil {
		return size, nil, err
	}
	if size.PageCheckpoints, size.PageCheckpointBytes, err = pageCheckpoints(ctx, kv); err != nil {
		return size, nil, err
	}
	j := newJournal(st)
	for k := range 10 {
		if _, err := j.Roll(ctx, camp, command.RollRequest{Character: chars[k%len(chars)], Skill: benchSkill, Vs: benchVs}); err != nil {
			return size, nil, err
		}
	}
	ps, err = servePages(ctx, st, kv)
	if err != nil {
		return size, nil, err
	}
	c.base = ps.base
	if dash, err = c.dashboard(ctx); err != nil {
		return size, nil, err
	}
	if tbl, err = c.table(ctx); err != nil {
		return size, nil, err
	}
	size.Dashboard.FirstCardRestart, size.Dashboard.InteractiveRestart = ms(dash.firstCard), ms(dash.interactive)
	size.Table.FirstCardRestart, size.Table.InteractiveRestart = ms(tbl.firstCard), ms(tbl.interactive)
	return size, rtc, nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// pageCheckpoints returns the number of page checkpoints in kv and the
// size of the largest.
func pageCheckpoints(ctx context.Context, kv live.KV) (n, largest int, err error) {
	keys, err := kv.Keys(ctx)
	if err != nil {
		return 0, 0, err
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, "page.") {
			continue
		}
		b, err := kv.Get(ctx, k)
		if err != nil {
			return 0, 0, err
		}
		n, largest = n+1, max(largest, len(b))
	}
	return n, largest, nil
}

// warm sets the p50 and p90 of loads.
func warm(t *PageTimes, loads []pageLoad) {
	if len(loads) == 0 {
		return
	}
	first := make([]time.Duration, len(loads))
	inter := make([]time.Duration, len(loads))
	for i, l := range loads {
		first[i], inter[i] = l.firstCard, l.interactive
	}
	slices.Sort(first)
	slices.Sort(inter)
	q := func(d []time.Duration, p float64) float64 { return ms(d[min(len(d)-1, int(p*float64(len(d))))]) }
	t.FirstCardP50, t.FirstCardP90 = q(first, 0.5), q(first, 0.9)
	t.InteractiveP50, t.InteractiveP90 = q(inter, 0.5), q(inter, 0.9)
	slices.SortFunc(loads, func(a, b pageLoad) int { return int(a.interactive - b.interactive) })
	t.Slowest = loads[len(loads)/2].slowest
}

// fillPages writes a RyF campaign of n events (its creation, 10
// characters, an open session, then rolls) straight into the stream, as
// the rebuild's fill does, and keeps the session's seed where the roll
// command finds it. It returns the campaign and its characters.
func fillPages(ctx context.Context, srv *embedded.Server, st *jetstore.Store, n int) (string, []string, error) {
	g, err := newGenerator(Options{Campaigns: 1, Characters: 10, Events: n + 1}) // +1: the session's end, left out
	if err != nil {
		return "", nil, err
	}
	js, err := jetstream.New(srv.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		return "", nil, err
	}
	var failed error
	var acks []jetstream.PubAckFuture
	err = g.each(func(ev events.Event) error {
		if ev.Type == events.TypeSessionEnded {
			return nil // the session stays open: the bench rolls in it
		}
		doc, err := g.encode(ev)
		if err != nil {
			return err
		}
		m := &nats.Msg{Subject: ev.StreamSubject, Data: doc, Header: nats.Header{}}
		m.Header.Set(jetstream.MsgIDHeader, ev.ID)
		m.Header.Set(events.HeaderType, ev.Type)
		if kind, id, err := ev.Aggregate(); err == nil {
			m.Header.Set(events.HeaderAggregate, events.AggregateHeaderValue(kind, id))
		}
		f, err := js.PublishMsgAsync(m, jetstream.WithStallWait(time.Minute))
		if err != nil {
			return fmt.Errorf("pages fill: publish: %w", err)
		}
		acks = append(acks, f)
		return ctx.Err()
	})
	if err != nil {
		return "", nil, err
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
	for _, f := range acks {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			failed = err
		}
		if failed != nil {
			return "", nil, fmt.Errorf("pages fill: %w", failed)
		}
	}
	c := g.camps[0]
	key, err := events.SecretKey("seed", c.id, pagesSession)
	if err != nil {
		return "", nil, err
	}
	seed := seedOf(c.id)
	if err := st.PutSecret(ctx, key, seed[:]); err != nil {
		return "", nil, err
	}
	return c.id, c.chars, nil
}

// pageClient makes a page's requests as the browser does.
type pageClient struct {
	hc       *http.Client
	base     string
	campaign string
}

// pageLoad is one timed load of a page.
type pageLoad struct {
	firstCard, interactive time.Duration
	slowest                string
	stateBytes             int
}

// get reads path whole, with the time it took.
func (c *pageClient) get(ctx context.Context, path string, v any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, err
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %d %s", path, res.StatusCode, bytes.TrimSpace(b))
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			return 0, fmt.Errorf("GET %s: %w", path, err)
		}
	}
	return len(b), nil
}

// openFeed opens the live feed from seq from and returns once its
// response's headers came (EventSource's open), with the stream.
func (c *pageClient) openFeed(ctx context.Context, from uint64) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/api/campaigns/%s/events?from=%d", c.base, c.campaign, from), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	hc := &http.Client{Transport: c.hc.Transport} // no timeout: it stays open
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		return nil, fmt.Errorf("event stream: %d", res.StatusCode)
	}
	return res, nil
}

// parallelGets runs the gets at once and returns when all have answered,
// with the path answered last.
func parallelGets(gets map[string]func() error) (string, error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	var first error
	last := ""
	for name, g := range gets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := g()
			mu.Lock()
			defer mu.Unlock()
			if err != nil && first == nil {
				first = err
			}
			last = name
		}()
	}
	wg.Wait()
	return last, first
}

// campaignState is what the pages read of GET /api/campaigns/{c}.
type campaignState struct {
	LastSeq  uint64 `json:"last_seq"`
	Sessions []struct {
		ID string `json:"id"`
	} `json:"sessions"`
}

func (c *pageClient) tailPath(upTo uint64) string {
	return fmt.Sprintf("/api/campaigns/%s/events?types=%s&tail=40&to=%d", c.campaign, strings.Join(feedTypes, ","), upTo)
}

// dashboard loads the dashboard as app.js open() does: the campaign
// list, the campaign, then the newest cards (first card) while the
// transcript and the stats load beside, then the live feed (interactive
// once all have answered).
func (c *pageClient) dashboard(ctx context.Context) (pageLoad, error) {
	var l pageLoad
	t0 := time.Now()
	if _, err := c.get(ctx, "/api/campaigns", nil); err != nil {
		return l, err
	}
	var cs campaignState
	n, err := c.get(ctx, "/api/campaigns/"+c.campaign, &cs)
	if err != nil {
		return l, err
	}
	l.stateBytes = n
	session := ""
	if len(cs.Sessions) > 0 {
		session = cs.Sessions[len(cs.Sessions)-1].ID
	}
	reports := make(chan error, 1)
	var reportsAt time.Time
	var lastReport string
	go func() {
		sq, q := "", ""
		if session != "" {
			sq, q = "&session="+session, "?session="+session
		}
		name, err := parallelGets(map[string]func() error{
			"transcript": func() error {
				_, err := c.get(ctx, "/api/campaigns/"+c.campaign+"/transcript?lang=en"+sq+"&tail=100", nil)
				return err
			},
			"stats": func() error { _, err := c.get(ctx, "/api/campaigns/"+c.campaign+"/stats"+q, nil); return err },
		})
		reportsAt, lastReport = time.Now(), name
		reports <- err
	}()
	if _, err := c.get(ctx, c.tailPath(cs.LastSeq), nil); err != nil {
		<-reports
		return l, err
	}
	l.firstCard = time.Since(t0)
	feed, err := c.openFeed(ctx, cs.LastSeq+1)
	if err != nil {
		<-reports
		return l, err
	}
	feedAt := time.Now()
	feed.Body.Close()
	if err := <-reports; err != nil {
		return l, err
	}
	l.interactive, l.slowest = feedAt.Sub(t0), "event stream"
	if reportsAt.After(feedAt) {
		l.interactive, l.slowest = reportsAt.Sub(t0), lastReport
	}
	return l, nil
}

// table loads the table as table.js start() does: who the token is, the
// campaigns, the campaign with its calls and void proposals at once, the
// newest cards (first card), then the live feed (interactive).
func (c *pageClient) table(ctx context.Context) (pageLoad, error) {
	var l pageLoad
	t0 := time.Now()
	if _, err := c.get(ctx, "/api/me", nil); err != nil {
		return l, err
	}
	if _, err := c.get(ctx, "/api/campaigns", nil); err != nil {
		return l, err
	}
	var cs campaignState
	b := "/api/campaigns/" + c.campaign
	if _, err := parallelGets(map[string]func() error{
		"campaign":       func() error { _, err := c.get(ctx, b, &cs); return err },
		"calls":          func() error { _, err := c.get(ctx, b+"/calls", nil); return err },
		"void-proposals": func() error { _, err := c.get(ctx, b+"/void-proposals", nil); return err },
	}); err != nil {
		return l, err
	}
	if _, err := c.get(ctx, c.tailPath(cs.LastSeq), nil); err != nil {
		return l, err
	}
	l.firstCard = time.Since(t0)
	feed, err := c.openFeed(ctx, cs.LastSeq+1)
	if err != nil {
		return l, err
	}
	feed.Body.Close()
	l.interactive, l.slowest = time.Since(t0), "event stream"
	return l, nil
}

// roll POSTs a roll command, as the table's roll button does.
func (c *pageClient) roll(ctx context.Context, char string) error {
	body, err := json.Marshal(command.RollRequest{Character: char, Skill: benchSkill, Vs: benchVs})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/campaigns/"+c.campaign+"/commands/roll", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("POST roll: %d %s", res.StatusCode, bytes.TrimSpace(b))
	}
	return nil
}

// rollToCard times n rolls from their POST to their event on another
// client's live feed.
func (c *pageClient) rollToCard(ctx context.Context, chars []string, n int) (RollLatency, error) {
	var cs campaignState
	if _, err := c.get(ctx, "/api/campaigns/"+c.campaign, &cs); err != nil {
		return RollLatency{}, err
	}
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	feed, err := c.openFeed(fctx, cs.LastSeq+1)
	if err != nil {
		return RollLatency{}, err
	}
	defer feed.Body.Close()
	rolls := make(chan time.Time, 16)
	go func() {
		defer close(rolls)
		sc := bufio.NewScanner(feed.Body)
		sc.Buffer(make([]byte, 1<<16), 1<<22)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var ev struct {
				Type string `json:"type"`
			}
			if json.Unmarshal([]byte(data), &ev) == nil && ev.Type == events.TypeRollMade {
				rolls <- time.Now()
			}
		}
	}()
	lat := make([]time.Duration, 0, n)
	t0 := time.Now()
	for k := range n {
		start := time.Now()
		if err := c.roll(ctx, chars[k%len(chars)]); err != nil {
			return RollLatency{}, err
		}
		select {
		case at, ok := <-rolls:
			if !ok {
				return RollLatency{}, fmt.Errorf("roll to card: the event stream ended")
			}
			lat = append(lat, at.Sub(start))
		case <-time.After(30 * time.Second):
			return RollLatency{}, fmt.Errorf("roll to card: no card within 30 s")
		}
	}
	return latencyOf(lat, time.Since(t0)), nil
}
