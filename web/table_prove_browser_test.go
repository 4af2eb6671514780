package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
)

// TestTableProvesSuppressedRoll attacks as the GM who hosts, in real
// headless Chromium: a proxy between cai's device and the journal lets
// her signed request through and drops her reveal (here: the page's
// fetch of roll-reveal fails), and the GM cancels the request. When cai's
// page comes back (reconnects) her device re-derives r from its own key
// and proves the roll by itself, once: journal.roll.proved.v1 with the
// faces the seed gives (drawn here independently), shown on her page and
// flagged cancelled-after-reveal by the audit.
func TestTableProvesSuppressedRoll(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	gmB := newBrowser(t)
	th := newTableHarnessOn(t, jetBackend(false))
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
	session := campaign().OpenSession().ID

	// The host's proxy drops cai's reveal.
	require.True(t, eval[bool](t, caiB, `(() => { const f = window.fetch; window.fetch = (u, o) => String(u).includes("/commands/roll-reveal") ? Promise.reject(new TypeError("dropped by the host's proxy")) : f(u, o); return true })()`))
	submit(t, caiB, "cai rolls", `article[data-character="lodin"] details[data-action="roll"]`, map[string]any{"skill": "Sigilo", "vs": "media"})
	waitFor(t, caiB, "the reveal is dropped", `/\berror\b/.test(document.getElementById("notice").className)`)
	reqs, _ := eventsOfType[events.RollRequested](t, th, events.TypeRollRequested)
	require.Len(t, reqs, 1, "%s", eval[string](t, caiB, `document.getElementById("notice").textContent`))
	made, _ := eventsOfType[events.RollMade](t, th, events.TypeRollMade)
	require.Empty(t, made, "the reveal never reached the journal")
	th.gm(t, "POST", "/api/campaigns/mordor/commands/roll-cancel", `{"request":"`+reqs[0].Request+`","reason":"cai left the table"}`, nil)

	// cai's page comes back: her device proves the roll by itself.
	caiB.do(t, "cai comes back", chromedp.Navigate(th.url+"/table"), chromedp.WaitVisible(`body[data-ready="1"]`))
	waitFor(t, caiB, "cai's device proved the roll", `document.getElementById("notice").className.includes("ok") && document.getElementById("notice").textContent.includes("proved")`)
	notice := eval[string](t, caiB, `document.getElementById("notice").textContent`)
	require.Contains(t, notice, "This device proved a suppressed roll: cai ")
	require.Contains(t, notice, reqs[0].Request[:12])
	require.Contains(t, notice, " ana")
	caiB.do(t, "cai comes back again", chromedp.Navigate(th.url+"/table"), chromedp.WaitVisible(`body[data-ready="1"]`))
	time.Sleep(500 * time.Millisecond)
	proved, _ := eventsOfType[events.RollProved](t, th, events.TypeRollProved)
	require.Len(t, proved, 1, "proved once")
	p := proved[0]
	require.Equal(t, "ana", p.CancelledBy)
	require.Equal(t, reqs[0].Request, p.Request)

	// The faces are the seed's, drawn independently; the audit flags it.
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-end", `{}`, nil)
	var seed dice.Seed
	var contribs [][dice.ContributionSize]byte
	for _, e := range th.events(t, "mordor") {
		if e.Session != session {
			continue
		}
		switch e.Type {
		case events.TypeSessionEnded:
			var d events.SessionEnded
			require.NoError(t, e.DecodeData(&d))
			s, err := dice.ParseSeed(d.Seed)
			require.NoError(t, err)
			seed = s
		case events.TypeSessionContributed:
			var d events.SessionContributed
			require.NoError(t, e.DecodeData(&d))
			v, err := dice.ParseHex32(d.Value)
			require.NoError(t, err)
			contribs = append(contribs, v)
		}
	}
	r, err := dice.ParseHex32(p.Reveal)
	require.NoError(t, err)
	st := dice.SessionKey(seed, "mordor", session, contribs).Stream("mordor", session, p.Nonce, r)
	var faces []int
	for _, n := range p.Draws {
		f, err := st.Roll(n)
		require.NoError(t, err)
		faces = append(faces, f)
	}
	require.Equal(t, faces, p.Faces)
	rep := verifyStore(t, th)
	var codes []string
	for _, s := range rep.Sessions {
		for _, f := range s.Flags {
			codes = append(codes, string(f.Code))
		}
	}
	require.Contains(t, strings.Join(codes, " "), string(replay.FlagCancelledAfterReveal))
}
