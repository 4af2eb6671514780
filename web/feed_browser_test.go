package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/web"
)

// shot saves a full-page screenshot as an artifact (when kept:
// keepShots).
func shot(t *testing.T, b *browser, name string) {
	t.Helper()
	eval[bool](t, b, `(window.scrollTo(0, 0), true)`)
	if !keepShots() {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	artifact(t, name, png)
}

// TestFeedAsChat drives the feed in headless Chromium against the service
// on a real embedded JetStream server: a contest shows its winner, an
// attack is one card with its hit and the target's HP, "Verify all" puts a
// badge on every card and judges the outcome and consequences too (a
// record whose faces are true but whose outcome, total or damage was
// changed is a mismatch), the permalink's forum line links to a page that
// verifies the roll in the browser, and older events load on scroll.
func TestFeedAsChat(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, jetBackend(false))
	h.setup("mordor")
	h.command("mordor", "session-start", `{"title":"La torre"}`, http.StatusOK)
	contest := h.command("mordor", "contest", `{"a":"lodin","skill_a":"Sigilo","b":"orco","skill_b":"Pelea"}`, http.StatusOK)
	started := h.command("mordor", "combat-start", `{"participants":["ruisenor","orco"]}`, http.StatusOK)
	var combat events.CombatStarted
	require.NoError(t, started.Recorded[len(started.Recorded)-1].Event.DecodeData(&combat))
	// Attacks at +40 until one hits (only a natural 1 or a fumble misses:
	// about 3 in 100).
	var attacks []result
	hit := func(r result) bool {
		var a events.AttackResolved
		require.NoError(t, r.Recorded[len(r.Recorded)-1].Event.DecodeData(&a))
		return a.Hit
	}
	for round := 0; len(attacks) == 0 || !hit(attacks[0]); round++ {
		require.Less(t, round, 20, "no hit at +40 in 20 rounds")
		if round > 0 {
			h.command("mordor", "combat-round", ``, http.StatusOK)
		}
		for _, who := range combat.Order { // each in the initiative's order
			if who == "orco" {
				h.command("mordor", "attack", `{"attacker":"orco","target":"ruisenor","modifier":-40}`, http.StatusOK)
				continue
			}
			attacks = []result{h.command("mordor", "attack", `{"attacker":"ruisenor","target":"orco","range":"corta","modifier":40}`, http.StatusOK)}
			if hit(attacks[0]) {
				break // the orc may be down
			}
		}
	}

	b.do(t, "open the dashboard", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(`#live.on`))
	if l := eval[string](t, b, `document.documentElement.lang`); l != "en" {
		t.Fatalf("page language %q, want en (the browser's)", l)
	}
	// The contest is one card naming its winner.
	var cd events.ContestResolved
	require.NoError(t, contest.Recorded[2].Event.DecodeData(&cd))
	contestCard := fmt.Sprintf(`li.contest[data-head=%q]`, contest.Recorded[2].Event.ID)
	b.do(t, "contest card", chromedp.WaitVisible(contestCard))
	if got := eval[string](t, b, `document.querySelector('`+contestCard+`').dataset.winner`); got != cd.Winner {
		t.Fatalf("contest card winner %q, want %q", got, cd.Winner)
	}
	if text := eval[string](t, b, `document.querySelector('`+contestCard+` .contest-verdict').textContent`); cd.Winner == "" {
		require.Contains(t, text, "a tie", "the contest card says it is a tie")
	} else {
		require.Contains(t, text, "wins", "the contest card says who wins")
		b.do(t, "winner marked", chromedp.WaitVisible(contestCard+fmt.Sprintf(` .side.winner[data-character=%q]`, cd.Winner)))
	}
	// The attack is one card: its rolls are not cards of their own.
	atk := attacks[0].Recorded
	head := atk[len(atk)-1].Event
	require.Equal(t, "journal.attack.resolved.v1", head.Type)
	attackCard := fmt.Sprintf(`li.attack[data-head=%q]`, head.ID)
	b.do(t, "attack card", chromedp.WaitVisible(attackCard))
	if n := eval[int](t, b, fmt.Sprintf(`document.querySelectorAll('li.ev[data-event-id=%q]').length`, atk[0].Event.ID)); n != 1 {
		t.Fatalf("the attack roll shows in %d cards, want 1", n)
	}
	require.Equal(t, "1", eval[string](t, b, `document.querySelector('`+attackCard+`').dataset.hit`), "the attack card says it hit")
	waitTrue(t, b, "the target's HP after the hit", `(document.querySelector('`+attackCard+`').scrollIntoView(), /Orco: -?\d+\/\d+ HP/.test(document.querySelector('`+attackCard+` .hp-after').textContent))`)
	require.Contains(t, eval[string](t, b, `document.querySelector('`+attackCard+` .damage').textContent`), "damage")
	// Technical details hide behind a toggle.
	if eval[bool](t, b, `document.querySelector('`+attackCard+` details.tech').open`) {
		t.Fatal("the details are open by default")
	}

	// The session ends: Verify all badges every card, verified.
	h.command("mordor", "combat-end", ``, http.StatusOK)
	h.command("mordor", "session-end", ``, http.StatusOK)
	waitTrue(t, b, "the session ends on the page", `document.getElementById("session").textContent.includes("ended")`)
	b.do(t, "verify all", chromedp.Click(`#verify-all`))
	waitTrue(t, b, "verify all is done", `(document.getElementById("verify-all-result").dataset.mismatch || "") !== ""`)
	if m := eval[string](t, b, `document.getElementById("verify-all-result").dataset.mismatch`); m != "0" {
		t.Fatalf("verify all: %s", eval[string](t, b, `document.getElementById("verify-all-result").textContent`))
	}
	if n := eval[int](t, b, `[...document.querySelectorAll("#feed li.roll")].filter(li => li.querySelector('.verdict[data-status="verified"]') === null).length`); n != 0 {
		t.Fatalf("%d roll cards have no verified badge", n)
	}
	shot(t, b, "feed-verified.png")

	// The rules are judged too: true faces with a changed outcome, total,
	// kept die, damage or winner are a mismatch.
	tamper := []struct{ name, js string }{
		{"outcome", `r.event.data.outcome = r.event.data.outcome === "success" ? "failure" : "success"`},
		{"total", `r.event.data.total += 1`},
		{"kept", `r.event.data.kept = [r.event.data.kept[0] === 10 ? 9 : r.event.data.kept[0] + 1]`},
	}
	for _, tc := range tamper {
		js := fmt.Sprintf(`(async () => {
			const page = await (await fetch("/api/campaigns/mordor/events?limit=10000")).json();
			const recs = page.map(p => ({seq: p.seq, event: p.event}));
			const r = recs.find(x => x.event.id === %q);
			%s;
			const rep = await JournalVerify.verifyEvents(recs, {});
			return rep.rolls[r.event.id].status;
		})()`, contest.Recorded[0].Event.ID, tc.js)
		if got := eval[string](t, b, js); got != "mismatch" {
			t.Errorf("a roll with a changed %s verifies as %s", tc.name, got)
		}
	}
	consequences := []struct{ name, js string }{
		{"the contest's winner", fmt.Sprintf(`const c = recs.find(x => x.event.id === %q); c.event.data.winner = c.event.data.winner === "lodin" ? "orco" : "lodin"; const id = c.event.data.roll_a;`, contest.Recorded[2].Event.ID)},
		{"the initiative order", `const c = recs.find(x => x.event.type === "journal.combat.started.v1"); c.event.data.totals[c.event.data.order[0]] += 1; const id = Object.values(c.event.data.initiative)[0];`},
		{"a roll's character", fmt.Sprintf(`const c = recs.find(x => x.event.id === %q); c.event.data.character = "gandalf"; const id = c.event.id;`, contest.Recorded[0].Event.ID)},
		{"the attack's damage", fmt.Sprintf(`const c = recs.find(x => x.event.id === %q); c.event.data.hit = !c.event.data.hit; const id = c.event.data.attack_roll;`, head.ID)},
	}
	for _, tc := range consequences {
		js := `(async () => {
			const page = await (await fetch("/api/campaigns/mordor/events?limit=10000")).json();
			const recs = page.map(p => ({seq: p.seq, event: p.event}));
			` + tc.js + `
			const rep = await JournalVerify.verifyEvents(recs, {});
			return rep.rolls[id].status;
		})()`
		if got := eval[string](t, b, js); got != "mismatch" {
			t.Errorf("changing %s verifies as %s", tc.name, got)
		}
	}

	// The forum line links to the roll's page, which verifies it in the browser.
	card := fmt.Sprintf(`li.ev[data-event-id=%q]`, contest.Recorded[0].Event.ID)
	b.do(t, "copy the Markdown line", chromedp.Click(card+` button.copy-md`))
	// The copy asks the server for the link with its capability first.
	waitTrue(t, b, "the Markdown line", `document.querySelector('`+card+` output.copied').dataset.kind === "markdown"`)
	md := eval[string](t, b, `document.querySelector('`+card+` output.copied').textContent`)
	link := regexp.MustCompile(`\]\((http[^)]+)\)$`).FindStringSubmatch(md)
	require.NotNil(t, link, "markdown line %q", md)
	b.do(t, "copy the BBCode line", chromedp.Click(card+` button.copy-bb`))
	waitTrue(t, b, "the BBCode line", `document.querySelector('`+card+` output.copied').dataset.kind === "bbcode"`)
	bb := eval[string](t, b, `document.querySelector('`+card+` output.copied').textContent`)
	require.True(t, strings.HasPrefix(bb, "[url="+link[1]+"]") && strings.HasSuffix(bb, "[/url]") && strings.Count(bb, "[") == 2, "bbcode line %q", bb)
	require.True(t, strings.HasPrefix(link[1], h.url+"/r/mordor/"+contest.Recorded[0].Event.ID+"?k="), "the forum line links to the roll's page with its capability: %s", link[1])

	v := newBrowserLang(t, "es-ES,es") // a visitor from the forum, in Spanish
	v.do(t, "open the forum link", chromedp.Navigate(link[1]), chromedp.WaitVisible(`.verdict[data-status="verified"]`))
	require.Equal(t, "es", eval[string](t, v, `document.documentElement.lang`))
	require.Contains(t, eval[string](t, v, `document.querySelector(".verdict").textContent`), "verificada")
	want := "empate"
	if cd.Winner != "" {
		want = "gana"
	}
	require.Contains(t, eval[string](t, v, `document.querySelector("li.contest .contest-verdict").textContent`), want)
	shot(t, v, "permalink-es.png")
	// A permalink to no roll says so; a malformed one is a 404.
	v.do(t, "unknown roll", chromedp.Navigate(h.url+"/r/mordor/01a23160-0000-7000-8000-000000000000"), chromedp.WaitVisible(`#status[data-status="missing"]`))
	r := h.do(http.MethodGet, "/r/mordor/<script>", "")
	require.Equal(t, http.StatusNotFound, r.status)

	// Older events on scroll: a long session pages in as the feed scrolls.
	h.command("mordor", "session-start", `{"title":"El camino"}`, http.StatusOK)
	for i := range 2 * 40 {
		h.command("mordor", "roll", fmt.Sprintf(`{"character":"lodin","skill":"Sigilo","entropy":"e%d"}`, i), http.StatusOK)
	}
	b.do(t, "reload", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(`#live.on`))
	first := eval[int](t, b, `document.querySelectorAll("#feed > li").length`)
	require.Equal(t, 40, first, "the first page")
	eval[bool](t, b, `(document.getElementById("older").scrollIntoView(), true)`)
	waitTrue(t, b, "the next page loads on scroll", `document.querySelectorAll("#feed > li").length > 40`)
	waitTrue(t, b, "back to the contest", `(document.getElementById("older").scrollIntoView(), document.querySelector('`+contestCard+`') !== null)`)
	waitTrue(t, b, "the start of the campaign", `(document.getElementById("older").scrollIntoView(), !document.getElementById("feed-start").hidden)`)

	// Phone: no nested scroll box, a compact header, nothing wider than the screen.
	b.do(t, "phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	waitTrue(t, b, "phone layout", `document.documentElement.clientWidth === 390`)
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("on a 390 px screen the page is %d px wide", w)
	}
	if hh := eval[int](t, b, `Math.round(document.querySelector("header.top").getBoundingClientRect().height)`); hh > 844/10 {
		t.Errorf("the header is %d px high on an 844 px screen", hh)
	}
	boxes := eval[[]string](t, b, `[...document.querySelectorAll("body *")].filter(e => { const s = getComputedStyle(e); return /(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1; }).map(e => e.tagName + "#" + e.id + "." + e.className)`)
	require.Empty(t, boxes, "nested vertical scroll boxes")
	shot(t, b, "feed-phone.png")
	for _, line := range append(b.logs(), v.logs()...) {
		if strings.Contains(line, "Uncaught") || strings.Contains(strings.ToLower(line), "exception") {
			t.Errorf("browser console: %s", line)
		}
	}
}

// TestFeedStyles renders cards of every kind of verdict in the page's own
// feed.js: The One Ring's Eye and rune as glyphs, great successes marked,
// natural 1s, fumbles and criticals styled (not grey), and every label in
// both languages.
func TestFeedStyles(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, memBackend())
	h.setup("mordor")
	b.do(t, "open the dashboard", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(`#live.on`))
	require.Empty(t, eval[[]string](t, b, `JournalI18n.missing()`), "a label missing from a language")
	eval[bool](t, b, `(() => {
		const list = document.getElementById("feed");
		const f = JournalFeed.create({list, api: () => Promise.resolve(null), campaign: () => "mordor"});
		const roll = (id, seq, data) => ({seq, event: {id, type: "journal.roll.made.v1", campaign: "mordor", session: "s1", data: Object.assign({system: "ryf", character: "lodin"}, data)}});
		f.add([
			roll("e1", 1, {system: "tor", kind: "tor", skill: "Atención", dice: "d12+3d6", faces: [11, 6, 3, 1], total: 10, tn: 14, outcome: "failure", eye: true}),
			roll("e2", 2, {system: "tor", kind: "tor", skill: "Explorar", dice: "d12+3d6", faces: [12, 6, 2, 1], total: 21, tn: 14, outcome: "success", quality: "great", rune: true}),
			roll("e3", 3, {kind: "skill", skill: "Sigilo", dice: "1o3d10", level: "mid", faces: [1, 1, 7], kept: [1], total: 13, difficulty: 15, outcome: "natural1"}),
			roll("e4", 4, {kind: "skill", skill: "Sigilo", dice: "1o3d10", level: "mid", faces: [1, 1, 1], kept: [1], total: 13, difficulty: 15, outcome: "fumble"}),
			roll("e5", 5, {kind: "skill", skill: "Sigilo", dice: "1o3d10", level: "high", faces: [10, 2, 3, 4, 9, 1], kept: [10, 4], total: 31, difficulty: 15, outcome: "critical"}),
		], false);
		return true;
	})()`)
	require.Contains(t, eval[string](t, b, `document.querySelector('li[data-event-id="e1"] .die.eye[role=img]:has(svg)').getAttribute("aria-label")`), "Eye")
	require.Contains(t, eval[string](t, b, `document.querySelector('li[data-event-id="e2"] .die.rune[role=img]:has(svg)').getAttribute("aria-label")`), "rune")
	require.Equal(t, 1, eval[int](t, b, `document.querySelectorAll('li[data-event-id="e1"] .die.d6.six').length`), "the six marked")
	require.Contains(t, eval[string](t, b, `document.querySelector('li[data-event-id="e2"] .outcome[data-quality="great"]').textContent`), "great success")
	grey := eval[string](t, b, `getComputedStyle(document.querySelector('li[data-event-id="e1"] .outcome')).backgroundColor`)
	for _, id := range []string{"e3", "e4", "e5"} {
		bg := eval[string](t, b, `getComputedStyle(document.querySelector('li[data-event-id="`+id+`"] .outcome')).backgroundColor`)
		require.NotEqual(t, grey, bg, "the verdict of %s is styled like a plain failure", id)
	}
	require.Contains(t, eval[string](t, b, `document.querySelector('li[data-event-id="e3"] .outcome').textContent`), "natural 1")
	require.Equal(t, 1, eval[int](t, b, `document.querySelectorAll('li[data-event-id="e5"] .explode').length`), "the critical's explosion")
	shot(t, b, "feed-styles.png")

	// Dark mode: the cards' text stays readable (WCAG contrast ≥ 4.5).
	b.do(t, "dark mode", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	}))
	waitTrue(t, b, "dark", `matchMedia("(prefers-color-scheme: dark)").matches`)
	low := eval[[]string](t, b, `(() => {
		const rgb = (c) => c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
		const lum = (c) => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const bg = (e) => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (!/rgba\(.*, 0\)$/.test(c) && c !== "transparent" && !getComputedStyle(e).backgroundImage.includes("gradient")) return c; } return "rgb(0,0,0)"; };
		const out = [];
		for (const e of document.querySelectorAll("#feed .what, #feed .total, #feed .die, #feed .outcome, #feed .against, .card .name, .lines li")) {
			const a = lum(getComputedStyle(e).color), b = lum(bg(e));
			const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
			if (ratio < 4.5) out.push(e.className + " " + e.textContent.slice(0, 20) + " " + ratio.toFixed(2));
		}
		return out;
	})()`)
	require.Empty(t, low, "text below 4.5:1 contrast in dark mode")
	shot(t, b, "feed-dark.png")
}

// TestFeedWaitsForFirstCampaign opens the dashboard before any campaign
// exists: the page says so, and shows the first campaign when it appears,
// with its live feed, without a reload.
func TestFeedWaitsForFirstCampaign(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, memBackend())
	b.do(t, "open the empty dashboard", chromedp.Navigate(h.url+"/"), chromedp.WaitVisible(`#empty`))
	h.setup("mordor")
	h.command("mordor", "session-start", `{}`, http.StatusOK)
	waitTrue(t, b, "the first campaign appears", `document.getElementById("empty").hidden && document.querySelector("#campaign option[value=mordor]") !== null`)
	b.do(t, "live", chromedp.WaitVisible(`#live.on`))
	roll := h.command("mordor", "roll", `{"character":"lodin","skill":"Sigilo"}`, http.StatusOK)
	b.do(t, "the roll arrives live", chromedp.WaitVisible(rollSel(roll.Recorded[0].Event.ID)))
	if n := eval[int](t, b, `performance.getEntriesByType("navigation").length`); n != 1 {
		t.Fatalf("the page navigated %d times", n)
	}
}

// TestFeedSpanish opens the dashboard in a Spanish browser: every label is
// Spanish (one language per screen), and --lang (Options.Lang) wins over
// the browser.
func TestFeedSpanish(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	h := newHarness(t, memBackend())
	h.setup("mordor")
	h.command("mordor", "session-start", `{}`, http.StatusOK)
	h.command("mordor", "roll", `{"character":"lodin","skill":"Sigilo","vs":"media"}`, http.StatusOK)
	h.command("mordor", "contest", `{"a":"lodin","skill_a":"Sigilo","b":"orco","skill_b":"Pelea"}`, http.StatusOK)
	b := newBrowserLang(t, "es-ES,es")
	b.do(t, "open", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(`#live.on`), chromedp.WaitVisible(`li.contest`), chromedp.WaitVisible(`#transcript li`))
	require.Equal(t, "es", eval[string](t, b, `document.documentElement.lang`))
	text := eval[string](t, b, `document.body.innerText`)
	for _, w := range []string{"Party", "Combat", "Luck", "Verify", "Transcript", "played by", "live", "session", "Older", "details", "Copy", "against", "wins", "tie", "success", "failure", "character", "rolls", "HP", "XP"} {
		require.NotRegexp(t, `(?i)\b`+w+`\b`, text, "the English word %q on the Spanish page", w)
	}
	for _, w := range []string{"Grupo", "Mesa", "Verificar", "Crónica", "Suerte", "lo lleva"} {
		require.Contains(t, text, w)
	}
	shot(t, b, "dashboard-es.png")

	forced := newHarnessWith(t, memBackend(), func(o *web.Options) { o.Lang = i18n.EN })
	r := forced.do(http.MethodGet, "/", "", "Accept-Language", "es")
	require.Contains(t, string(r.body), `<html lang="en">`, "--lang en wins over the browser")
	r = h.do(http.MethodGet, "/", "", "Accept-Language", "fr-FR, es;q=0.8, en;q=0.5")
	require.Contains(t, string(r.body), `<html lang="es">`)
	r = h.do(http.MethodGet, "/", "", "Accept-Language", "es;q=0, en")
	require.Contains(t, string(r.body), `<html lang="en">`)
}

// TestFeedTOR shows a One Ring campaign: the fellowship pool by the party,
// each roll's feat die (the Eye and the rune as glyphs) with its success
// dice, and the rolls verified in the browser, rules judged again.
func TestFeedTOR(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	h := newHarness(t, memBackend())
	r := h.do(http.MethodPost, "/api/campaigns", `{"id":"erebor","name":"La Tierra Media","system":"tor"}`)
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	for _, body := range []string{
		`{"id":"bilbo","name":"Bilbo","player":"Ana","culture":"Hobbits de la Comarca","max_hope":12,"attributes":"Cuerpo=3/5,Corazón=6/8,Mente=5/7","skills":"Atención=3*,Sigilo=3*,Acertijos=2,Viajar=2,Buscar=2,Cortesía=1","traits":["Ladrón","Ojo avizor"]}`,
		`{"id":"balin","name":"Balin","player":"Carlos","culture":"Enanos de Erebor","max_hope":10,"attributes":"Cuerpo=5/7,Corazón=6/8,Mente=4/6","skills":"Explorar=3*,Saber=2,Cortesía=2,Viajar=2","traits":["Erudito"]}`,
	} {
		h.command("erebor", "character-create", body, http.StatusCreated)
	}
	h.command("erebor", "session-start", ``, http.StatusOK)
	h.command("erebor", "adventure-start", `{"title":"El camino al Este"}`, http.StatusOK)
	var ids []string
	for i := range 6 {
		res := h.command("erebor", "roll", fmt.Sprintf(`{"character":"bilbo","skill":"Atención","tn":14,"entropy":"t%d"}`, i), http.StatusOK)
		ids = append(ids, res.Recorded[0].Event.ID)
	}
	h.command("erebor", "session-end", ``, http.StatusOK)
	var c struct {
		TOR struct {
			Pool int `json:"pool"`
		} `json:"tor"`
	}
	h.get("/api/campaigns/erebor", http.StatusOK, &c)

	b := newBrowser(t)
	b.do(t, "open", chromedp.Navigate(h.url+"/?campaign=erebor"), chromedp.WaitVisible(`#live.on`), chromedp.WaitVisible(rollSel(ids[5])))
	require.Equal(t, fmt.Sprintf("Fellowship pool: %d", c.TOR.Pool), eval[string](t, b, `document.getElementById("pool").textContent`))
	var recs []struct {
		Event events.Event `json:"event"`
	}
	require.NoError(t, json.Unmarshal(h.do(http.MethodGet, "/api/campaigns/erebor/events?types=journal.roll.made.v1", "").body, &recs))
	require.Len(t, recs, len(ids))
	for _, rec := range recs {
		var d struct {
			Faces []int `json:"faces"`
		}
		require.NoError(t, json.Unmarshal(rec.Event.Data, &d))
		feat := eval[string](t, b, `(() => { const e = document.querySelector('`+rollSel(rec.Event.ID)+` .die.feat'); return e.classList.contains("eye") ? "11" : e.classList.contains("rune") ? "12" : e.textContent; })()`)
		require.Equal(t, fmt.Sprint(d.Faces[0]), feat, "the feat die of %s", rec.Event.ID)
	}
	b.do(t, "verify all", chromedp.Click(`#verify-all`))
	waitTrue(t, b, "verified", `(document.getElementById("verify-all-result").dataset.mismatch || "") !== ""`)
	require.Equal(t, "0", eval[string](t, b, `document.getElementById("verify-all-result").dataset.mismatch`), eval[string](t, b, `document.getElementById("verify-all-result").textContent`))
	require.Equal(t, 0, eval[int](t, b, `[...document.querySelectorAll("#feed li.roll")].filter(li => !li.querySelector('.verdict[data-status="verified"]')).length`))
}
