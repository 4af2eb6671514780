package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/invite"
)

// openTable opens an invite link in b at phone size and waits for the
// page to be signed in as who.
func openTable(t *testing.T, th *tableHarness, b *browser, who, link string) {
	t.Helper()
	b.do(t, who+" opens the invite", phone, chromedp.Navigate(th.url+"/table#invite="+link), chromedp.WaitVisible(`body[data-ready="1"]`))
	waitFor(t, b, who+" is signed in", fmt.Sprintf(`document.getElementById("who").textContent.startsWith(%q)`, who))
}

// waitReload polls a JavaScript predicate for up to 20 s across a reload
// of the page (an evaluation the reload interrupts is asked again).
func waitReload(t *testing.T, b *browser, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: not within 20 s (%s)", what, expr)
}

// TestTablePlayerOneRollPerTap: a player's page answers the GM's call with
// one roll however often its Roll button is tapped (two taps in the same
// instant, and a third after the answer, record one roll): the button is
// disabled from the tap until the answer and is gone once the call is
// answered. The call is announced (the notice, the page's title). The
// intent's request id is one per tap: JournalTable.tap run twice at once
// for one scope runs once.
func TestTablePlayerOneRollPerTap(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	th := newTableHarnessOn(t, memBackend())
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`, nil)
	openTable(t, th, b, "cai", th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}}))
	th.gm(t, "POST", "/api/campaigns/mordor/calls", `{"characters":["lodin"],"skill":"Sigilo","note":"the guards"}`, nil)

	sel := `#actionbar .call button[data-action="call-roll"]`
	waitFor(t, b, "cai sees the call", `!!document.querySelector('`+sel+`')`)
	waitFor(t, b, "the call is announced", `document.title.startsWith("(!) ") && document.getElementById("alert").textContent.includes("Sigilo")`)
	require.Contains(t, eval[string](t, b, `document.getElementById("actionbar").textContent`), "the guards", "the GM's note is shown")
	// Two taps in the same instant: the second finds the button disabled.
	require.True(t, eval[bool](t, b, `(() => { const bt = document.querySelector('`+sel+`'); bt.click(); const off = bt.disabled; bt.click(); return off })()`), "disabled from the tap")
	waitDone(t, b, "the roll")
	waitFor(t, b, "the Roll button goes", `!document.querySelector('`+sel+`')`)
	rolls := func() int {
		n := 0
		for _, e := range th.events(t, "mordor") {
			if e.Type == events.TypeRollMade {
				n++
			}
		}
		return n
	}
	require.Equal(t, 1, rolls(), "two taps, one roll")
	waitFor(t, b, "the roll's card in the feed, with its roller", `[...document.querySelectorAll("#feed li.ev .by .actor")].some(e => e.textContent === "cai")`)

	// One intent, one run: the same scope tapped twice at once.
	n := eval[int](t, b, `(async () => {
		let runs = 0;
		const T = JournalTable;
		const go = () => T.tap("test/once", "once", async (key) => { runs++; await new Promise((r) => setTimeout(r, 100)); return T.command("roll", {character: "lodin", skill: "Pelea"}, key); });
		await Promise.all([go(), go()]);
		return runs;
	})()`)
	require.Equal(t, 1, n, "a second tap of a running intent is ignored")
	require.Equal(t, 2, rolls())
	// A retry of one intent (the same key) records once.
	eval[bool](t, b, `(async () => {
		const T = JournalTable;
		const key = "retry-" + crypto.randomUUID();
		await T.command("roll", {character: "lodin", skill: "Pelea"}, key);
		await T.command("roll", {character: "lodin", skill: "Pelea"}, key);
		return true;
	})()`)
	require.Equal(t, 3, rolls(), "a retry with the intent's key records once")
	// The answer lost on the way back (the journal recorded the roll): the
	// page sends the intent again with its key, and it records once.
	require.True(t, eval[bool](t, b, `(async () => {
		const real = window.fetch;
		let lost = false;
		window.fetch = async (...a) => { const r = await real(...a); if (!lost) { lost = true; throw new TypeError("network lost"); } return r; };
		try {
			const res = await JournalTable.tap("test/lost", "lost", (key) => JournalTable.command("roll", {character: "lodin", skill: "Pelea"}, key));
			return lost && !!res && res.recorded.length > 0;
		} finally {
			window.fetch = real;
		}
	})()`), "the retried intent's answer")
	require.Equal(t, 4, rolls(), "a lost answer, retried, records once")
}

// TestTablePlayerTurnOpens: the player's "Attack · Your turn" opens in the
// action bar when the character's turn comes, even though it was drawn
// closed before (the sheet's says "Your turn"); the attack's target
// defaults to an enemy of the sides the combat's start recorded, and to
// none when the state knows no sides (never to an ally).
func TestTablePlayerTurnOpens(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	th := newTableHarnessOn(t, memBackend())
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`, nil)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/combat-start", `{"participants":["lodin","ruisenor","orco"]}`, nil)
	openTable(t, th, b, "cai", th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}}))
	attack := `article[data-character="lodin"] details[data-action="attack"]`
	waitFor(t, b, "the attack", `!!document.querySelector('`+attack+`')`)
	// The combat's start records its sides: the targets come grouped by
	// side and the default is an enemy.
	waitFor(t, b, "targets by side", `document.querySelectorAll('`+attack+` select[name="target"] optgroup').length === 2`)
	require.Equal(t, "orco", eval[string](t, b, `document.querySelector('`+attack+` select[name="target"]').value`), "the default target is an enemy")
	// A state that knows no sides chooses no target (never an ally).
	eval[bool](t, b, `(JournalTable.campaign.combat.sides = undefined, JournalTable.render(), true)`)
	require.Equal(t, "", eval[string](t, b, `document.querySelector('`+attack+` select[name="target"]').value`), "no side known: no target chosen")
	eval[bool](t, b, `(JournalTable.campaign.combat.sides = {lodin: "party", ruisenor: "party", orco: "enemies"}, JournalTable.render(), true)`)
	seenClosed := false
	for step := 0; step < 12; step++ {
		turn := eval[string](t, b, `JournalTable.currentTurn()`)
		if turn == "lodin" && seenClosed {
			waitFor(t, b, "the attack opens on lodin's turn, in the action bar", `!!document.querySelector('#actionbar:not([hidden]) details[data-action="attack"][open] summary') && document.querySelector('#actionbar details[data-action="attack"] summary').textContent.includes("Your turn")`)
			waitFor(t, b, "the sheet's says so", `document.querySelector('`+attack+` summary').textContent.includes("Your turn")`)
			return
		}
		if turn != "lodin" {
			waitFor(t, b, "closed while it is not lodin's turn", `!document.querySelector('`+attack+`').open`)
			seenClosed = true
		}
		switch turn {
		case "":
			th.gm(t, "POST", "/api/campaigns/mordor/commands/combat-round", `{}`, nil)
		case "lodin":
			th.gm(t, "POST", "/api/campaigns/mordor/commands/attack", `{"attacker":"lodin","target":"orco"}`, nil)
		case "ruisenor": // a revolver: a ranged attack
			th.gm(t, "POST", "/api/campaigns/mordor/commands/attack", `{"attacker":"ruisenor","target":"orco","range":"corta"}`, nil)
		default:
			th.gm(t, "POST", "/api/campaigns/mordor/commands/attack", fmt.Sprintf(`{"attacker":%q,"target":"lodin"}`, turn), nil)
		}
		waitFor(t, b, "the page follows the turn", fmt.Sprintf(`JournalTable.currentTurn() !== %q`, turn))
	}
	t.Fatal("lodin's turn never came")
}

// TestTablePlayerSecondInvite: a second invite opened in a tab already at
// the table is taken: it leaves the address bar at once, the tab signs in
// with it, and the browser keeps both sign-ins (one per campaign and
// role), switched from the header. The export button downloads what
// `journal export` writes (the stored bytes, one event a line).
func TestTablePlayerSecondInvite(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	th := newTableHarnessOn(t, memBackend())
	openTable(t, th, b, "cai", th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}}))
	second := th.invite(t, invite.Spec{Campaign: "gondor", User: "zed", Role: invite.RoleGM, By: "zed"})
	// The hash is gone in the same task as the hashchange.
	require.True(t, eval[bool](t, b, `new Promise((ok) => {
		addEventListener("hashchange", () => setTimeout(() => ok(!location.hash.includes("invite=")), 0), {once: true});
		location.hash = "#invite=`+second+`";
	})`), "the invite leaves the address bar at once")
	waitReload(t, b, "the tab is zed's in gondor", `document.body.dataset.ready === "1" && document.getElementById("who").textContent.startsWith("zed")`)
	require.Equal(t, 2, eval[int](t, b, `document.querySelectorAll("#signins option").length`), "two sign-ins kept")
	require.False(t, eval[bool](t, b, `document.getElementById("signins").hidden`))
	eval[bool](t, b, `(() => { const s = document.getElementById("signins"); s.value = [...s.options].find(o => o.value.startsWith("mordor/cai")).value; s.dispatchEvent(new Event("change")); return true })()`)
	waitReload(t, b, "the tab is cai's again", `document.body.dataset.ready === "1" && document.getElementById("who").textContent.startsWith("cai")`)

	// The export, as the page downloads it, is the export route's body.
	got := eval[string](t, b, `(async () => {
		let blob = null;
		const make = URL.createObjectURL;
		URL.createObjectURL = (x) => { blob = x; return make.call(URL, x); };
		await JournalTable.exportCampaign();
		URL.createObjectURL = make;
		return await blob.text();
	})()`)
	tok := eval[string](t, b, `JSON.parse(localStorage.getItem("journal.table")).token`)
	r := th.do(http.MethodGet, "/api/campaigns/mordor/export", "", bearer(tok)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	require.Equal(t, string(r.body), got)
	lines := 0
	sc := bufio.NewScanner(bytes.NewReader(r.body))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e events.Event
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e), "line %d", lines+1)
		require.Equal(t, "mordor", e.Campaign)
		lines++
	}
	require.Equal(t, len(th.events(t, "mordor")), lines, "every event, one a line")
	require.False(t, strings.Contains(string(r.body), "gondor"))
}

// TestTablePlayerTORSheet: The One Ring's sheet names its attributes in
// the page's language with their basic and favoured scores ("Heart 6 ·
// favoured 8", not "corazon 6/8"), and Hope is offered only on a failed
// roll that Hope can turn (never on a success, nor out of reach).
func TestTablePlayerTORSheet(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	th := newTableHarnessFor(t, memBackend(), true)
	openTable(t, th, b, "cai", th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"bilbo"}}))
	waitFor(t, b, "bilbo's sheet", `!!document.querySelector('article[data-character="bilbo"] li[data-attribute="corazon"]')`)
	require.Equal(t, "Heart 6 · favoured 8", eval[string](t, b, `document.querySelector('article[data-character="bilbo"] li[data-attribute="corazon"]').textContent`))
	// Hope's offer, judged on bilbo's own numbers (Sigilo is favoured, a
	// Wits skill: Hope adds 7).
	can := func(success bool, total, tn int, spent bool) bool {
		return eval[bool](t, b, fmt.Sprintf(`JournalTable.hopeCanTurn(Object.assign({}, JournalTable.sheetOf("bilbo"), {hope: 3,
			last_roll: {skill: "Sigilo", favoured: true, hope_spent: %t, result: {success: %t, total: %d, tn: %d}}}))`, spent, success, total, tn))
	}
	require.False(t, can(true, 16, 14, false), "not after a success")
	require.True(t, can(false, 8, 14, false), "a failure Hope turns: 8 + 7 ≥ 14")
	require.False(t, can(false, 5, 14, false), "out of reach: 5 + 7 < 14")
	require.False(t, can(false, 8, 14, true), "not twice")
}

// TestTablePlayerSpanish: the player's page in Spanish is Spanish only
// (its header, the action bar, the party, the sheet, the feed's cards),
// on a phone; The One Ring's attributes by their Spanish names.
func TestTablePlayerSpanish(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowserLang(t, "es-ES,es")
	th := newTableHarnessOn(t, memBackend())
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`, nil)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"Sigilo","vs":"media"}`, nil)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/combat-start", `{"participants":["lodin","ruisenor","orco"]}`, nil)
	th.gm(t, "POST", "/api/campaigns/mordor/calls", `{"characters":["lodin"],"skill":"Sigilo","note":"los guardias"}`, nil)
	openTable(t, th, b, "cai", th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}}))
	waitFor(t, b, "the call", `!!document.querySelector('#actionbar .call button[data-action="call-roll"]')`)
	waitFor(t, b, "the feed", `document.querySelectorAll("#feed li.ev").length > 0`)
	require.Equal(t, "es", eval[string](t, b, `document.documentElement.lang`))
	text := eval[string](t, b, `document.body.innerText`)
	for _, w := range []string{"Te toca", "Grupo", "Tirar", "tuyo", "Exportar"} {
		require.Contains(t, text, w)
	}
	for _, w := range []string{"Your turn", "Party", "yours", "Export", "The GM", "Roll", "favoured", "Table", "Verify"} {
		require.False(t, regexp.MustCompile(`\b`+w+`\b`).MatchString(text), "an English word on a Spanish screen: %q in %s", w, text)
	}
	shots(t, b, "table-player-phone-es.png")
}
