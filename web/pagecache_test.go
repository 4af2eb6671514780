package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/live/livetest"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/web"
)

// countingStore counts the events the web server's reads deliver.
type countingStore struct {
	web.Store
	read atomic.Int64
}

func (s *countingStore) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	return s.Store.Read(ctx, q, func(r events.Recorded) error {
		s.read.Add(1)
		return fn(r)
	})
}

// feedTypes are the types feed.js asks the newest page of (its TYPES).
var feedTypes = []string{
	"journal.roll.made.v1", "journal.attack.resolved.v1", "journal.contest.resolved.v1", "journal.damage.taken.v1",
	"journal.healed.v1", "journal.combat.started.v1", "journal.combat.round.v1", "journal.combat.ended.v1",
	"journal.session.started.v1", "journal.session.ended.v1", "journal.xp.granted.v1", "journal.event.voided.v1",
	"journal.roll.cancelled.v1", "journal.roll.proved.v1", "journal.roll.hidden.v1",
	"journal.tor.hope.spent.v1", "journal.tor.fellowship.spent.v1", "journal.tor.shadow.gained.v1",
	"journal.tor.advancement.granted.v1", "journal.tor.madness.begun.v1",
}

// pagesHarness is a server whose reads are counted, over a store the test
// writes to directly.
func pagesHarness(t *testing.T) (*harness, *countingStore, *command.Handler) {
	t.Helper()
	var counted *countingStore
	h := newHarnessWith(t, memBackend(), func(o *web.Options) {
		counted = &countingStore{Store: o.Store}
		o.Commands = livetest.NewJournal(o.Store)
		o.Store = counted
	})
	return h, counted, livetest.NewJournal(h.store)
}

// pageRequests are what app.js's open() and the table's start() ask of a
// campaign's reports and newest cards.
func pageRequests(campaign, session string, upTo uint64) []string {
	b := "/api/campaigns/" + campaign
	sq := ""
	if session != "" {
		sq = "&session=" + session
	}
	return []string{
		b + "/transcript?lang=en" + sq,
		b + "/transcript?lang=es" + sq,
		b + "/transcript?lang=en&tail=100" + sq,
		b + "/stats?" + strings.TrimPrefix(sq, "&"),
		b + "/stats?character=lodin" + sq,
		b + fmt.Sprintf("/events?types=%s&tail=40&to=%d", strings.Join(feedTypes, ","), upTo),
		b + "/events?tail=7",
	}
}

// scanned is what the scanning path answers to one of pageRequests: the
// transcript, luck report or newest events from a read of the whole campaign.
func scanned(t *testing.T, st web.Store, campaign, session string, upTo uint64) []any {
	t.Helper()
	ctx := context.Background()
	filter, err := events.CampaignFilter(campaign)
	require.NoError(t, err)
	transcript := func(l i18n.Lang) any {
		tr := projections.NewTranscript(campaign, session)
		tr.Lang = l
		require.NoError(t, st.Read(ctx, events.Query{Subject: filter}, tr.Apply))
		if tr.Lines == nil {
			return []projections.Line{}
		}
		return tr.Lines
	}
	luck := func(f replay.LuckFilter) any {
		rep, err := replay.Luck(ctx, replay.StoreSource(st.Read, events.Query{Subject: filter}), f)
		require.NoError(t, err)
		return rep
	}
	type rec struct {
		Seq     uint64       `json:"seq"`
		Subject string       `json:"subject"`
		Event   events.Event `json:"event"`
	}
	tail := func(q events.Query, n int) any {
		out := []rec{}
		require.NoError(t, st.Read(ctx, q, func(r events.Recorded) error {
			out = append(out, rec{r.Seq, r.Subject, r.Event})
			return nil
		}))
		return out[max(0, len(out)-n):]
	}
	return []any{
		transcript(i18n.EN),
		transcript(i18n.ES),
		last100(transcript(i18n.EN).([]projections.Line)),
		luck(replay.LuckFilter{Campaign: campaign, Session: session}),
		luck(replay.LuckFilter{Campaign: campaign, Session: session, Character: "lodin"}),
		tail(events.Query{Subject: filter, To: upTo, Types: feedTypes}, 40),
		tail(events.Query{Subject: filter}, 7),
	}
}

// last100 is the last 100 lines.
func last100(lines []projections.Line) []projections.Line { return lines[max(0, len(lines)-100):] }

// samePages checks that the server answers every page request as a scan
// of the whole campaign does.
func samePages(t *testing.T, h *harness, campaign, session string) {
	t.Helper()
	last, err := h.store.Last(context.Background(), "journal."+campaign)
	require.NoError(t, err)
	want := scanned(t, h.store, campaign, session, last)
	for i, path := range pageRequests(campaign, session, last) {
		r := h.do(http.MethodGet, path, "")
		require.Equal(t, http.StatusOK, r.status, "%s: %s", path, r.body)
		b, err := json.Marshal(want[i])
		require.NoError(t, err)
		require.JSONEq(t, string(b), string(r.body), path)
	}
}

// TestPagesEqualScans: the transcript, the luck statistics and the newest
// page of events the server keeps answer exactly what a read of the whole
// campaign answers, through a session of play with a void of an event
// folded long before, a character created mid-session, a second session,
// and requests between every step (so that each projection reads on).
func TestPagesEqualScans(t *testing.T) {
	ctx := context.Background()
	h, _, j := pagesHarness(t)
	livetest.Setup(ctx, t, j, "mordor")
	samePages(t, h, "mordor", "s1")
	samePages(t, h, "mordor", "")
	second := livetest.PartOne(ctx, t, j, "mordor")
	samePages(t, h, "mordor", "s1")
	for i := range 120 {
		_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: []string{"lodin", "ruisenor"}[i%2], Skill: "sigilo", Vs: "media"})
		require.NoError(t, err)
		if i%40 == 0 {
			samePages(t, h, "mordor", "s1")
		}
	}
	samePages(t, h, "mordor", "s1")
	samePages(t, h, "mordor", "")
	livetest.PartTwo(ctx, t, j, "mordor", second) // a void, a character created, the session ended
	samePages(t, h, "mordor", "s1")
	samePages(t, h, "mordor", "")
	_, err := j.StartSession(ctx, "mordor", "s2", "")
	require.NoError(t, err)
	for range 5 {
		_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "sigilo", Vs: "media"})
		require.NoError(t, err)
	}
	samePages(t, h, "mordor", "s2")
	samePages(t, h, "mordor", "s1")
	samePages(t, h, "mordor", "")
}

// TestPagesReadOnlyTheTail: once the server has answered a page's
// reports, it answers them again after a few more rolls reading only the
// events after the ones it has (and at most a window of 256 sequences
// for the newest page), not the campaign's whole stream, as it did when
// each request folded the campaign from its first event.
func TestPagesReadOnlyTheTail(t *testing.T) {
	ctx := context.Background()
	h, counted, j := pagesHarness(t)
	livetest.Setup(ctx, t, j, "mordor")
	for i := range 600 {
		_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: []string{"lodin", "ruisenor"}[i%2], Skill: "sigilo", Vs: "media"})
		require.NoError(t, err)
	}
	get := func() uint64 {
		last, err := h.store.Last(ctx, "journal.mordor")
		require.NoError(t, err)
		for _, path := range pageRequests("mordor", "s1", last)[:6] { // what the pages ask
			r := h.do(http.MethodGet, path, "")
			require.Equal(t, http.StatusOK, r.status, "%s: %s", path, r.body)
		}
		return last
	}
	before := get() // the warm-up folds the campaign once
	counted.read.Store(0)
	for range 3 {
		_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "sigilo", Vs: "media"})
		require.NoError(t, err)
	}
	after := get()
	fresh := int64(after - before)
	// Each projection reads the new events once per language or selection
	// (three transcripts, two statistics), the newest page one window.
	require.LessOrEqual(t, counted.read.Load(), 5*fresh+256,
		"the pages' requests read %d events for %d new ones in a campaign of %d", counted.read.Load(), fresh, after)
	counted.read.Store(0)
	get() // nothing new: nothing but the newest page is read
	require.LessOrEqual(t, counted.read.Load(), int64(256))
}
