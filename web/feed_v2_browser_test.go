package web_test

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestFeedVerifiesV2 plays a journal-dice-v2 roll through the API (a
// player's signed request and reveal, a contribution) and verifies it on
// the dashboard, in Chromium: the signatures against the registered keys
// (Web Crypto's Ed25519), the reveal against the request's commitment, the
// faces from the session key, the rules. A changed signature, signed
// message, reveal or outcome is a mismatch.
func TestFeedVerifiesV2(t *testing.T) {
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
	post(anaToken, "session-end", `{}`)
	post(anaToken, "key-register", js(command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "mordor", "ana", "gm", "")}))
	post(anaToken, "key-register", js(command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()}))
	var started struct {
		Recorded []struct {
			Event struct {
				Data struct {
					Commitment string `json:"commitment"`
				} `json:"data"`
			} `json:"event"`
		} `json:"recorded"`
	}
	post(anaToken, "session-start", `{"id":"s2","dice":"v2"}`).json(t, &started)
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	post(beaToken, "session-contribute", js(command.ContributeSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Contribute{Header: hdr, Value: signed.Hex32{0xbe}, Commitment: hex32Of(t, started.Recorded[0].Event.Data.Commitment)})}))
	id, rv := uuid.NewString(), [32]byte{7}
	c, err := dice.ParseHex32(dice.RevealCommitment(rv))
	require.NoError(t, err)
	action := js(command.RollAction{Command: "roll", SeedCommitment: started.Recorded[0].Event.Data.Commitment, Character: "ruisenor", Skill: "Pelea", Vs: "media"})
	post(beaToken, "roll-request", js(command.RollRequestSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(action)})}))
	var made struct {
		Recorded []struct {
			Event struct {
				ID string `json:"id"`
			} `json:"event"`
		} `json:"recorded"`
	}
	post(beaToken, "roll-reveal", js(command.RollRevealSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Reveal{Header: hdr, Request: id, R: rv})})).json(t, &made)
	roll := made.Recorded[0].Event.ID

	b := newBrowser(t)
	b.do(t, "the dashboard's token", chromedp.Navigate(h.url+"/healthz"))
	eval[bool](t, b, `(localStorage.setItem("journal.token", "`+wallToken+`"), true)`)
	b.do(t, "open the dashboard", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(rollSel(roll)),
		chromedp.Click(rollSel(roll)+` button.verify`), chromedp.WaitVisible(rollSel(roll)+` .verdict[data-status="sealed"]`))
	post(anaToken, "session-end", `{}`)
	waitTrue(t, b, "the session ends on the page", `document.getElementById("session").textContent.includes("ended")`)
	// Verified with flags, as replay says: ana (the GM) registered bea's
	// key, and no player's device co-signed the session's end.
	b.do(t, "verify the v2 roll", chromedp.Click(rollSel(roll)+` button.verify`), chromedp.WaitVisible(rollSel(roll)+` .verdict[data-status="flagged"]`))
	flags := eval[string](t, b, `document.querySelector(`+"`"+rollSel(roll)+` .verdict`+"`"+`).textContent`)
	require.Contains(t, flags, "verified with flags")
	require.Contains(t, flags, "no player's device co-signed the session's end") // replay's words

	// Verify all says replay's verdict and lists each flag with its code,
	// those of events that are not rolls (a key the GM registered) too.
	b.do(t, "verify all", chromedp.Click(`#verify-all`))
	waitTrue(t, b, "verify all is done", `document.getElementById("verify-all-result").dataset.verdict === "flagged"`)
	all := eval[string](t, b, `document.getElementById("verify-all-result").textContent`)
	require.Contains(t, all, "OK with 3 flags · ", "replay's words")
	flag := func(code string) string {
		return eval[string](t, b, `(document.querySelector('#verify-all-result li[data-flag="`+code+`"]') || {}).textContent || ""`)
	}
	require.Contains(t, flag("empty"), "empty session empty: session s1 ended with no roll", "the v1 session played before, empty")
	require.Contains(t, flag("not-cosigned"), "not co-signed not-cosigned: no player's device co-signed the session's end")
	require.Contains(t, flag("key-by-other"), "key-by-other: event ")

	for _, tc := range []struct{ name, js string }{
		{"the reveal's signature", `r.event.data.signature = r.event.data.signature.slice(0, 10) + (r.event.data.signature[10] === "A" ? "B" : "A") + r.event.data.signature.slice(11)`},
		{"the signed message", `r.event.data.signed = r.event.data.signed.replace('"r":"07', '"r":"08')`},
		{"the reveal", `r.event.data.reveal = "08" + r.event.data.reveal.slice(2)`},
		{"the outcome", `r.event.data.outcome = r.event.data.outcome === "success" ? "failure" : "success"`},
		{"the request's commitment", `const q = recs.find(x => x.event.type === "journal.roll.requested.v1"); q.event.data.commitment = "ab" + q.event.data.commitment.slice(2)`},
	} {
		expr := fmt.Sprintf(`(async () => {
			const recs = (await JournalDashboard.feed.loadAll()).map(x => JSON.parse(JSON.stringify(x)));
			const r = recs.find(x => x.event.id === %q);
			%s;
			return (await JournalVerify.verifyEvents(recs, {})).rolls[r.event.id].status;
		})()`, roll, tc.js)
		if got := eval[string](t, b, expr); got != "mismatch" {
			t.Errorf("a v2 roll with a changed %s verifies as %s", tc.name, got)
		}
	}
}
