package web_test

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestFeedSpeed measures, when JOURNAL_SPEED=1 (it is a measurement, not
// a check, and takes a minute): the time from a roll's POST to its card on
// another open page, and the dashboard's first paint and "Verify all" on a
// campaign of 10 000 events.
func TestFeedSpeed(t *testing.T) {
	if os.Getenv("JOURNAL_SPEED") == "" {
		t.Skip("a measurement: run with JOURNAL_SPEED=1")
	}
	b := newBrowser(t)
	h := newHarness(t, jetBackend(false))
	h.setup("mordor")
	h.command("mordor", "session-start", `{}`, http.StatusOK)
	b.do(t, "open", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(`#live.on`))
	eval[bool](t, b, `(window.seen = {}, new MutationObserver(() => { for (const li of document.querySelectorAll("#feed > li")) if (!seen[li.dataset.eventId]) seen[li.dataset.eventId] = Date.now(); }).observe(document.getElementById("feed"), {childList: true}), true)`)
	var lat []time.Duration
	for i := range 30 {
		start := time.Now()
		r := h.command("mordor", "roll", fmt.Sprintf(`{"character":"lodin","skill":"Sigilo","entropy":"s%d"}`, i), http.StatusOK)
		id := r.Recorded[0].Event.ID
		waitTrue(t, b, "card", fmt.Sprintf(`!!seen[%q]`, id))
		ms := eval[float64](t, b, fmt.Sprintf(`seen[%q]`, id))
		lat = append(lat, time.UnixMilli(int64(ms)).Sub(start))
	}
	slices.Sort(lat)
	t.Logf("POST roll → card on another page: median %v, p90 %v, max %v (n=%d)", lat[len(lat)/2], lat[len(lat)*9/10], lat[len(lat)-1], len(lat))

	// 10 000 events.
	st := time.Now()
	for i := 0; eventsOf(t, h) < 10000; i++ {
		h.command("mordor", "roll", fmt.Sprintf(`{"character":"lodin","skill":"Sigilo","entropy":"x%d"}`, i), http.StatusOK)
	}
	t.Logf("recorded 10 000 events in %v", time.Since(st))
	for _, p := range []string{"", "/transcript?lang=en&session=s1", "/stats?session=s1", "/events?types=journal.roll.made.v1&tail=40&to=10000", "/sessions", "/events?from=1&limit=10000", "/characters/lodin?at=9000"} {
		st := time.Now()
		r := h.do(http.MethodGet, "/api/campaigns/mordor"+p, "")
		t.Logf("GET %s: %v, %d bytes", p, time.Since(st), len(r.body))
	}
	t.Logf("the open page holds %d cards after the 10 000 events", eval[int](t, b, `document.querySelectorAll("#feed > li").length`))
	b = newBrowser(t) // a fresh visitor
	b.do(t, "open", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(`#feed > li`))
	paint := eval[float64](t, b, `performance.now()`)
	t.Logf("first card painted by %.0f ms after navigation (10 000 events)", paint)
	h.command("mordor", "session-end", ``, http.StatusOK)
	waitTrue(t, b, "the session ends on the page", `document.getElementById("session").textContent.includes("ended")`)
	start := time.Now()
	b.do(t, "verify all", chromedp.Click(`#verify-all`))
	waitTrue(t, b, "verified", `(document.getElementById("verify-all-result").dataset.mismatch || "") !== ""`)
	t.Logf("Verify all over 10 000 events: %v (%s)", time.Since(start), eval[string](t, b, `document.getElementById("verify-all-result").textContent`))
}

func eventsOf(t *testing.T, h *harness) int {
	var c struct {
		LastSeq int `json:"last_seq"`
	}
	h.get("/api/campaigns/mordor", http.StatusOK, &c)
	return c.LastSeq
}
