package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/web"
)

// axe-core (web/testdata/axe, vendored: MPL-2.0) is injected into the page
// under test by the tests only; the server never serves it.
var axeSource = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile(filepath.Join("testdata", "axe", "axe.min.js"))
	return string(b), err
})

// a11yViolation is one of axe-core's violations, with the nodes it found.
type a11yViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// checkA11y checks the page open in ctx (a chromedp context) as a person
// on a phone or a screen reader meets it, and fails t on each problem:
//   - axe-core's serious and critical violations (colour contrast, names,
//     landmarks, headings…), each with the nodes it names;
//   - a tap target (a visible button, link, input, select, textarea or
//     summary) smaller than 44 × 44 CSS pixels (a checkbox or radio counts
//     its label's box, which is what a finger taps);
//   - a page wider than its viewport (horizontal scroll);
//   - a page without an h1.
//
// It reports every problem before failing, and runs at whatever size the
// page is emulated at (call it at 360 px wide for a phone).
func checkA11y(t *testing.T, ctx context.Context) {
	t.Helper()
	src, err := axeSource()
	require.NoError(t, err, "axe-core is vendored in web/testdata/axe")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.axe ? true : (function(){`+src+`
;return true})()`)); err != nil {
		t.Fatalf("inject axe-core: %v", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"]}).then((r) => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("run axe-core: %v", err)
	}
	var vs []a11yViolation
	require.NoError(t, json.Unmarshal([]byte(raw), &vs))
	url, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	for _, v := range vs {
		if v.Impact != "serious" && v.Impact != "critical" {
			continue
		}
		var where []string
		for i, n := range v.Nodes {
			if i == 5 {
				where = append(where, fmt.Sprintf("… %d more", len(v.Nodes)-5))
				break
			}
			where = append(where, fmt.Sprintf("%v: %s", n.Target, strings.ReplaceAll(n.Summary, "\n", " ")))
		}
		t.Errorf("%s: axe %s (%s): %s, %d nodes:\n  %s", url, v.ID, v.Impact, v.Help, len(v.Nodes), strings.Join(where, "\n  "))
	}
	var page struct {
		Small []string `json:"small"`
		Width int      `json:"width"`
		View  int      `json:"view"`
		H1    int      `json:"h1"`
	}
	raw, err = chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const small = [];
		const seen = (e) => { const s = getComputedStyle(e); return e.getClientRects().length > 0 && s.visibility !== "hidden" && !e.closest("[hidden], .sr, .offscreen, .skip"); };
		for (const e of document.querySelectorAll("button, a[href], input, select, textarea, summary")) {
			if (!seen(e) || (e.type === "hidden")) continue;
			const box = ((e.type === "checkbox" || e.type === "radio") && e.closest("label")) || e;
			const r = box.getBoundingClientRect();
			if (r.width < 44 - 0.5 || r.height < 44 - 0.5) small.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + String(e.className).split(" ").join(".") : "") + " \"" + (e.textContent || e.value || e.getAttribute("aria-label") || "").trim().slice(0, 30) + "\" " + Math.round(r.width) + "×" + Math.round(r.height));
		}
		return JSON.stringify({small: small, width: document.scrollingElement.scrollWidth, view: window.innerWidth, h1: document.querySelectorAll("h1").length});
	})()`))
	if err != nil {
		t.Fatalf("measure the page: %v", err)
	}
	require.NoError(t, json.Unmarshal([]byte(raw), &page))
	for _, s := range page.Small {
		t.Errorf("%s: tap target under 44 px: %s", url, s)
	}
	if page.Width > page.View {
		t.Errorf("%s: the page is %d px wide in a %d px viewport (horizontal scroll)", url, page.Width, page.View)
	}
	if page.H1 == 0 {
		t.Errorf("%s: no h1", url)
	}
}

// shots saves a full-page screenshot of b as an artifact, and into
// $SHOTS_DIR when set (to look at the layout); none when no one keeps
// them (keepShots).
func shots(t *testing.T, b *browser, name string) {
	t.Helper()
	if !keepShots() {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	artifact(t, name, png)
	if dir := os.Getenv("SHOTS_DIR"); dir != "" {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	}
}

// phone emulates a 360 × 740 phone (the narrowest the table is made for).
var phone = chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile)

// desktop emulates a 1280 × 900 screen.
var desktop = chromedp.EmulateViewport(1280, 900)

// TestA11yEveryPage runs checkA11y on every page a person meets, on a phone
// (360 px) and a desktop, light: the dashboard (/, as a device signed in at
// the table, with no access token typed), the table as the GM and as a
// player (in combat, with a roll call), a roll's permalink page, and the
// offline verifier. It also checks that the player's page in combat on a
// phone is not a scroll of thousands of pixels (the feed scrolls in its
// own box, the sections fold), and that its header is not cut.
func TestA11yEveryPage(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	gmB := newBrowser(t)
	th := newTableHarnessOn(t, memBackend())
	caiB := gmB.incognito(t)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`, nil)
	var rolled struct {
		Recorded []struct {
			Event struct {
				ID string `json:"id"`
			} `json:"event"`
		} `json:"recorded"`
	}
	th.gm(t, "POST", "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"Sigilo","vs":"media"}`, &rolled)
	require.NotEmpty(t, rolled.Recorded)
	rollID := rolled.Recorded[0].Event.ID
	th.gm(t, "POST", "/api/campaigns/mordor/commands/combat-start", `{"participants":["lodin","ruisenor","orco"]}`, nil)
	th.gm(t, "POST", "/api/campaigns/mordor/calls", `{"characters":["lodin"],"skill":"Sigilo","note":"the guards"}`, nil)

	links := map[string]string{
		"ana": th.invite(t, invite.Spec{User: "ana", Role: invite.RoleGM, By: "ana"}),
		"cai": th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}}),
	}
	open := func(b *browser, who string) {
		b.do(t, who+" opens the invite", phone, chromedp.Navigate(th.url+"/table#invite="+links[who]), chromedp.WaitVisible(`body[data-ready="1"]`))
		waitFor(t, b, who+" is signed in", fmt.Sprintf(`document.getElementById("who").textContent.startsWith(%q)`, who))
	}
	open(gmB, "ana")
	open(caiB, "cai")
	waitFor(t, caiB, "the feed has the roll", `document.querySelectorAll("#feed li.ev").length > 0`)
	waitFor(t, caiB, "the call", `!!document.querySelector('#actionbar .call button[data-action="call-roll"]')`)

	pages := []struct {
		name string
		b    *browser
		url  string
		wait string
	}{
		{"table as the player", caiB, "", ""},
		{"table as the GM", gmB, "", ""},
		{"dashboard", gmB, th.url + "/", `document.querySelectorAll("#feed li.ev").length > 0`},
		{"permalink", gmB, th.url + "/r/mordor/" + rollID, `document.querySelectorAll("li.ev, .ev").length > 0`},
	}
	for _, p := range pages {
		for _, size := range []struct {
			name string
			vp   chromedp.Action[chromedp.Void]
		}{{"phone", phone}, {"desktop", desktop}} {
			t.Run(p.name+" on a "+size.name, func(t *testing.T) {
				p.b.do(t, "size", size.vp)
				if p.url != "" {
					p.b.do(t, "open "+p.name, chromedp.Navigate(p.url), chromedp.WaitReady("body"))
				}
				if p.wait != "" {
					waitFor(t, p.b, p.name+" is drawn", p.wait)
				}
				checkA11y(t, p.b.ctx)
			})
		}
	}

	// The player's page in combat, on a phone: short, the header whole.
	caiB.do(t, "phone", phone)
	shots(t, caiB, "a11y-player-combat-phone.png")
	tall := eval[float64](t, caiB, `document.scrollingElement.scrollHeight`)
	header := eval[float64](t, caiB, `document.querySelector("header.bar").getBoundingClientRect().width`)
	headerScroll := eval[float64](t, caiB, `document.querySelector("header.bar").scrollWidth`)
	require.Less(t, tall, 2600.0, "the player's page in combat on a phone is %v px tall", tall)
	require.LessOrEqual(t, headerScroll, header+1, "the header is not cut")
	for _, s := range []struct {
		b    *browser
		name string
	}{{caiB, "player"}, {gmB, "gm"}} {
		for _, size := range []struct {
			name string
			vp   chromedp.Action[chromedp.Void]
		}{{"phone", phone}, {"desktop", desktop}} {
			s.b.do(t, "the table", size.vp, chromedp.Navigate(th.url+"/table"), chromedp.WaitVisible(`body[data-ready="1"]`))
			waitFor(t, s.b, "the feed", `document.querySelectorAll("#feed li.ev").length > 0`)
			shots(t, s.b, "a11y-table-"+s.name+"-"+size.name+".png")
		}
	}

	// The offline verifier, as `journal verifier` writes it.
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ES} {
		page, err := web.VerifierPage(lang)
		require.NoError(t, err)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page)
		}))
		t.Cleanup(srv.Close)
		for _, vp := range []chromedp.Action[chromedp.Void]{phone, desktop} {
			gmB.do(t, "open the verifier", vp, chromedp.Navigate(srv.URL), chromedp.WaitReady("body"))
			checkA11y(t, gmB.ctx)
		}
	}
}
