package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
)

// incognito opens a tab in a browser context of its own (its own storage,
// IndexedDB and so its own device key) in b's Chromium.
func (b *browser) incognito(t *testing.T) *browser {
	t.Helper()
	return openContext(t, b.ctx)
}

// shot saves a full-page screenshot of b as an artifact (when kept:
// keepShots).
func (b *browser) shot(t *testing.T, name string) {
	t.Helper()
	eval[bool](t, b, `(window.scrollTo(0, 0), true)`)
	if !keepShots() {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	artifact(t, name, png)
}

// waitFor polls a JavaScript predicate for up to 20 s.
func waitFor(t *testing.T, b *browser, what, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("%s: %v (%s)", what, err, expr)
	}
}

// submit fills the form inside sel (field name → value; a bool ticks a
// checkbox) and submits it, in one step, as a user would with the
// keyboard: the page may re-render between two separate clicks.
func submit(t *testing.T, b *browser, what, sel string, fields map[string]any) {
	t.Helper()
	js, err := json.Marshal(fields)
	require.NoError(t, err)
	waitFor(t, b, what+": the form", fmt.Sprintf(`!!document.querySelector(%q)`, sel+" form"))
	eval[bool](t, b, fmt.Sprintf(`(() => {
		document.getElementById("notice").className = "";
		const f = document.querySelector(%q);
		f.closest("details") && (f.closest("details").open = true);
		for (const [k, v] of Object.entries(%s)) {
			const e = f.elements[k];
			if (!e) throw new Error("no field " + k);
			if (typeof v === "boolean") e.checked = v; else e.value = String(v);
		}
		f.requestSubmit();
		return true;
	})()`, sel+" form", js))
}

// waitDone waits for the page's answer to an action and requires it to
// be a success, showing the journal's message otherwise.
func waitDone(t *testing.T, b *browser, what string) {
	t.Helper()
	waitFor(t, b, what, `/\b(ok|error)\b/.test(document.getElementById("notice").className)`)
	if cls := eval[string](t, b, `document.getElementById("notice").className`); !strings.Contains(cls, "ok") {
		t.Fatalf("%s: %s", what, eval[string](t, b, `document.getElementById("notice").textContent`))
	}
}

// TestTablePlayedInBrowsers plays a short RyF session of journal-dice-v2
// at the table, in real headless Chromium: the GM (ana) and two players
// (cai plays lodin, dan plays ruisenor) each in a browser context of their
// own, signed in by invite links, each with its own device key. The GM
// starts the session, the players' devices contribute to its key, the GM
// calls for a roll and both players roll against it, the GM runs a contest
// (in a v1 session before; v2 contests: table2_browser_test.go) and a combat
// (tracker, damage to the orc, rounds) in which the players attack in
// turn, grants XP and ends the session; the journal verifies it. A
// player's device asking for another's character or as the GM is refused
// with the journal's message, and records nothing. Screenshots of each
// view, on a phone, in light and dark, are kept as artifacts.
func TestTablePlayedInBrowsers(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	gmB := newBrowser(t)
	th := newTableHarnessOn(t, jetBackend(false))
	caiB, danB := gmB.incognito(t), gmB.incognito(t)
	// A combat is set up in a v1 session (v2 initiative:
	// table2_browser_test.go), started before any key is registered: a
	// campaign with keys refuses v1 sessions (no downgrade).
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`, nil)

	// The invites: links opened once in each browser.
	links := map[string]string{
		"ana": th.invite(t, invite.Spec{User: "ana", Role: invite.RoleGM, By: "ana"}),
		"cai": th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}}),
		"dan": th.invite(t, invite.Spec{User: "dan", Role: invite.RolePlayer, Characters: []string{"ruisenor"}}),
	}
	browsers := map[string]*browser{"ana": gmB, "cai": caiB, "dan": danB}
	for _, who := range []string{"ana", "cai", "dan"} {
		b := browsers[who]
		b.do(t, who+" opens the invite",
			chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
			chromedp.Navigate(th.url+"/table#invite="+links[who]),
			chromedp.WaitVisible(`body[data-ready="1"]`),
		)
		waitFor(t, b, who+" is signed in", fmt.Sprintf(`document.getElementById("who").textContent.startsWith(%q)`, who))
		require.NotContains(t, eval[string](t, b, `location.href`), "invite=", "the invite token leaves the address bar")
		require.True(t, eval[bool](t, b, `JSON.parse(localStorage.getItem("journal.table")).token.length > 0`))
	}
	var camp projections.Campaign
	th.gm(t, "GET", "/api/campaigns/mordor", "", &camp)
	keys := map[string]string{}
	for _, who := range []string{"ana", "cai", "dan"} {
		require.Contains(t, camp.Participants, who, "%s's key is registered", who)
		keys[who] = camp.Participants[who].PublicKey
		fp := eval[string](t, browsers[who], `JSON.parse(localStorage.getItem("journal.table")).fingerprint`)
		require.Equal(t, camp.Participants[who].Fingerprint, fp, "%s's device shows its own fingerprint", who)
	}
	require.Len(t, slicesCompact(keys), 3, "three devices, three keys")
	// The same link, opened again in another browser, signs nobody in.
	eveB := gmB.incognito(t)
	eveB.do(t, "a used link", chromedp.Navigate(th.url+"/table#invite="+links["cai"]), chromedp.WaitVisible(`#notice.error`))
	require.Contains(t, eval[string](t, eveB, `document.getElementById("notice").textContent`), "already used")

	// A combat is set up in a v1 session (v2 initiative: table2_browser_test.go):
	// the GM starts it from the tracker and fells the orc, so that the
	// players act every round.
	// click waits for sel and clicks it in one step (the page may re-render
	// between two).
	click := func(b *browser, what, sel string) {
		t.Helper()
		waitFor(t, b, what, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; document.getElementById("notice").className = ""; e.click(); return true })()`, sel))
	}
	// The v1 session, started before the keys.
	waitFor(t, gmB, "the v1 session", `!!document.querySelector('details[data-action="combat-start"]')`)
	submit(t, gmB, "start the combat", `details[data-action="combat-start"]`, map[string]any{"participants:lodin": true, "participants:ruisenor": true, "participants:orco": true})
	waitDone(t, gmB, "start the combat")
	waitFor(t, gmB, "the tracker", `document.querySelectorAll('ol.order li').length === 3`)
	submit(t, gmB, "a contest", `details[data-action="contest"]`, map[string]any{"a": "lodin", "skill_a": "Sigilo", "b": "ruisenor", "skill_b": "Pelea"})
	waitDone(t, gmB, "a contest")
	contests := 0
	for _, e := range th.events(t, "mordor") {
		if e.Type == events.TypeContestResolved {
			contests++
		}
	}
	require.Equal(t, 1, contests, "the contest is recorded")
	submit(t, gmB, "damage the orc", `details[data-action="damage"]`, map[string]any{"character": "orco", "amount": 40})
	waitDone(t, gmB, "damage the orc")
	waitFor(t, gmB, "the orc falls", `document.querySelector('ul.party li[data-character="orco"] .hp').getAttribute("aria-valuenow") < 1`)
	click(gmB, "end the v1 session", `button[data-action="session-end"]`)

	// The v2 session: the players' devices contribute by themselves.
	click(gmB, "start a v2 session", `button[data-action="session-start-v2"]`)
	waitFor(t, gmB, "v2 session", `document.getElementById("session").textContent.includes("v2")`)
	session := func() *projections.Session {
		var c projections.Campaign
		th.gm(t, "GET", "/api/campaigns/mordor", "", &c)
		return c.OpenSession()
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(session().Contributions) < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	require.Len(t, session().Contributions, 2, "both players' devices contributed")

	// The roll call: both players roll Sigilo against media from it.
	submit(t, gmB, "call for a roll", `details[data-action="roll-call"]`, map[string]any{"characters:lodin": true, "characters:ruisenor": true, "skill": "Sigilo"})
	waitFor(t, gmB, "the call is listed", `document.querySelectorAll('ul.calls li').length === 1`)
	gmB.shot(t, "table-gm-rollcall-phone.png")
	before := len(th.rolls(t, "mordor"))
	for _, who := range []string{"cai", "dan"} {
		b := browsers[who]
		waitFor(t, b, who+" sees the call", `!!document.querySelector('.call button[data-action="call-roll"]')`)
		eval[bool](t, b, `(document.getElementById("notice").className = "", document.querySelector('.call button[data-action="call-roll"]').click(), true)`)
		waitDone(t, b, who+"'s roll is recorded")
	}
	rolls := th.rolls(t, "mordor")
	require.Len(t, rolls, before+2)
	for i, who := range []string{"lodin", "ruisenor"} {
		r := rolls[before+i]
		require.Equal(t, who, r.Character)
		require.Equal(t, "Sigilo", r.Skill)
		require.NotEmpty(t, r.Reveal, "a v2 roll reveals the device's r")
	}
	caiB.shot(t, "table-player-phone.png")

	// A player from its own sheet, with a difficulty chosen.
	submit(t, caiB, "cai rolls Pelea against difícil", `article[data-character="lodin"] details[data-action="roll"]`, map[string]any{"skill": "Pelea", "vs": "difícil"})
	waitDone(t, caiB, "the Pelea roll")
	rolls = th.rolls(t, "mordor")
	require.Equal(t, "Pelea", rolls[len(rolls)-1].Skill)
	require.Equal(t, "difícil", rolls[len(rolls)-1].DifficultyName)

	// The attacks, in turn order, two rounds; the GM moves the rounds on.
	attacks := 0
	for round := 0; round < 2; round++ {
		for range 2 {
			turn := eval[string](t, gmB, `JournalTable.currentTurn()`)
			who := map[string]string{"lodin": "cai", "ruisenor": "dan"}[turn]
			require.NotEmpty(t, who, "a player's turn, not %q", turn)
			b := browsers[who]
			sel := fmt.Sprintf(`article[data-character=%q] details[data-action="attack"]`, turn)
			fields := map[string]any{"target": "orco"}
			if turn == "ruisenor" {
				fields["range"] = "corta" // a revolver
			}
			submit(t, b, turn+" attacks", sel, fields)
			waitDone(t, b, turn+"'s attack")
			attacks++
			waitFor(t, gmB, "the tracker marks it", fmt.Sprintf(`!!document.querySelector('ol.order li.done[data-character=%q]')`, turn))
		}
		if round == 0 {
			gmB.shot(t, "table-gm-combat-phone.png")
		}
		click(gmB, "next round", `button[data-action="combat-round"]`)
		waitFor(t, gmB, "the round moves on", fmt.Sprintf(`document.querySelector('[data-panel="combat"] p').textContent.endsWith(" %d")`, round+2))
	}
	resolved := 0
	for _, e := range th.events(t, "mordor") {
		if e.Type == events.TypeAttackResolved {
			resolved++
		}
	}
	require.Equal(t, attacks, resolved)

	// A player may not act for another's character, nor as the GM: the
	// journal's refusal, and nothing recorded.
	n := th.count(t)
	for _, tc := range []struct{ what, js, want string }{
		{"cai rolls for ruisenor", `JournalTable.requestReveal("ruisenor", {command:"roll", character:"ruisenor", skill:"Sigilo", attribute:"", vs:"", modifier:0, token:false, specialization:false})`, "only for its own characters"},
		{"cai ends the session", `JournalTable.command("session-end", {})`, "game master"},
		{"cai damages ruisenor", `JournalTable.command("damage", {character:"ruisenor", amount:5})`, "game master"},
		{"cai calls for a roll", `JournalTable.api("POST", JournalTable.campaignPath("/calls"), {characters:["lodin"], skill:"Sigilo"})`, "game master"},
		{"cai lists the devices", `JournalTable.api("GET", JournalTable.campaignPath("/devices"))`, "game master"},
	} {
		msg := eval[string](t, caiB, `(async () => { try { await `+tc.js+`; return "done" } catch (e) { return e.message } })()`)
		require.Contains(t, msg, tc.want, tc.what)
		require.Equal(t, n, th.count(t), "%s: recorded something", tc.what)
	}

	// XP, then the end of the session; the GM lists and revokes a device.
	submit(t, gmB, "grant XP", `details[data-action="xp"]`, map[string]any{"character": "ruisenor", "amount": 3})
	waitFor(t, danB, "dan sees the XP", `[...document.querySelectorAll('article[data-character="ruisenor"] .facts dd')].some(d => d.textContent === "3")`)
	click(gmB, "close the call", `button[data-action="call-close"]`)
	click(gmB, "end the session", `button[data-action="session-end"]`)
	waitFor(t, caiB, "cai sees it end", `document.getElementById("session").textContent.includes("no session") || document.getElementById("session").textContent.includes("sin sesión")`)
	// Every device co-signs the end by itself (table2_browser_test.go).
	waitFor(t, gmB, "every device co-signed", `(() => { const p = document.querySelector('p.cosigns'); return !!p && p.dataset.cosigned === "ana,cai,dan" })()`)
	waitFor(t, gmB, "the devices listed", `document.querySelectorAll('ul.devices li').length >= 3`)
	gmB.shot(t, "table-gm-phone.png")
	gmB.do(t, "dark mode", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), emulateDark())
	gmB.shot(t, "table-gm-phone-dark.png")
	danB.do(t, "dark mode", emulateDark())
	danB.shot(t, "table-player-phone-dark.png")

	// On a phone nothing is wider than the screen, and no element inside
	// the page scrolls by itself but the feed (the game's chat, in its own
	// box so that the page stays short).
	for who, b := range browsers {
		if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("%s: on a 390 px screen the page is %d px wide", who, w)
		}
		traps := eval[int](t, b, `[...document.querySelectorAll("main *")].filter(e => { const s = getComputedStyle(e); return /(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight && !e.classList.contains("feed-scroll") }).length`)
		require.Zero(t, traps, "%s: nested scroll areas", who)
	}

	click(gmB, "revoke dan's device", `ul.devices li[data-user="dan"][data-kind="device"] button[data-action="revoke"]`)
	waitFor(t, gmB, "dan's device revoked", `document.querySelector('ul.devices li[data-user="dan"][data-kind="device"]').textContent.includes("revoked")`)
	n = th.count(t)
	msg := eval[string](t, danB, `(async () => { try { await JournalTable.command("session-start", {dice: "v2"}); return "done" } catch (e) { return e.message } })()`)
	require.Contains(t, msg, "unknown token", "a revoked device")
	require.Equal(t, n, th.count(t), "a revoked device recorded something")

	// The session the browsers played verifies.
	src := replay.StoreSource(th.store.Read, events.Query{})
	rep, err := replay.Verify(context.Background(), src, replay.Options{})
	require.NoError(t, err)
	if !rep.OK() {
		var buf strings.Builder
		_ = rep.WriteText(&buf)
		t.Fatalf("replay of the table's session:\n%s", buf.String())
	}
	for who, b := range browsers {
		for _, line := range b.logs() {
			if strings.Contains(line, "Uncaught") {
				t.Errorf("%s's console: %s", who, line)
			}
		}
	}
}

// emulateDark makes the page prefer the dark color scheme.
func emulateDark() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	})
}

func slicesCompact(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// rolls returns the campaign's roll.made data, in order.
func (th *tableHarness) rolls(t *testing.T, campaign string) []events.RollMade {
	t.Helper()
	var out []events.RollMade
	for _, e := range th.events(t, campaign) {
		if e.Type == events.TypeRollMade {
			var d events.RollMade
			require.NoError(t, e.DecodeData(&d))
			out = append(out, d)
		}
	}
	return out
}

// events returns the campaign's events, read as its GM.
func (th *tableHarness) events(t *testing.T, campaign string) []events.Event {
	t.Helper()
	r := th.do(http.MethodGet, "/api/campaigns/"+campaign+"/events?limit=10000", "", bearer(anaToken)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var list []struct {
		Event events.Event `json:"event"`
	}
	require.NoError(t, json.Unmarshal(r.body, &list))
	out := make([]events.Event, len(list))
	for i, e := range list {
		out[i] = e.Event
	}
	return out
}

// TestTableSpeed measures the table's first paint and time to interactive
// (signed in, the campaign's state shown, the live feed open) for a GM and
// a player over a campaign of 10 000 events, on a real embedded JetStream
// server. Set JOURNAL_TABLE_SPEED=1 to run it (it takes a while to record
// the events); the figures are logged.
func TestTableSpeed(t *testing.T) {
	if os.Getenv("JOURNAL_TABLE_SPEED") == "" {
		t.Skip("set JOURNAL_TABLE_SPEED=1 to measure the table over 10 000 events")
	}
	gmB := newBrowser(t)
	th := newTableHarnessOn(t, jetBackend(false))
	ctx := context.Background()
	j := command.New(th.store, command.Options{}).MustFor(command.Call{Actor: "ana"})
	_, err := j.StartSessionWith(ctx, "mordor", command.SessionStart{})
	require.NoError(t, err)
	for n := th.count(t); n < 10_000; n = th.count(t) {
		for range 500 {
			_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "media"})
			require.NoError(t, err)
		}
	}
	t.Logf("%d events in the journal", th.count(t))
	for _, who := range []struct {
		name string
		spec invite.Spec
	}{
		{"ana", invite.Spec{User: "ana", Role: invite.RoleGM, By: "ana"}},
		{"cai", invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}}},
	} {
		b := gmB
		if who.name != "ana" {
			b = gmB.incognito(t)
		}
		b.do(t, who.name+" signs in", chromedp.Navigate(th.url+"/table#invite="+th.invite(t, who.spec)), chromedp.WaitVisible(`body[data-ready="1"]`))
		// Again, signed in: the page as it opens every other time.
		b.do(t, who.name+" opens the table", chromedp.Navigate(th.url+"/table"), chromedp.WaitVisible(`body[data-ready="1"]`))
		paint := eval[float64](t, b, `(performance.getEntriesByName("first-contentful-paint")[0] || {startTime: -1}).startTime`)
		ready := eval[float64](t, b, `performance.getEntriesByName("table-ready")[0].startTime`)
		t.Logf("%s over %d events: first contentful paint %.0f ms, interactive %.0f ms", who.name, th.count(t), paint, ready)
	}
}

// seat opens each invite in its browser, on a phone's screen, and waits
// until the table is ready and signed in as its user.
func seat(t *testing.T, th *tableHarness, browsers map[string]*browser, specs map[string]invite.Spec) {
	t.Helper()
	for _, who := range slices.Sorted(maps.Keys(specs)) {
		b := browsers[who]
		b.do(t, who+" opens the invite",
			chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
			chromedp.Navigate(th.url+"/table#invite="+th.invite(t, specs[who])),
			chromedp.WaitVisible(`body[data-ready="1"]`),
		)
		waitFor(t, b, who+" is signed in", fmt.Sprintf(`document.getElementById("who").textContent.startsWith(%q)`, who))
	}
}

// clickOn waits for sel in b and clicks it in one step.
func clickOn(t *testing.T, b *browser, what, sel string) {
	t.Helper()
	waitFor(t, b, what, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; document.getElementById("notice").className = ""; e.click(); return true })()`, sel))
}

// TestTableTORInBrowsers plays The One Ring at the table: the GM (ana)
// and two players (cai plays bilbo, dan plays thorin), each in a browser
// context of its own. The GM starts a session and an adventure; thorin
// rolls against TN 30 until he fails and spends Hope on that roll, asks the
// fellowship for a point, and bilbo's player votes for it; every sheet
// shows the Eyes and runes the journal counted. A player voting as
// another's character is refused and records nothing.
func TestTableTORInBrowsers(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	gmB := newBrowser(t)
	th := newTableHarnessFor(t, jetBackend(false), true)
	// A v1 session, started before any key is registered: a campaign with
	// keys refuses v1 sessions (no downgrade).
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`, nil)
	browsers := map[string]*browser{"ana": gmB, "cai": gmB.incognito(t), "dan": gmB.incognito(t)}
	seat(t, th, browsers, map[string]invite.Spec{
		"ana": {User: "ana", Role: invite.RoleGM, By: "ana"},
		"cai": {User: "cai", Role: invite.RolePlayer, Characters: []string{"bilbo"}},
		"dan": {User: "dan", Role: invite.RolePlayer, Characters: []string{"thorin"}},
	})
	gmB, caiB, danB := browsers["ana"], browsers["cai"], browsers["dan"]
	// The v1 session, started before the keys.
	waitFor(t, gmB, "the v1 session", `!!document.querySelector('details[data-action="adventure-start"]')`)
	submit(t, gmB, "start an adventure", `details[data-action="adventure-start"]`, map[string]any{"title": "El camino al Este"})
	waitDone(t, gmB, "start an adventure")

	sheet := func(id string) projections.TORSheet {
		var c projections.Campaign
		th.gm(t, "GET", "/api/campaigns/mordor", "", &c)
		return *c.TOR.Characters[id]
	}
	roll := `article[data-character="thorin"] details[data-action="tor-roll"]`
	// Hope is offered only on a failure it turns (its bonus reaches the TN):
	// Impresionar (rank 3, a Strength skill: Hope adds thorin's basic
	// Strength, 7) against TN 18 turns a total of 11 to 17.
	for i := 0; ; i++ {
		require.Less(t, i, 40, "forty rolls without a failure Hope turns")
		submit(t, danB, "thorin rolls Impresionar against TN 18", roll, map[string]any{"skill": "Impresionar", "tn": 18})
		waitDone(t, danB, "thorin's roll")
		// The page's state must hold this roll before its offer is read.
		waitFor(t, danB, "the roll in the page's state", fmt.Sprintf(`(%s.campaign || {}).last_seq >= %d`, pageState, th.count(t)))
		offered := eval[bool](t, danB, `!!document.querySelector('article[data-character="thorin"] button[data-action="hope-spend"]')`)
		if sheet("thorin").LastRoll.Result.Outcome == "failure" && offered {
			break
		}
		require.False(t, offered && sheet("thorin").LastRoll.Result.Outcome != "failure", "Hope offered after a %s", sheet("thorin").LastRoll.Result.Outcome)
	}
	hope := sheet("thorin").Hope
	clickOn(t, danB, "spend Hope", `article[data-character="thorin"] button[data-action="hope-spend"]`)
	waitDone(t, danB, "spend Hope")
	require.Equal(t, hope-1, sheet("thorin").Hope)
	require.True(t, sheet("thorin").LastRoll.HopeSpent)
	clickOn(t, danB, "ask the fellowship", `article[data-character="thorin"] button[data-action="fellowship-ask"]`)
	waitDone(t, danB, "ask the fellowship")

	// Bilbo's player may not vote as thorin, nor ask in bilbo's place.
	n := th.count(t)
	msg := eval[string](t, caiB, `(async () => { try { await JournalTable.command("fellowship-vote", {character:"thorin", voter:"thorin", agree:true}); return "done" } catch (e) { return e.message } })()`)
	require.Contains(t, msg, "only for its own characters")
	require.Equal(t, n, th.count(t))

	submit(t, caiB, "bilbo votes yes", `article[data-character="bilbo"] details[data-action="fellowship-vote"]`, map[string]any{"agree": "yes"})
	waitDone(t, caiB, "bilbo's vote")
	var votes []events.TORFellowshipVoted
	for _, e := range th.events(t, "mordor") {
		if e.Type == events.TypeTORFellowshipVoted {
			var v events.TORFellowshipVoted
			require.NoError(t, e.DecodeData(&v))
			votes = append(votes, v)
			require.Equal(t, "cai", e.Actor, "the vote is the player's")
		}
	}
	require.Equal(t, []events.TORFellowshipVoted{{Request: votes[0].Request, Character: "thorin", Voter: "bilbo", Agree: true}}, votes)

	// Each sheet shows the Eyes the journal counted.
	want := sheet("thorin").Eyes
	waitFor(t, danB, "thorin's Eyes", fmt.Sprintf(`document.querySelector('article[data-character="thorin"] [data-eyes]').dataset.eyes === "%d"`, want))
	waitFor(t, gmB, "the GM's TOR panel", `!!document.querySelector('[data-panel="tor"]')`)
	danB.shot(t, "table-tor-player-phone.png")
	gmB.shot(t, "table-tor-gm-phone.png")
	clickOn(t, gmB, "end the session", `button[data-action="session-end"]`)
	waitDone(t, gmB, "end the session")
}
