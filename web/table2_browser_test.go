package web_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
)

// tryJS runs an async JavaScript expression in b and returns "done" or
// the message it was refused with.
func tryJS(t *testing.T, b *browser, js string) string {
	t.Helper()
	return eval[string](t, b, `(async () => { try { await `+js+`; return "done" } catch (e) { return e.message } })()`)
}

// verifyStore runs replay.Verify over th's store, reporting the stored
// bytes of every session-ended event as the CLI does, and requires no
// mismatch.
func verifyStore(t *testing.T, th *tableHarness) replay.Report {
	t.Helper()
	src := replay.StoreSource(th.store.Read, events.Query{}) // with each event's stored bytes
	rep, err := replay.Verify(context.Background(), src, replay.Options{})
	require.NoError(t, err)
	if !rep.OK() {
		var buf strings.Builder
		_ = rep.WriteText(&buf)
		t.Fatalf("replay of the table's sessions:\n%s", buf.String())
	}
	return rep
}

// cosigners are the users whose co-signatures of session's end the
// audit verified.
func cosigners(rep replay.Report, session string) []string {
	var out []string
	for _, s := range rep.Sessions {
		if s.Session == session {
			for _, c := range s.Cosigned {
				out = append(out, c.User)
			}
		}
	}
	slices.Sort(out)
	return out
}

// eventsOf returns the data of campaign's events of type typ, decoded.
func eventsOfType[T any](t *testing.T, th *tableHarness, typ string) ([]T, []events.Event) {
	t.Helper()
	var out []T
	var evs []events.Event
	for _, e := range th.events(t, "mordor") {
		if e.Type == typ {
			var d T
			require.NoError(t, e.DecodeData(&d))
			out = append(out, d)
			evs = append(evs, e)
		}
	}
	return out, evs
}

// TestTableV2PathsInBrowsers plays the journal-dice-v2 paths at the table
// in real headless Chromium, the GM (ana) and two players (cai plays
// lodin, dan plays ruisenor) each in a browser context of its own: the
// GM rolls for the orc and runs a contest, each witnessed by a player's
// device by itself, and, with no player online, resolves an NPC roll
// unwitnessed after its wait; cai's device asks for a contest between
// lodin and ruisenor; dan's starts a
// combat (initiative for everyone); after it cai heals lodin and the GM
// starts the next combat (witnessed by a player); the GM
// proposes to void one of cai's rolls, cai's device consents, and the
// void carries the signed consent; the session's end is co-signed by
// every device by itself. The audit verifies every co-signature and
// finds no mismatch. Attacks, each with the journal's message and nothing
// recorded: a contest for a side the player does not play, a consent to
// the void of another's roll, a co-signature for another's character.
func TestTableV2PathsInBrowsers(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	gmB := newBrowser(t)
	th := newTableHarnessOn(t, jetBackend(false))
	browsers := map[string]*browser{"ana": gmB, "cai": gmB.incognito(t), "dan": gmB.incognito(t)}
	seat(t, th, browsers, map[string]invite.Spec{
		"ana": {User: "ana", Role: invite.RoleGM, By: "ana"},
		"cai": {User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}},
		"dan": {User: "dan", Role: invite.RolePlayer, Characters: []string{"ruisenor"}},
	})
	caiB, danB := browsers["cai"], browsers["dan"]
	campaign := func() *projections.Campaign {
		var c projections.Campaign
		th.gm(t, "GET", "/api/campaigns/mordor", "", &c)
		return &c
	}
	clickOn(t, gmB, "start a v2 session", `button[data-action="session-start-v2"]`)
	waitDone(t, gmB, "start a v2 session")
	deadline := time.Now().Add(20 * time.Second)
	for len(campaign().OpenSession().Contributions) < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	require.Len(t, campaign().OpenSession().Contributions, 2, "both players' devices contributed")
	session := campaign().OpenSession().ID

	// The GM's rolls: an NPC roll and a contest, each witnessed by a
	// player's device by itself; then, with no player online, an NPC roll
	// resolved unwitnessed once its wait has passed.
	submit(t, gmB, "the GM rolls for the orc", `details[data-action="npc-roll"]`, map[string]any{"character": "orco", "skill": "Pelea", "wait": 600})
	waitDone(t, gmB, "the GM rolls for the orc")
	// Both devices contributed a witness chain: the roll combines both
	// values (docs/design.md §3.3), made when the second is in.
	both := `(li => li.dataset.witness === "cai, dan" || li.dataset.witness === "dan, cai")`
	waitFor(t, gmB, "the GM sees who witnessed", `[...document.querySelectorAll('ul.gm-rolls li')].some(`+both+`)`)
	orcRolls, _ := eventsOfType[events.RollMade](t, th, events.TypeRollMade)
	require.Len(t, orcRolls, 1)
	require.Equal(t, "chain", orcRolls[0].Witness, "the players' devices' witness chains gave r")
	require.Len(t, orcRolls[0].Witnesses, 2, "both devices' values")
	require.Equal(t, 1, orcRolls[0].WitnessIndex)
	for _, who := range []string{"cai", "dan"} {
		waitFor(t, browsers[who], who+"'s page says its witness is in", `!!document.querySelector('.witness li[data-witness="mine"]')`)
	}
	submit(t, gmB, "the GM's contest", `details[data-action="contest"]`, map[string]any{"a": "orco", "skill_a": "Pelea", "b": "lodin", "skill_b": "Pelea", "wait": 600})
	waitDone(t, gmB, "the GM's contest")
	waitFor(t, gmB, "the contest is witnessed", `document.querySelectorAll('ul.gm-rolls li').length === 2 && [...document.querySelectorAll('ul.gm-rolls li')].every(`+both+`)`)
	gmB.shot(t, "table2-gm-witnessed-phone.png")
	browsers["cai"].shot(t, "table2-player-witness-phone.png")
	for _, who := range []string{"cai", "dan"} {
		browsers[who].do(t, who+" leaves", chromedp.Navigate("about:blank"))
	}
	submit(t, gmB, "the GM rolls with nobody online", `details[data-action="npc-roll"]`, map[string]any{"character": "orco", "skill": "Pelea", "wait": 1})
	waitDone(t, gmB, "the GM rolls with nobody online")
	clickOn(t, gmB, "resolve unwitnessed", `li[data-witness="waiting"] button[data-action="roll-resolve"]`)
	waitDone(t, gmB, "resolve unwitnessed")
	waitFor(t, gmB, "the GM sees it unwitnessed", `[...document.querySelectorAll('ul.gm-rolls li')].some(li => li.dataset.witness === "none")`)
	orcRolls, _ = eventsOfType[events.RollMade](t, th, events.TypeRollMade)
	require.Equal(t, "none", orcRolls[len(orcRolls)-1].Witness, "resolved unwitnessed")
	for _, who := range []string{"cai", "dan"} {
		browsers[who].do(t, who+" comes back", chromedp.Navigate(th.url+"/table"), chromedp.WaitVisible(`body[data-ready="1"]`))
	}

	// A contest for sides the player does not play: refused with the
	// journal's message, shown on the page, and nothing recorded.
	n := th.count(t)
	for _, tc := range []struct{ what, js, want string }{
		{"cai asks for ruisenor against the orc, as lodin",
			`JournalTable.v2Action("contest", {character: "lodin", a: "ruisenor", skill_a: "Pelea", b: "orco", skill_b: "Pelea"}).then(a => JournalTable.requestReveal("lodin", a))`,
			"the signed contest is between ruisenor and orco"},
		{"cai asks for ruisenor against the orc, as ruisenor",
			`JournalTable.v2Action("contest", {character: "lodin", a: "ruisenor", skill_a: "Pelea", b: "orco", skill_b: "Pelea"}).then(a => JournalTable.requestReveal("ruisenor", a))`,
			"only for its own characters"},
	} {
		eval[bool](t, caiB, `(document.getElementById("notice").className = "", JournalTable.perform("contest", () => `+tc.js+`), true)`)
		waitFor(t, caiB, tc.what+": refused", `document.getElementById("notice").className.includes("error")`)
		require.Contains(t, eval[string](t, caiB, `document.getElementById("notice").textContent`), tc.want, tc.what)
		require.Equal(t, n, th.count(t), "%s: recorded something", tc.what)
	}

	// cai's device asks for a contest between lodin and ruisenor.
	submit(t, caiB, "cai's contest", `article[data-character="lodin"] details[data-action="contest"]`,
		map[string]any{"skill": "Sigilo", "opponent": "ruisenor", "opponent_skill": "Advertir/Notar"})
	waitDone(t, caiB, "cai's contest")
	contests, _ := eventsOfType[events.ContestResolved](t, th, events.TypeContestResolved)
	require.Len(t, contests, 2, "the GM's contest and cai's are recorded")
	caiB.shot(t, "table2-player-contest-phone.png")

	// dan's device starts a combat: initiative for every participant.
	submit(t, danB, "dan starts a combat", `article[data-character="ruisenor"] details[data-action="combat-start"]`,
		map[string]any{"participants:lodin": true, "participants:ruisenor": true, "participants:orco": true})
	waitDone(t, danB, "dan starts a combat")
	waitFor(t, gmB, "the GM's tracker", `document.querySelectorAll('ol.order li').length === 3`)
	started, _ := eventsOfType[events.CombatStarted](t, th, events.TypeCombatStarted)
	require.Len(t, started, 1)
	require.ElementsMatch(t, []string{"lodin", "ruisenor", "orco"}, started[0].Order)
	gmB.shot(t, "table2-gm-initiative-phone.png")

	// The GM hurts lodin and ends the combat; cai heals lodin after it.
	submit(t, gmB, "damage lodin", `details[data-action="damage"]`, map[string]any{"character": "lodin", "amount": 4})
	waitDone(t, gmB, "damage lodin")
	clickOn(t, gmB, "end the combat", `button[data-action="combat-end"]`)
	waitDone(t, gmB, "end the combat")
	clickOn(t, caiB, "heal after the combat", `article[data-character="lodin"] button[data-action="heal-after-combat"]`)
	waitDone(t, caiB, "heal after the combat")
	heals, _ := eventsOfType[events.Healed](t, th, events.TypeHealed)
	require.Len(t, heals, 1)
	require.Equal(t, projections.HealAfterCombat, heals[0].Reason)
	waitFor(t, caiB, "the button goes", `!document.querySelector('button[data-action="heal-after-combat"]')`)

	// The GM starts the next combat: its request, witnessed by a player.
	submit(t, gmB, "the GM starts a combat", `details[data-action="combat-start"]`, map[string]any{"participants:lodin": true, "participants:orco": true, "wait": 600})
	waitDone(t, gmB, "the GM starts a combat")
	waitFor(t, gmB, "the GM's tracker", `document.querySelectorAll('ol.order li').length === 2`)
	started, startEvs := eventsOfType[events.CombatStarted](t, th, events.TypeCombatStarted)
	require.Len(t, started, 2)
	require.Contains(t, []string{"cai", "dan"}, startEvs[1].Actor, "the GM's combat start is drawn at a player's witness")

	// The GM proposes to void lodin's contest roll; cai's device consents.
	var caiRoll string
	rollsMade, rollEvs := eventsOfType[events.RollMade](t, th, events.TypeRollMade)
	for i, r := range rollsMade {
		if r.Character == "lodin" && r.Witness == "" && caiRoll == "" { // revealed by cai's device
			caiRoll = rollEvs[i].ID
		}
	}
	require.NotEmpty(t, caiRoll)
	submit(t, gmB, "propose the void", `details[data-action="void-propose"]`, map[string]any{"event": caiRoll, "reason": "the wrong skill"})
	waitDone(t, gmB, "propose the void")
	waitFor(t, gmB, "the proposal waits", fmt.Sprintf(`(() => { const li = document.querySelector('ul.voids li[data-event=%q]'); return !!li && li.dataset.consent === "no" })()`, caiRoll))
	waitFor(t, caiB, "cai is asked", fmt.Sprintf(`!!document.querySelector('section.consent[data-event=%q] button[data-action="void-consent"]')`, caiRoll))
	require.Zero(t, eval[int](t, danB, `document.querySelectorAll('section.consent').length`), "dan is not asked for cai's roll")
	caiB.shot(t, "table2-player-consent-phone.png")

	// dan may not consent to the void of cai's roll.
	n = th.count(t)
	msg := tryJS(t, danB, `JournalTable.api("GET", JournalTable.campaignPath("/void-proposals")).then(ps => JournalTable.consentVoid(ps[0]))`)
	require.Contains(t, msg, "only for its own characters") // the roll is of lodin, cai's: the permissions refuse first (void-consent acts for the roll's character)
	require.Equal(t, n, th.count(t))
	var props []struct {
		ConsentSigned string `json:"consent_signed"`
	}
	th.gm(t, "GET", "/api/campaigns/mordor/void-proposals", "", &props)
	require.Len(t, props, 1)
	require.Empty(t, props[0].ConsentSigned, "dan's attempt left the proposal as it was")

	clickOn(t, caiB, "cai consents", fmt.Sprintf(`section.consent[data-event=%q] button[data-action="void-consent"]`, caiRoll))
	waitDone(t, caiB, "cai consents")
	waitFor(t, gmB, "the GM sees the consent", fmt.Sprintf(`(() => { const li = document.querySelector('ul.voids li[data-event=%q]'); return !!li && li.dataset.consent === "yes" })()`, caiRoll))
	gmB.shot(t, "table2-gm-void-consent-phone.png")
	clickOn(t, gmB, "the void", fmt.Sprintf(`ul.voids li[data-event=%q] button[data-action="void-proposed"]`, caiRoll))
	waitDone(t, gmB, "the void")
	voids, _ := eventsOfType[events.EventVoided](t, th, events.TypeEventVoided)
	require.Len(t, voids, 1)
	require.Equal(t, caiRoll, voids[0].EventID)
	require.Equal(t, "cai", voids[0].ConsentUser, "the void carries cai's consent")
	waitFor(t, gmB, "the proposal ends with the void", `!document.querySelector('ul.voids li')`)

	// The end of the session, co-signed by every device by itself.
	require.Contains(t, eval[string](t, caiB, `document.querySelector('[data-cosign]').textContent`), "co-signs the end")
	clickOn(t, gmB, "end the session", `button[data-action="session-end"]`)
	waitDone(t, gmB, "end the session")
	waitFor(t, gmB, "every device co-signed", `(() => { const p = document.querySelector('p.cosigns'); return !!p && p.dataset.cosigned === "ana,cai,dan" })()`)
	for _, who := range []string{"cai", "dan"} {
		waitFor(t, browsers[who], who+"'s page says so", `(() => { const p = document.querySelector('[data-cosign]'); return !!p && p.dataset.cosign === "done" })()`)
	}
	caiB.shot(t, "table2-player-cosigned-phone.png")
	gmB.shot(t, "table2-gm-cosigned-phone.png")
	cos, _ := eventsOfType[events.SessionCosigned](t, th, events.TypeSessionCosigned)
	require.Len(t, cos, 3)

	// dan may not co-sign for lodin (cai's), nor again.
	n = th.count(t)
	for _, tc := range []struct{ what, js, want string }{
		{"dan co-signs as lodin", `JournalTable.cosign(JournalTable.lastSession(), "lodin")`, "only for its own characters"},
		{"dan co-signs again", `JournalTable.cosign(JournalTable.lastSession(), "ruisenor")`, "co-signs once"},
	} {
		require.Contains(t, tryJS(t, danB, tc.js), tc.want, tc.what)
		require.Equal(t, n, th.count(t), "%s: recorded something", tc.what)
	}

	rep := verifyStore(t, th)
	require.Equal(t, []string{"ana", "cai", "dan"}, cosigners(rep, session), "the audit verifies every co-signature")
	for who, b := range browsers {
		for _, line := range b.logs() {
			if strings.Contains(line, "Uncaught") {
				t.Errorf("%s's console: %s", who, line)
			}
		}
	}
}

// TestTableTORV2InBrowsers plays The One Ring in a journal-dice-v2 session
// at the table: thorin's player rolls "tor-roll" against TN 30 until he
// fails, then spends Hope on that roll with a signed "tor-hope" request
// naming the roll's request; the session's end is co-signed by every
// device; the audit finds no mismatch. Bilbo's player may not spend Hope
// on thorin's roll.
func TestTableTORV2InBrowsers(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	gmB := newBrowser(t)
	th := newTableHarnessFor(t, jetBackend(false), true)
	browsers := map[string]*browser{"ana": gmB, "cai": gmB.incognito(t), "dan": gmB.incognito(t)}
	seat(t, th, browsers, map[string]invite.Spec{
		"ana": {User: "ana", Role: invite.RoleGM, By: "ana"},
		"cai": {User: "cai", Role: invite.RolePlayer, Characters: []string{"bilbo"}},
		"dan": {User: "dan", Role: invite.RolePlayer, Characters: []string{"thorin"}},
	})
	gmB, caiB, danB := browsers["ana"], browsers["cai"], browsers["dan"]
	clickOn(t, gmB, "start a v2 session", `button[data-action="session-start-v2"]`)
	waitDone(t, gmB, "start a v2 session")
	var c projections.Campaign
	th.gm(t, "GET", "/api/campaigns/mordor", "", &c)
	session := c.OpenSession().ID
	sheet := func(id string) projections.TORSheet {
		var c projections.Campaign
		th.gm(t, "GET", "/api/campaigns/mordor", "", &c)
		return *c.TOR.Characters[id]
	}
	// Impresionar (rank 3, a Strength skill, not favoured: Hope adds
	// thorin's basic Strength, 7) against TN 18, until a failure Hope can
	// turn (a total of 11 to 17); Hope is offered after no other roll.
	roll := `article[data-character="thorin"] details[data-action="tor-roll"]`
	hopeButton := `!!document.querySelector('article[data-character="thorin"] button[data-action="hope-spend"]')`
	for i := 0; ; i++ {
		require.Less(t, i, 40, "forty rolls without a failure Hope turns")
		submit(t, danB, "thorin rolls Impresionar against TN 18", roll, map[string]any{"skill": "Impresionar", "tn": 18})
		waitDone(t, danB, "thorin's roll")
		r := sheet("thorin").LastRoll.Result
		waitFor(t, danB, "the sheet shows the roll", fmt.Sprintf(`(document.querySelector('article[data-character="thorin"] .last-roll') || {textContent: ""}).textContent.includes("= %d vs")`, r.Total))
		if r.Outcome == "failure" && r.Total+7 >= 18 {
			break
		}
		require.False(t, eval[bool](t, danB, hopeButton), "no Hope offered after %s with %d vs 18", r.Outcome, r.Total)
	}
	last := sheet("thorin").LastRoll
	require.NotEmpty(t, last.Request, "a v2 roll")

	// Bilbo's player may not spend Hope on thorin's roll.
	n := th.count(t)
	msg := tryJS(t, caiB, `JournalTable.requestOnly("thorin", {command: "tor-hope", character: "thorin", roll_request: `+fmt.Sprintf("%q", last.Request)+`})`)
	require.Contains(t, msg, "only for its own characters")
	require.Equal(t, n, th.count(t))

	hope := sheet("thorin").Hope
	clickOn(t, danB, "spend Hope", `article[data-character="thorin"] button[data-action="hope-spend"]`)
	waitDone(t, danB, "spend Hope")
	require.Equal(t, hope-1, sheet("thorin").Hope)
	require.True(t, sheet("thorin").LastRoll.HopeSpent)
	waitFor(t, danB, "the line shows Hope's +7", `document.querySelector('article[data-character="thorin"] .last-roll').textContent.includes("Hope +7")`)
	spent, _ := eventsOfType[events.TORHopeSpent](t, th, events.TypeTORHopeSpent)
	require.Len(t, spent, 1)
	require.Equal(t, last.Request, spent[0].RollRequest, "Hope names the roll's request")
	danB.shot(t, "table2-tor-v2-hope-phone.png")

	clickOn(t, gmB, "end the session", `button[data-action="session-end"]`)
	waitDone(t, gmB, "end the session")
	waitFor(t, gmB, "every device co-signed", `(() => { const p = document.querySelector('p.cosigns'); return !!p && p.dataset.cosigned === "ana,cai,dan" })()`)
	rep := verifyStore(t, th)
	require.Equal(t, []string{"ana", "cai", "dan"}, cosigners(rep, session))
}
