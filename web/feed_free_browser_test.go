package web_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestFeedFreeAndSecretRolls: a free roll is a card with its dice, its
// total and its note; the GM's secret roll is a card saying the GM rolled
// in secret, with no number of its outcome; once revealed the roll's card
// says it was a secret roll.
func TestFeedFreeAndSecretRolls(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, jetBackend(false))
	h.setup("mordor")
	h.command("mordor", "session-start", `{"title":"La torre"}`, http.StatusOK)
	free := h.command("mordor", "free-roll", `{"character":"lodin","dice":"2d10+3","note":"the trap"}`, http.StatusOK)
	secret := h.command("mordor", "free-roll", `{"dice":"1d20","secret":true,"note":"who notices"}`, http.StatusOK)
	freeID, hiddenID := free.Recorded[0].Event.ID, secret.Recorded[0].Event.ID

	b.do(t, "open the dashboard", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(`#live.on`))
	card := func(id string) string { return fmt.Sprintf(`li.ev[data-event-id=%q]`, id) }
	b.do(t, "free roll card", chromedp.WaitVisible(card(freeID)))
	text := eval[string](t, b, `document.querySelector('`+card(freeID)+`').textContent`)
	require.Contains(t, text, "2d10+3")
	require.Contains(t, text, "the trap")
	b.do(t, "secret roll card", chromedp.WaitVisible(card(hiddenID)))
	text = eval[string](t, b, `document.querySelector('`+card(hiddenID)+` .what').textContent`)
	require.Equal(t, "The GM rolled 1d20 in secret · who notices", text)

	rev := h.command("mordor", "reveal", `{"request":"`+hiddenID+`"}`, http.StatusOK)
	revID := rev.Recorded[0].Event.ID
	b.do(t, "revealed roll card", chromedp.WaitVisible(card(revID)))
	require.Contains(t, eval[string](t, b, `document.querySelector('`+card(revID)+` .what').textContent`), "The GM · 1d20 · secret roll, revealed")
}
