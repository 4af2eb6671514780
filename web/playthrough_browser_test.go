package web_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/web"
)

// playGame is one game of the play-through: a system and the pages'
// language.
type playGame struct {
	system string // "ryf" or "tor"
	lang   string // "en" or "es"
}

// playFigures are the figures a game measures.
type playFigures struct {
	inviteToRoll time.Duration   // a player's invite opened → its first roll on the others' screens
	rollToCard   []time.Duration // a player's tap → the roll on the GM's screen
}

// newPlayHarness is newTableHarnessFor with every page in lang.
func newPlayHarness(t *testing.T, tor bool, lang string) *tableHarness {
	t.Helper()
	th := &tableHarness{now: time.Now(), tor: tor}
	path := filepath.Join(t.TempDir(), "access.json.devices.json")
	th.book = invite.Open(path, nil, nil)
	h := newHarnessWith(t, jetBackend(false), func(o *web.Options) {
		o.Access, o.Devices, o.Lang = accessConfig(t), th.book, i18n.Lang(lang)
	})
	as := func(token, method, p, body string, want int) {
		t.Helper()
		r := h.do(method, p, body, bearer(token)...)
		require.Equal(t, want, r.status, "%s %s: %s", method, p, r.body)
	}
	if tor {
		as(anaToken, "POST", "/api/campaigns", `{"id":"mordor","name":"La Tierra Media","system":"tor"}`, http.StatusCreated)
		for _, body := range []string{bilboBody, thorinBody} {
			as(anaToken, "POST", "/api/campaigns/mordor/commands/character-create", body, http.StatusCreated)
		}
	} else {
		as(anaToken, "POST", "/api/campaigns", `{"id":"mordor","name":"La torre de Mordor","system":"ryf"}`, http.StatusCreated)
		for _, body := range []string{lodinBody, ruisenorBody, orcoBody} {
			as(anaToken, "POST", "/api/campaigns/mordor/commands/character-create", body, http.StatusCreated)
		}
	}
	th.harness = h
	return th
}

// TestPlayThrough plays a whole game at the table in real Chromium for
// each system (RyF, The One Ring) and language (en, es), one browser
// context per person: the GM (ana) on a desktop, cai on a phone (360×740),
// dan on a laptop. The GM signs in by an invite, starts a journal-dice-v2
// session and makes the players' invites from the page; each player opens
// its link (cai's first roll is timed from the link to the others'
// screens); the GM calls for a roll (a skill typed otherwise than the
// rules spell it is written as they do; "Advertir" is stopped with the
// suggestion), the players answer; in RyF a contest, a combat whose start
// records its sides, in which the players attack and the GM attacks for
// the orc (witnessed by a player's device), damage, heal and XP; in The
// One Ring the GM's roll for a hero, Shadow; twenty-odd rolls timed from
// tap to the GM's screen; a void of a player's roll with its consent; the
// session's end co-signed by every device; the audit (replay) finds no
// mismatch. Where the page has them, Verify all, export and free rolls are
// used too. Screenshots go to $JOURNAL_SHOTS (none without it);
// the figures are logged.
func TestPlayThrough(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	if testing.Short() {
		t.Skip("a browser play-through")
	}
	shots := os.Getenv("JOURNAL_SHOTS") // "": none taken (keepShots)
	start := time.Now()
	var (
		mu  sync.Mutex
		all []time.Duration
	)
	// The four games are independent tables (each its own server, its own
	// browser contexts): they run side by side with the package's other
	// browser tests (-parallel), and "games" returns when all have ended.
	t.Run("games", func(t *testing.T) {
		for _, g := range []playGame{{"ryf", "en"}, {"ryf", "es"}, {"tor", "en"}, {"tor", "es"}} {
			t.Run(g.system+"-"+g.lang, func(t *testing.T) {
				t.Parallel()
				began := time.Now()
				f := playOneGame(t, newBrowser(t), g, shots)
				mu.Lock()
				all = append(all, f.rollToCard...)
				mu.Unlock()
				p50, p90 := playPercentile(f.rollToCard, 50), playPercentile(f.rollToCard, 90)
				t.Logf("%s/%s: invite opened → first roll on the others' screens %v; roll → card on the GM's screen p50 %v, p90 %v over %d rolls; game %v",
					g.system, g.lang, f.inviteToRoll.Round(time.Millisecond), p50, p90, len(f.rollToCard), time.Since(began).Round(time.Second))
			})
		}
	})
	t.Logf("all games: roll → card p50 %v, p90 %v over %d rolls; screenshots in %s; %v in all",
		playPercentile(all, 50), playPercentile(all, 90), len(all), shots, time.Since(start).Round(time.Second))
}

// playPercentile is the p-th percentile of ds (nearest rank), rounded to ms.
func playPercentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s) + 99) / 100
	return s[max(0, min(len(s)-1, i-1))].Round(time.Millisecond)
}

// playOneGame plays one game; see TestPlayThrough.
func playOneGame(t *testing.T, chrome *browser, g playGame, shots string) playFigures {
	var fig playFigures
	tor := g.system == "tor"
	th := newPlayHarness(t, tor, g.lang)
	gmB, caiB, danB := chrome.incognito(t), chrome.incognito(t), chrome.incognito(t)
	browsers := map[string]*browser{"ana": gmB, "cai": caiB, "dan": danB}
	pc := map[string]string{"cai": "lodin", "dan": "ruisenor"}
	if tor {
		pc = map[string]string{"cai": "bilbo", "dan": "thorin"}
	}
	sizes := map[string]chromedp.Action[chromedp.Void]{
		"ana": chromedp.EmulateViewport(1280, 900),
		"cai": chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile),
		"dan": chromedp.EmulateViewport(1366, 768),
	}
	shot := func(who, name string) {
		t.Helper()
		b := browsers[who]
		eval[bool](t, b, `(window.scrollTo(0, 0), true)`)
		if shots != "" {
			png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(shots, fmt.Sprintf("play-%s-%s-%s-%s.png", g.system, g.lang, name, who)), png, 0o644))
		}
		// Every screen shown speaks the game's one language.
		checkOneLanguage(t, b.ctx, g.lang)
	}
	campaign := func() *projections.Campaign {
		var c projections.Campaign
		th.gm(t, "GET", "/api/campaigns/mordor", "", &c)
		return &c
	}
	// seen is true on b's page once it shows the event at seq: its card
	// or log line, or its state past it.
	seen := func(seq uint64) string {
		return fmt.Sprintf(`(!!document.querySelector('[data-seq="%d"]') || (%s.campaign || {}).last_seq >= %d)`, seq, pageState, seq)
	}
	open := func(who, link string) {
		t.Helper()
		browsers[who].do(t, who+" opens the invite", sizes[who], chromedp.Navigate(th.url+link), chromedp.WaitVisible(`body[data-ready="1"]`))
		waitFor(t, browsers[who], who+" is signed in", fmt.Sprintf(`document.getElementById("who").textContent.startsWith(%q)`, who))
		require.Equal(t, g.lang, eval[string](t, browsers[who], `document.documentElement.lang`), "%s's page language", who)
	}

	// The GM: an invite made by journal invite, then a v2 session.
	open("ana", "/table#invite="+th.invite(t, invite.Spec{User: "ana", Role: invite.RoleGM, By: "ana"}))
	clickOn(t, gmB, "start a v2 session", `button[data-action="session-start-v2"]`)
	waitDone(t, gmB, "start a v2 session")
	session := campaign().OpenSession().ID

	// The players' invites, made from the GM's page.
	links := map[string]string{}
	for _, who := range []string{"dan", "cai"} {
		prev := eval[string](t, gmB, `(document.querySelector('.invite-link input') || {}).value || ""`)
		submit(t, gmB, "invite "+who, `[data-panel="devices"]`, map[string]any{"user": who, "role": "player", "characters:" + pc[who]: true})
		waitDone(t, gmB, "invite "+who)
		waitFor(t, gmB, "the link for "+who, fmt.Sprintf(`(() => { const i = document.querySelector('.invite-link input'); return !!i && i.value.includes("#invite=") && i.value !== %q })()`, prev))
		link := eval[string](t, gmB, `document.querySelector('.invite-link input').value`)
		links[who] = link[strings.Index(link, "/table#"):]
	}
	shot("ana", "invites")

	// dan sits down; then cai: from cai's link to cai's first roll on the
	// GM's and dan's screens.
	open("dan", links["dan"])
	waitFor(t, gmB, "dan contributed", `((JournalTable.openSession() || {}).contributions || []).length >= 1`)
	t0 := time.Now()
	open("cai", links["cai"])
	deadline := time.Now().Add(20 * time.Second)
	for len(campaign().OpenSession().Contributions) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	require.Len(t, campaign().OpenSession().Contributions, 2, "both players' devices contributed")
	playerRoll(t, caiB, tor, pc["cai"])
	first := th.count(t)
	for _, who := range []string{"ana", "dan"} {
		waitFor(t, browsers[who], who+" sees cai's first roll", seen(first))
	}
	fig.inviteToRoll = time.Since(t0)
	for _, who := range []string{"cai", "dan"} {
		require.Equal(t, []string{pc[who]}, eval[[]string](t, browsers[who], pageState+`.me.characters`), "%s's invite gives its own character only", who)
	}
	shot("cai", "joined")

	// A roll call: the skill typed in lower case is sent as the rules
	// spell it; "Advertir" is stopped with the rules' name suggested.
	skill, typed, wrong, want := "Sigilo", "sigilo", "Advertir", "Advertir/Notar"
	if tor {
		skill, typed, wrong, want = "Acertijos", "acertijos", "Acertij", "Acertijos"
	}
	call := `details[data-action="roll-call"]`
	waitFor(t, gmB, "the names are in", `!!document.querySelector('details[data-action="roll-call"] input[name="skill"][list]')`)
	submit(t, gmB, "a call for "+wrong, call, map[string]any{"characters:" + pc["cai"]: true, "skill": wrong, "note": "?"})
	waitFor(t, gmB, "the suggestion", fmt.Sprintf(`document.querySelector('details[data-action="roll-call"] .name-hint').textContent.includes(%q)`, want))
	var calls []map[string]any
	th.gm(t, "GET", "/api/campaigns/mordor/calls", "", &calls)
	require.Empty(t, calls, "a call for %q is not made", wrong)
	eval[bool](t, gmB, `(document.activeElement && document.activeElement.blur(), true)`) // the page re-renders what has no focus
	note := map[string]string{"en": "Listen at the door", "es": "Escucháis tras la puerta"}[g.lang]
	called := map[string]any{"characters:" + pc["cai"]: true, "skill": typed, "note": note}
	answer := []string{"cai"}
	if !tor { // The One Ring's heroes share no skill: the call is cai's
		called["characters:"+pc["dan"]] = true
		answer = append(answer, "dan")
	}
	submit(t, gmB, "a call for "+skill, call, called)
	waitDone(t, gmB, "the call")
	th.gm(t, "GET", "/api/campaigns/mordor/calls", "", &calls)
	require.Len(t, calls, 1)
	require.Equal(t, skill, calls[0]["skill"], "the call names the skill as the rules do")
	require.Equal(t, note, calls[0]["note"])
	waitFor(t, gmB, "the call is listed", `document.querySelectorAll('ul.calls li').length === 1`)
	shot("ana", "call")
	for _, who := range answer {
		b := browsers[who]
		if tor {
			// The One Ring: the call is answered from the sheet.
			submit(t, b, who+" answers the call", fmt.Sprintf(`article[data-character=%q] details[data-action="tor-roll"]`, pc[who]), map[string]any{"skill": skill, "tn": 14})
		} else {
			waitFor(t, b, who+" sees the call", `!!document.querySelector('.call button[data-action="call-roll"]')`)
			eval[bool](t, b, `(document.getElementById("notice").className = "", document.querySelector('.call button[data-action="call-roll"]').click(), true)`)
		}
		waitDone(t, b, who+" answers the call")
	}
	shot("cai", "call")
	clickOn(t, gmB, "close the call", `button[data-action="call-close"]`)

	if tor {
		// The GM rolls for thorin, witnessed by a player's device; Shadow.
		submit(t, gmB, "the GM rolls for thorin", `details[data-action="npc-tor-roll"]`, map[string]any{"character": "thorin", "skill": "persuadir", "tn": 14, "wait": 600})
		waitDone(t, gmB, "the GM rolls for thorin")
		waitFor(t, gmB, "the roll is witnessed", `document.querySelectorAll('ul.gm-rolls li').length === 1`)
		submit(t, gmB, "Shadow for bilbo", `details[data-action="shadow-gain"]`, map[string]any{"character": "bilbo", "amount": 1, "reason": "Mirkwood"})
		waitDone(t, gmB, "Shadow for bilbo")
	} else {
		// A contest, the GM's, witnessed by a player's device.
		submit(t, gmB, "the GM's contest", `details[data-action="contest"]`, map[string]any{"a": "orco", "skill_a": "pelea", "b": "lodin", "skill_b": "Sigilo", "wait": 600})
		waitDone(t, gmB, "the GM's contest")
		waitFor(t, gmB, "the contest is witnessed", `document.querySelectorAll('ul.gm-rolls li').length === 1`)
		// A combat: sides recorded, the players attack, the GM attacks
		// for the orc.
		submit(t, gmB, "the combat starts", `details[data-action="combat-start"]`, map[string]any{"participants:lodin": true, "participants:ruisenor": true, "participants:orco": true, "wait": 600})
		waitDone(t, gmB, "the combat starts")
		waitFor(t, gmB, "the tracker", `document.querySelectorAll('ol.order li').length === 3`)
		require.Equal(t, map[string]string{"lodin": "party", "ruisenor": "party", "orco": "enemies"}, campaign().Combat.Sides)
		require.Equal(t, "enemies", eval[string](t, gmB, `document.querySelector('ol.order li[data-character="orco"] [data-side]').dataset.side`))
		orcAttacked := false
		for step := 0; step < 8 && !orcAttacked; step++ {
			// The turn is the state's: wait for the state itself, not only
			// for the last event's card (the feed may show it first).
			waitFor(t, gmB, "the GM's state is up to date", fmt.Sprintf(`(%s.campaign || {}).last_seq >= %d`, pageState, th.count(t)))
			c := campaign()
			turn := eval[string](t, gmB, `JournalTable.currentTurn()`)
			t.Logf("step %d: round %d, %q's turn, orc %d/%d HP %s", step, c.Combat.Round, turn, c.Characters["orco"].HP, c.Characters["orco"].MaxHP, c.Characters["orco"].Status)
			if turn == "" {
				clickOn(t, gmB, "next round", `button[data-action="combat-round"]`)
				waitDone(t, gmB, "next round")
				continue
			}
			n := len(typedEvents(t, th, events.TypeAttackResolved))
			if turn == "orco" {
				waitFor(t, gmB, "the GM's attack form", `!!document.querySelector('details[data-action="npc-attack"] select[name="attacker"]') && document.querySelector('details[data-action="npc-attack"] select[name="attacker"]').value === "orco"`)
				target := eval[string](t, gmB, `document.querySelector('details[data-action="npc-attack"] select[name="target"]').value`)
				require.Equal(t, "party", c.Combat.Sides[target], "the orc's target defaults to an enemy of its side, not %s", target)
				submit(t, gmB, "the orc attacks", `details[data-action="npc-attack"]`, map[string]any{"wait": 600})
				waitDone(t, gmB, "the orc attacks")
				orcAttacked = true
			} else {
				who := map[string]string{"lodin": "cai", "ruisenor": "dan"}[turn]
				fields := map[string]any{"target": "orco"}
				if turn == "ruisenor" {
					fields["range"] = "corta"
				}
				submit(t, browsers[who], turn+" attacks", fmt.Sprintf(`article[data-character=%q] details[data-action="attack"]`, turn), fields)
				waitDone(t, browsers[who], turn+" attacks")
			}
			deadline := time.Now().Add(20 * time.Second)
			for len(typedEvents(t, th, events.TypeAttackResolved)) == n && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			require.Greater(t, len(typedEvents(t, th, events.TypeAttackResolved)), n, "%s's attack is resolved", turn)
			// The GM heals the orc after each of the party's blows, so that it
			// is up when its turn comes (one knocked out loses its turn).
			if orc := campaign().Characters["orco"]; turn != "orco" && orc.HP < orc.MaxHP {
				submit(t, gmB, "the GM heals the orc", `details[data-action="heal"]`, map[string]any{"character": "orco", "amount": orc.MaxHP - orc.HP})
				waitDone(t, gmB, "the GM heals the orc")
			}
		}
		require.True(t, orcAttacked, "the GM attacked for the orc")
		shot("ana", "combat")
		shot("cai", "combat")
		submit(t, gmB, "damage lodin", `details[data-action="damage"]`, map[string]any{"character": "lodin", "amount": 2})
		waitDone(t, gmB, "damage lodin")
		clickOn(t, gmB, "end the combat", `button[data-action="combat-end"]`)
		waitDone(t, gmB, "end the combat")
		submit(t, gmB, "heal lodin", `details[data-action="heal"]`, map[string]any{"character": "lodin", "amount": 1})
		waitDone(t, gmB, "heal lodin")
		submit(t, gmB, "XP for ruisenor", `details[data-action="xp"]`, map[string]any{"character": "ruisenor", "amount": 3})
		waitDone(t, gmB, "XP for ruisenor")
		waitFor(t, danB, "dan sees the XP", `[...document.querySelectorAll('article[data-character="ruisenor"] .facts dd')].some(d => d.textContent === "3")`)
		// Medicina 2 → 3 costs 3 XP; the skill typed in lower case.
		submit(t, gmB, "raise ruisenor's Medicina", `details[data-action="raise"]`, map[string]any{"character": "ruisenor", "skill": "medicina"})
		waitDone(t, gmB, "raise ruisenor's Medicina")
		raised, _ := eventsOfType[events.SkillRaised](t, th, events.TypeSkillRaised)
		require.Len(t, raised, 1)
		require.Equal(t, "Medicina", raised[0].Skill)
	}

	// Free rolls, where the journal has them (the free-roll command).
	if hasCommand(t, th, "free-roll") && exists(t, gmB, `form[data-action="free-roll"]`) {
		submit(t, gmB, "a free roll", `[data-panel="rolls"]`, map[string]any{"dice": "2d10+3", "note": "wind"})
		waitDone(t, gmB, "a free roll")
	}

	// Rolls timed from the tap (the roller's clock) to the roll on the
	// GM's screen (the GM's page notes when each sequence first shows:
	// its card or line, or its state past it; the same machine's clock).
	eval[bool](t, gmB, `(() => {
		const at = (window.__seenAt = []);
		const st = () => `+pageState+`;
		window.__seenTimer = setInterval(() => {
			let top = ((st().campaign || {}).last_seq) || 0;
			for (const n of document.querySelectorAll("[data-seq]")) top = Math.max(top, Number(n.dataset.seq) || 0);
			if (!at.length || at[at.length - 1][0] < top) at.push([top, Date.now()]);
		}, 5);
		window.__shownAt = (seq) => { const x = at.find(([s]) => s >= seq); return x ? x[1] : 0; };
		return true;
	})()`)
	for i := 0; i < 6; i++ {
		who := []string{"cai", "dan"}[i%2]
		tap := eval[float64](t, browsers[who], `Date.now()`)
		playerRoll(t, browsers[who], tor, pc[who])
		seq := th.count(t)
		waitFor(t, gmB, "the GM sees the roll", seen(seq))
		shown := eval[float64](t, gmB, fmt.Sprintf(`__shownAt(%d)`, seq))
		require.Positive(t, shown)
		fig.rollToCard = append(fig.rollToCard, time.Duration((shown-tap)*float64(time.Millisecond)))
	}
	// The 5 ms watch is stopped with the timed rolls: left running, it
	// kept the GM's page busy to the game's end.
	eval[bool](t, gmB, `(clearInterval(window.__seenTimer), true)`)
	shot("dan", "rolls")

	// A void of one of cai's rolls, with cai's consent.
	var caiRoll string
	rolls, rollEvs := eventsOfType[events.RollMade](t, th, events.TypeRollMade)
	for i, r := range rolls {
		if r.Character == pc["cai"] && r.Witness == "" {
			caiRoll = rollEvs[i].ID
		}
	}
	require.NotEmpty(t, caiRoll)
	reason := map[string]string{"en": "the wrong skill", "es": "la habilidad equivocada"}[g.lang]
	if exists(t, gmB, fmt.Sprintf(`li.ev[data-event-id=%q] button[data-action="void-card"]`, caiRoll)) {
		clickOn(t, gmB, "Void on the card", fmt.Sprintf(`li.ev[data-event-id=%q] button[data-action="void-card"]`, caiRoll))
		submit(t, gmB, "the void's reason", fmt.Sprintf(`li.ev[data-event-id=%q] .gm-void`, caiRoll), map[string]any{"reason": reason})
	} else {
		submit(t, gmB, "propose the void", `details[data-action="void-propose"]`, map[string]any{"event": caiRoll, "reason": reason})
	}
	waitDone(t, gmB, "propose the void")
	clickOn(t, caiB, "cai consents", fmt.Sprintf(`section.consent[data-event=%q] button[data-action="void-consent"]`, caiRoll))
	waitDone(t, caiB, "cai consents")
	waitFor(t, gmB, "the consent", fmt.Sprintf(`(() => { const li = document.querySelector('ul.voids li[data-event=%q]'); return !!li && li.dataset.consent === "yes" })()`, caiRoll))
	clickOn(t, gmB, "the void", fmt.Sprintf(`ul.voids li[data-event=%q] button[data-action="void-proposed"]`, caiRoll))
	waitDone(t, gmB, "the void")
	voids, _ := eventsOfType[events.EventVoided](t, th, events.TypeEventVoided)
	require.Len(t, voids, 1)
	require.Equal(t, "cai", voids[0].ConsentUser)
	shot("ana", "void")

	// The session's end, co-signed by every device.
	clickOn(t, gmB, "end the session", `button[data-action="session-end"]`)
	waitDone(t, gmB, "end the session")
	waitFor(t, gmB, "every device co-signed", `(() => { const p = document.querySelector('p.cosigns'); return !!p && p.dataset.cosigned === "ana,cai,dan" })()`)
	rep := verifyStore(t, th)
	require.Equal(t, []string{"ana", "cai", "dan"}, cosigners(rep, session))

	// Verify all and export, where the page has them.
	if exists(t, gmB, `#verify-all`) {
		clickOn(t, gmB, "Verify all", `#verify-all`)
		waitFor(t, gmB, "Verify all's answer", `!!document.getElementById("verify-all-result") && /\d/.test(document.getElementById("verify-all-result").textContent)`)
	}
	if exists(t, gmB, `#export:not([hidden])`) {
		clickOn(t, gmB, "export", `#export`)
		time.Sleep(300 * time.Millisecond)
		require.NotContains(t, eval[string](t, gmB, `document.getElementById("notice").className`), "error", "export: %s", eval[string](t, gmB, `document.getElementById("notice").textContent`))
	}
	for who, b := range browsers {
		shot(who, "end")
		checkA11y(t, b.ctx) // axe-core, tap targets, no horizontal scroll
	}
	// On the phone nothing is wider than the screen.
	if w := eval[int](t, caiB, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("cai's phone: the page is %d px wide on a 360 px screen", w)
	}
	for who, b := range browsers {
		for _, line := range b.logs() {
			if strings.Contains(line, "Uncaught") {
				t.Errorf("%s's console: %s", who, line)
			}
		}
	}
	return fig
}

// pageState is the table's state on a page (JournalTable.state, an object
// or a function returning it).
const pageState = `(typeof JournalTable.state === "function" ? JournalTable.state() : JournalTable.state)`

// playerRoll rolls from the player's sheet (Sigilo, or The One Ring's
// Acertijos against TN 14) and waits for its answer.
func playerRoll(t *testing.T, b *browser, tor bool, ch string) {
	t.Helper()
	if tor {
		skill := map[string]string{"bilbo": "Acertijos", "thorin": "Atletismo"}[ch]
		submit(t, b, ch+" rolls", fmt.Sprintf(`article[data-character=%q] details[data-action="tor-roll"]`, ch), map[string]any{"skill": skill, "tn": 14})
	} else {
		submit(t, b, ch+" rolls", fmt.Sprintf(`article[data-character=%q] details[data-action="roll"]`, ch), map[string]any{"skill": "Pelea"})
	}
	waitDone(t, b, ch+"'s roll")
	// The notice says what happened at the table: not the device's request
	// with its id, nonce and commitment.
	notice := eval[string](t, b, `document.getElementById("notice").textContent`)
	for _, tech := range []string{"nonce", "commitment", "compromiso"} {
		require.NotContains(t, notice, tech, "%s's roll: the notice shows the protocol", ch)
	}
}

// exists reports whether sel is on b's page now.
func exists(t *testing.T, b *browser, sel string) bool {
	t.Helper()
	return eval[bool](t, b, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
}

// hasCommand reports whether the journal's catalogue has command name.
func hasCommand(t *testing.T, th *tableHarness, name string) bool {
	t.Helper()
	r := th.do(http.MethodGet, "/api/commands", "", bearer(anaToken)...)
	return r.status == http.StatusOK && strings.Contains(string(r.body), `"`+name+`"`)
}

// typedEvents returns the campaign's events of type typ.
func typedEvents(t *testing.T, th *tableHarness, typ string) []events.Event {
	t.Helper()
	var out []events.Event
	for _, e := range th.events(t, "mordor") {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}
