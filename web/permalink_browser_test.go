package web_test

import (
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
	"github.com/campaign-journal/journal/web"
)

// TestPermalinkForumReader: with an access file, a player copies a
// journal-dice-v2 roll's forum line on the dashboard; a browser with no
// token (a fresh context: no storage) opens the link and sees the roll
// verified (signatures, reveal, faces, rules) from the roll's evidence
// alone, which holds the keys of the users who signed and no other; the
// link without its capability verifies nothing there, and a tampered
// capability gives the not-found page.
func TestPermalinkForumReader(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	h := newAccessHarness(t)
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey := key(1), key(2)
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	post := func(token, name, body string) response {
		t.Helper()
		r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/"+name, body, bearer(token)...)
		require.Equal(t, http.StatusOK, r.status, "%s %s: %s", name, body, r.body)
		return r
	}
	var rec result
	ids := func(r response, types ...string) []string { r.json(t, &rec); return idsOf(rec, types...) }
	post(anaToken, "session-end", `{}`)
	post(anaToken, "key-register", js(command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "mordor", "ana", "gm", "")}))
	beaReg := ids(post(anaToken, "key-register", js(command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()})), events.TypeDeviceRegistered)
	startRes := post(anaToken, "session-start", `{"id":"s2","dice":"v2"}`)
	var started struct {
		Recorded []struct {
			Event struct {
				ID   string `json:"id"`
				Data struct {
					Commitment string `json:"commitment"`
				} `json:"data"`
			} `json:"event"`
		} `json:"recorded"`
	}
	startRes.json(t, &started)
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	contrib := ids(post(beaToken, "session-contribute", js(command.ContributeSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Contribute{Header: hdr, Value: signed.Hex32{0xbe}, Commitment: hex32Of(t, started.Recorded[0].Event.Data.Commitment)})})), events.TypeSessionContributed)
	id, rv := uuid.NewString(), [32]byte{7}
	c, err := dice.ParseHex32(dice.RevealCommitment(rv))
	require.NoError(t, err)
	action := js(command.RollAction{Command: "roll", SeedCommitment: started.Recorded[0].Event.Data.Commitment, Character: "ruisenor", Skill: "Pelea", Vs: "media"})
	request := ids(post(beaToken, "roll-request", js(command.RollRequestSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(action)})})), events.TypeRollRequested)
	made := ids(post(beaToken, "roll-reveal", js(command.RollRevealSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Reveal{Header: hdr, Request: id, R: rv})})), events.TypeRollMade)
	roll := made[0]
	ended := ids(post(anaToken, "session-end", `{}`), events.TypeSessionEnded)

	// A member copies the forum line: it links with the roll's capability.
	b := newBrowser(t)
	b.do(t, "the player's token", chromedp.Navigate(h.url+"/healthz"))
	eval[bool](t, b, `(localStorage.setItem("journal.token", "`+beaToken+`"), true)`)
	b.do(t, "open the dashboard", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(rollSel(roll)),
		chromedp.Click(rollSel(roll)+` button.copy-md`))
	waitTrue(t, b, "the line is copied", `document.querySelector('`+rollSel(roll)+` output.copied').textContent !== ""`)
	md := eval[string](t, b, `document.querySelector('`+rollSel(roll)+` output.copied').textContent`)
	m := regexp.MustCompile(`\]\((http[^)]+)\)$`).FindStringSubmatch(md)
	require.NotNil(t, m, "markdown line %q", md)
	link, err := url.Parse(m[1])
	require.NoError(t, err)
	require.Equal(t, "/r/mordor/"+roll, link.Path)
	k := link.Query().Get(web.PermalinkParam)
	require.NotEmpty(t, k, "the forum line %q links without a capability", md)
	b.do(t, "copy the BBCode line", chromedp.Click(rollSel(roll)+` button.copy-bb`))
	waitTrue(t, b, "the BBCode line", `document.querySelector('`+rollSel(roll)+` output.copied').textContent.startsWith("[url=`+m[1]+`]")`)

	// Its evidence is that roll's and nothing else: ana signed nothing of
	// it, so her key is not there.
	got, _ := h.evidenceIDs(t, "mordor", roll, k)
	var madeRes result
	madeRes.Recorded = append(madeRes.Recorded, struct {
		Seq   uint64       `json:"seq"`
		Text  string       `json:"text"`
		Event events.Event `json:"event"`
	}{Event: events.Event{Type: events.TypeRollMade, Data: []byte(`{"character":"ruisenor"}`)}})
	require.Equal(t, sorted(made, request, contrib, beaReg, ended, []string{started.Recorded[0].Event.ID}, h.creations(t, "mordor", anaToken, madeRes)), got)

	// A forum reader: a browser context of its own, no token.
	v := b.incognito(t)
	v.do(t, "the reader's empty storage", chromedp.Navigate(h.url+"/healthz"))
	require.Equal(t, "", eval[string](t, v, `localStorage.getItem("journal.token") || ""`))
	v.do(t, "open the forum link", chromedp.Navigate(m[1]),
		chromedp.WaitVisible(`.verdict[data-status="verified"], .verdict[data-status="flagged"]`)) // flagged: nobody co-signed the session's end
	require.True(t, eval[bool](t, v, `document.querySelector('`+rollSel(roll)+`') !== null`), "the roll's card")
	shot(t, v, "permalink-capability.png")
	// Without the capability the page reads the API, which refuses a reader with no token.
	v.do(t, "the link without its capability", chromedp.Navigate(h.url+link.Path), chromedp.WaitVisible(`#status[data-status="error"]`))
	// A tampered capability: the not-found page.
	bad := []byte(k)
	bad[0] ^= 1
	v.do(t, "a tampered capability", chromedp.Navigate(h.url+link.Path+"?k="+string(bad)), chromedp.WaitVisible(`#status[data-status="missing"]`))
	require.Zero(t, eval[int](t, v, `document.querySelectorAll("#card li").length`))
	for _, line := range slices.Concat(b.logs(), v.logs()) {
		if strings.Contains(line, "Uncaught") {
			t.Errorf("browser console: %s", line)
		}
	}
}
