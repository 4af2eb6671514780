package web_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
	"github.com/campaign-journal/journal/web"
)

// hostStore is the store of a GM who hosts and, once forge is set, shows
// other stored bytes for the event at that sequence (a history rewritten
// in its data folder, as every reader of the journal now sees it).
type hostStore struct {
	web.Store
	forge atomic.Uint64
}

// PutSecret and GetSecret are the inner store's (the sessions' seeds).
func (h *hostStore) PutSecret(ctx context.Context, key string, value []byte) error {
	return h.Store.(events.Secrets).PutSecret(ctx, key, value)
}

func (h *hostStore) GetSecret(ctx context.Context, key string) ([]byte, error) {
	return h.Store.(events.Secrets).GetSecret(ctx, key)
}

func (h *hostStore) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	return h.Store.Read(ctx, q, func(r events.Recorded) error {
		if s := h.forge.Load(); s != 0 && r.Seq == s && r.Raw != nil {
			r.Raw = append(append([]byte(nil), r.Raw...), ' ')
		}
		return fn(r)
	})
}

// TestTableReceiptsInBrowsers: a player's device at the table signs every
// message with what it saw (seen) and keeps it in IndexedDB before
// sending; on the next load it checks the journal against what it kept,
// silently while they agree. Then the host rewrites the event the
// player's device signed after seeing: on the next load the page shows a
// red banner naming the sequence where the histories part, and offers its
// receipts in the CLI's format.
func TestTableReceiptsInBrowsers(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	gmB := newBrowser(t)
	host := &hostStore{}
	th := newTableHarnessOn(t, backend{"hosted", func(t testing.TB) (web.Store, live.KV) {
		st, kv := memBackend().open(t)
		host.Store = st
		return host, kv
	}})
	browsers := map[string]*browser{"ana": gmB, "cai": gmB.incognito(t)}
	seat(t, th, browsers, map[string]invite.Spec{
		"ana": {User: "ana", Role: invite.RoleGM, By: "ana"},
		"cai": {User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}},
	})
	caiB := browsers["cai"]
	campaign := func() *projections.Campaign {
		var c projections.Campaign
		th.gm(t, "GET", "/api/campaigns/mordor", "", &c)
		return &c
	}
	clickOn(t, gmB, "start a v2 session", `button[data-action="session-start-v2"]`)
	waitDone(t, gmB, "start a v2 session")
	deadline := time.Now().Add(20 * time.Second)
	for len(campaign().OpenSession().Contributions) < 1 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	// cai's contribution carries seen: an event of the campaign, as stored.
	var seen *signed.Seen
	for _, e := range th.events(t, "mordor") {
		var d events.SessionContributed
		if e.Type != events.TypeSessionContributed || e.DecodeData(&d) != nil || d.User != "cai" {
			continue
		}
		m, err := signed.Parse(d.Signed)
		require.NoError(t, err)
		seen = m.Head().Seen
	}
	require.NotNil(t, seen, "cai's device says what it saw")
	var stored []byte
	require.NoError(t, host.Store.Read(context.Background(), events.Query{From: seen.Seq, To: seen.Seq}, func(r events.Recorded) error { stored = r.Raw; return nil }))
	require.True(t, seen.Matches(stored), "seen is the hash of the stored bytes at its sequence")
	kept := eval[float64](t, caiB, `JournalReceipts.list("mordor", "cai").then((rs) => rs.length)`)
	require.GreaterOrEqual(t, kept, 1.0, "kept before it was sent")

	reload := func(what string) {
		caiB.do(t, what, chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="1"]`))
	}
	reload("cai reloads: the journal holds what cai's device signed")
	require.False(t, eval[bool](t, caiB, `!!document.querySelector(".receipts-alarm")`), "no alarm while the histories agree")
	require.True(t, eval[bool](t, caiB, `!!document.querySelector('button[data-action="download-receipts"]')`), "the receipts can be downloaded")
	jsonl := eval[string](t, caiB, `JournalReceipts.list("mordor", "cai").then((rs) => JournalReceipts.toJSONL(rs))`)
	require.Contains(t, jsonl, `"public_key":`)

	host.forge.Store(seen.Seq) // the host rewrites the event cai signed after seeing
	reload("cai reloads after the host rewrote history")
	waitFor(t, caiB, "the alarm", `!!document.querySelector(".receipts-alarm")`)
	require.Contains(t, eval[string](t, caiB, `document.querySelector(".receipts-alarm").textContent`),
		fmt.Sprintf("WARNING: the journal's history differs from what this device signed at #%d", seen.Seq))
}
