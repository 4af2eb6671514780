package web_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestPermalinkCosignedEnd: a journal-dice-v2 roll whose session's end a
// player's device co-signed: a forum reader with no token opens its
// permalink and its card says what the whole campaign's audit says of it,
// with no not-cosigned flag: the evidence holds the co-signature, its
// signer's key and the event after the end, whose prevhash is the hash
// the co-signature signs.
func TestPermalinkCosignedEnd(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	h := newAccessHarness(t)
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey := key(1), key(2)
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	post := func(token, name, body string) result {
		t.Helper()
		r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/"+name, body, bearer(token)...)
		require.Equal(t, http.StatusOK, r.status, "%s %s: %s", name, body, r.body)
		var res result
		r.json(t, &res)
		return res
	}
	post(anaToken, "session-end", `{}`)
	post(anaToken, "key-register", js(command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "mordor", "ana", "gm", "")}))
	post(anaToken, "key-register", js(command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()}))
	started := idsEvent(t, post(anaToken, "session-start", `{"id":"s2","dice":"v2"}`), events.TypeSessionStarted)
	var sd struct{ Commitment string }
	require.NoError(t, json.Unmarshal(started.Data, &sd))
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	post(beaToken, "session-contribute", js(command.ContributeSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Contribute{Header: hdr, Value: signed.Hex32{0xbe}, Commitment: hex32Of(t, sd.Commitment)})}))
	id, rv := uuid.NewString(), [32]byte{7}
	c, err := dice.ParseHex32(dice.RevealCommitment(rv))
	require.NoError(t, err)
	action := js(command.RollAction{Command: "roll", SeedCommitment: sd.Commitment, Character: "ruisenor", Skill: "Pelea", Vs: "media"})
	post(beaToken, "roll-request", js(command.RollRequestSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: []byte(action)})}))
	roll := idsOf(post(beaToken, "roll-reveal", js(command.RollRevealSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Reveal{Header: hdr, Request: id, R: rv})})), events.TypeRollMade)[0]
	end := idsEvent(t, post(anaToken, "session-end", `{}`), events.TypeSessionEnded)
	hx, err := events.EventHash(storedEvent(t, h, end.ID))
	require.NoError(t, err)
	cosigned := idsOf(post(beaToken, "session-cosign", js(command.CosignSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Cosign{Header: hdr, Ended: hex32Of(t, hx)})})), events.TypeSessionCosigned)
	require.Len(t, cosigned, 1)

	k := h.permalinkOf(t, beaToken, "mordor", roll, http.StatusOK)
	ids, _ := h.evidenceIDs(t, "mordor", roll, k)
	require.Contains(t, ids, cosigned[0], "the co-signature of the end")

	v := newBrowser(t)
	v.do(t, "the reader's empty storage", chromedp.Navigate(h.url+"/healthz"))
	require.Equal(t, "", eval[string](t, v, `localStorage.getItem("journal.token") || ""`))
	v.do(t, "open the permalink", chromedp.Navigate(h.url+"/r/mordor/"+roll+"?k="+k), chromedp.WaitVisible(rollSel(roll)+` .verdict[data-status]:not([data-status=""])`))
	waitTrue(t, v, "verified", `["verified", "flagged", "mismatch", "sealed", "error"].includes(document.querySelector('`+rollSel(roll)+` .verdict').dataset.status)`)
	status := eval[string](t, v, `document.querySelector('`+rollSel(roll)+` .verdict').dataset.status`)
	flags := eval[string](t, v, `document.querySelector('`+rollSel(roll)+` .verdict').dataset.flags || ""`)
	text := eval[string](t, v, `document.querySelector('`+rollSel(roll)+` .verdict').textContent`)
	require.Equal(t, "verified", status, "the permalink's card: %s", text)
	require.NotContains(t, flags, "not-cosigned", "%s", text)
	shot(t, v, "permalink-cosigned.png")
}

// storedEvent is the event id as the store holds it.
func storedEvent(t *testing.T, h *harness, id string) events.Event {
	t.Helper()
	var out events.Event
	require.NoError(t, h.store.Read(context.Background(), events.Query{}, func(r events.Recorded) error {
		if r.Event.ID == id {
			out = r.Event
		}
		return nil
	}))
	require.Equal(t, id, out.ID)
	return out
}
