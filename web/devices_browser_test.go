package web_test

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// TestDeviceAddedAnnouncedInBrowser: a player signs in by invite (the
// page sends the device.register its new key signed); the GM who hosts
// then registers a key of its own for her; her table page shows a banner
// saying so, with the fingerprint, and its revoke button revokes it with a
// device.revoke signed by her browser's key: the banner goes away.
func TestDeviceAddedAnnouncedInBrowser(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	gmB := newBrowser(t)
	th := newTableHarnessOn(t, jetBackend(false))
	caiB := gmB.incognito(t)
	link := th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}})
	caiB.do(t, "cai opens the invite",
		chromedp.Navigate(th.url+"/table#invite="+link),
		chromedp.WaitVisible(`body[data-ready="1"]`),
	)
	waitFor(t, caiB, "cai is signed in", `document.getElementById("who").textContent.startsWith("cai")`)
	var camp projections.Campaign
	th.gm(t, "GET", "/api/campaigns/mordor", "", &camp)
	require.Len(t, camp.Participants["cai"].Devices, 1)
	own := camp.Participants["cai"].Devices[0]
	require.True(t, own.Proved, "the page's registration carries its proof of possession")
	require.Equal(t, "cai", own.By)
	require.Zero(t, eval[int](t, caiB, `document.querySelectorAll("#devices-added p").length`), "nothing to announce")

	// The GM's own device (its bootstrap), then the host adds a key of its
	// own to cai's name.
	var seed [32]byte
	seed[0] = 98
	gmReg, err := json.Marshal(command.RegisterKey{SignedMessage: device.MustRegister(ed25519.NewKeyFromSeed(seed[:]), "mordor", "ana", "gm", "")})
	require.NoError(t, err)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/key-register", string(gmReg), nil)
	seed[0] = 99
	host := signed.PublicKeyOf(ed25519.NewKeyFromSeed(seed[:]))
	body, err := json.Marshal(command.RegisterKey{User: "cai", PublicKey: host.String()})
	require.NoError(t, err)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/key-register", string(body), nil)

	caiB.do(t, "cai opens the table again", chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="1"]`))
	waitFor(t, caiB, "the banner", fmt.Sprintf(`!!document.querySelector('#devices-added p[data-fingerprint=%q]')`, host.Fingerprint()))
	text := eval[string](t, caiB, `document.querySelector("#devices-added p").textContent`)
	require.Contains(t, text, "added a device to your name on")
	require.Contains(t, text, host.Fingerprint())
	caiB.shot(t, "device-added-banner.png")
	waitFor(t, caiB, "revoke it", `(() => { const b = document.querySelector("#devices-added .device-revoke"); if (!b) return false; document.getElementById("notice").className = ""; b.click(); return true })()`)
	waitDone(t, caiB, "revoke it")
	waitFor(t, caiB, "the banner goes", `!document.querySelector("#devices-added")`)
	th.gm(t, "GET", "/api/campaigns/mordor", "", &camp)
	require.Len(t, camp.Participants["cai"].Devices, 2)
	d := camp.Participants["cai"].Devices[1]
	require.True(t, d.Revoked)
	require.Equal(t, "cai", d.RevokedBy, "revoked by cai's own device, signed")
	require.Equal(t, own.PublicKey, camp.Participants["cai"].PublicKey, "cai's own key is the one in force")
}
