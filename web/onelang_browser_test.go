package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/web"
)

// pageNames are what a page shows the same in every language, besides
// ruleNames: flag codes in brackets ([repeated], replay's codes), ids
// and hex digests, the dice's notation, the journal's product names.
var pageNames = regexp.MustCompile(`\(journal [^)]*\)|\[[a-z0-9-]+\]|\b[0-9a-f]{8,}\b|\b[0-9a-f]{8}-[0-9a-f-]{27,}\b|\b\d+d\d+\b|\bjournal[a-z-]*\b|https?://\S+`)

// checkOneLanguage fails t when the page open in ctx (a chromedp tab) has
// a word of the other language than lang ("es" or "en") in what a person
// sees or hears: its visible text (document.body.innerText), its title,
// and its title, aria-label and placeholder attributes. Rule names
// (skills, attributes, systems: capitalised or quoted), flag codes (and
// whatever the page marks lang="zxx"), ids
// and commands are excepted. The words are the catalogue's label words
// (i18n.Words) and the refusals' prose words (errorWords).
func checkOneLanguage(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const out = [document.title, document.body.innerText];
		for (const e of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
			if (e.closest("[hidden]")) continue;
			for (const a of ["title", "aria-label", "placeholder"]) if (e.getAttribute(a)) out.push(e.getAttribute(a));
		}
		// What is marked as no language (lang="zxx": flag codes such as
		// repeated, as journal replay prints them) is a name, not a word.
		let text = out.join("\n");
		for (const e of document.querySelectorAll('[lang="zxx"]')) if (e.innerText) text = text.split(e.innerText).join(" ");
		return text;
	})()`))
	require.NoError(t, err)
	l := i18n.Lang(lang)
	other := i18n.EN
	if l.Or() == i18n.EN {
		other = i18n.ES
	}
	words := append(i18n.Words(other), errorWords[other]...)
	url, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
	for _, line := range strings.Split(text, "\n") {
		bare := ruleNames.ReplaceAllString(pageNames.ReplaceAllString(line, " "), " ")
		if w, found := i18n.HasWord(bare, words); found {
			t.Errorf("%s in %s shows the %s word %q: %q", url, lang, other, w, strings.TrimSpace(line))
		}
	}
}

// TestPagesInOneLanguage: every page (the dashboard, the table as the GM
// and as a player signed in by invite, a roll's permalink, the offline
// verifier) of a small played campaign speaks one language, in Spanish
// and in English (the browser's Accept-Language).
func TestPagesInOneLanguage(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	for _, lang := range []string{"es", "en"} {
		t.Run(lang, func(t *testing.T) {
			th := newTableHarness(t)
			th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`, nil)
			var roll result
			th.gm(t, "POST", "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"Sigilo","vs":"media"}`, &roll)
			th.gm(t, "POST", "/api/campaigns/mordor/commands/contest", `{"a":"lodin","skill_a":"Sigilo","b":"orco","skill_b":"Pelea"}`, nil)
			th.gm(t, "POST", "/api/campaigns/mordor/commands/damage", `{"character":"orco","amount":3}`, nil)
			th.gm(t, "POST", "/api/campaigns/mordor/commands/session-end", `{}`, nil)
			id := roll.Recorded[len(roll.Recorded)-1].Event.ID
			capa := th.permalinkOf(t, anaToken, "mordor", id, http.StatusOK)

			// Spanish is the Chromium of the feed's Spanish tests
			// ("es-ES,es"): one process fewer to start.
			b := newBrowserLang(t, map[string]string{"es": "es-ES,es", "en": "en"}[lang])
			b.do(t, "the GM's token", chromedp.Navigate(th.url+"/healthz"))
			eval[bool](t, b, `(localStorage.setItem("journal.token", "`+anaToken+`"), true)`)
			b.do(t, "the dashboard", chromedp.Navigate(th.url+"/?campaign=mordor"), chromedp.WaitVisible(`#transcript li`), chromedp.WaitVisible(`li.contest`))
			require.Equal(t, lang, eval[string](t, b, `document.documentElement.lang`))
			checkOneLanguage(t, b.ctx, lang)

			for _, s := range []invite.Spec{{User: "ana", Role: invite.RoleGM}, {User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}}} {
				p := b.incognito(t)
				p.do(t, s.User+" opens the invite", chromedp.Navigate(th.url+"/table#invite="+th.invite(t, s)), chromedp.WaitVisible(`body[data-ready="1"]`))
				waitFor(t, p, s.User+" is signed in", fmt.Sprintf(`document.getElementById("who").textContent.startsWith(%q)`, s.User))
				checkOneLanguage(t, p.ctx, lang)
				// A refusal, as the page shows it: the journal's words, in
				// the page's language (the page sends its Accept-Language).
				refusal := eval[string](t, p, `JournalTable.command("roll", {character: "lodin", skill: "volar"}).then(() => "", (e) => e.message)`)
				require.NotEmpty(t, refusal)
				oneLanguage(t, "a refusal on /table", refusal, i18n.Lang(lang))
			}

			v := b.incognito(t)
			v.do(t, "the permalink", chromedp.Navigate(th.url+"/r/mordor/"+id+"?"+web.PermalinkParam+"="+capa),
				chromedp.WaitVisible(`.verdict[data-status]`))
			checkOneLanguage(t, v.ctx, lang)

			page, err := web.VerifierPage(i18n.Lang(lang))
			require.NoError(t, err)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = w.Write(page)
			}))
			defer srv.Close()
			o := b.incognito(t)
			o.do(t, "the offline verifier", chromedp.Navigate(srv.URL+"/verifier.html"))
			checkOneLanguage(t, o.ctx, lang)
		})
	}
}
