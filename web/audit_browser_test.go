package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/web"
)

// auditNow is the time the corpus's verdicts are given at (web's corpusNow).
var auditNow = time.Date(2026, 12, 8, 0, 0, 0, 0, time.UTC)

// flagCodes are the codes of replay's flags: every constant of type
// FlagCode in the replay package's sources.
func flagCodes(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join("..", "replay", "*.go"))
	require.NoError(t, err)
	var codes []string
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "FlagCode" {
					continue
				}
				for _, val := range v.Values {
					if lit, ok := val.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						c, err := strconv.Unquote(lit.Value)
						require.NoError(t, err)
						codes = append(codes, c)
					}
				}
			}
		}
	}
	slices.Sort(codes)
	require.GreaterOrEqual(t, len(codes), 19, "replay's flag codes")
	return codes
}

// replayAudit is `journal replay --file`'s verdict on an export, as of
// auditNow: the verdict and each flag as "code: words in l", sorted.
type replayAudit struct {
	file    string
	text    string
	verdict string
	flags   []string
}

func (a replayAudit) codes() []string {
	var out []string
	for _, f := range a.flags {
		c, _, _ := strings.Cut(f, ": ")
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// replayed caches replayOn's answers, by language and file.
var replayed = map[string]replayAudit{}

func replayOn(t *testing.T, path string, l i18n.Lang) replayAudit {
	t.Helper()
	if a, ok := replayed[string(l)+" "+path]; ok {
		return a
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	rep, err := replay.Verify(context.Background(), replay.JSONLBytes(b), replay.Options{Now: auditNow})
	require.NoError(t, err)
	a := replayAudit{file: path, text: string(b), verdict: string(rep.Verdict())}
	add := func(fs []replay.Flag) {
		for _, f := range fs {
			a.flags = append(a.flags, string(f.Code)+": "+f.WhatIn(l))
		}
	}
	for _, s := range rep.Sessions {
		add(s.Flags)
	}
	for _, c := range rep.Campaigns {
		add(c.Flags)
	}
	slices.Sort(a.flags)
	replayed[string(l)+" "+path] = a
	return a
}

// auditFiles picks corpus files that cover every flag code (the smallest
// two of each), and one file of each other verdict (ok, mismatch, foreign).
func auditFiles(t *testing.T, codes []string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*.jsonl"))
	require.NoError(t, err)
	size := func(p string) int64 {
		st, err := os.Stat(p)
		require.NoError(t, err)
		return st.Size()
	}
	slices.SortFunc(paths, func(a, b string) int { return int(size(a) - size(b)) })
	var picked []string
	byCode := map[string]int{}
	verdicts := map[string]int{}
	for _, p := range paths {
		a := replayOn(t, p, i18n.EN)
		want := verdicts[a.verdict] < 1 && a.verdict != string(replay.VerdictFlagged)
		for _, c := range a.codes() {
			want = want || byCode[c] < 2
		}
		if !want {
			continue
		}
		picked = append(picked, p)
		verdicts[a.verdict]++
		for _, c := range a.codes() {
			byCode[c]++
		}
	}
	for _, c := range codes {
		require.NotZero(t, byCode[c], "no corpus file has the flag %s: add a generator case (web/corpus_test.go)", c)
	}
	for _, v := range []replay.Verdict{replay.VerdictOK, replay.VerdictFlagged, replay.VerdictMismatch, replay.VerdictForeign} {
		require.NotZero(t, verdicts[string(v)], "no corpus file says %s", v)
	}
	return picked
}

// pageAudit is what a page shows of its audit: the verdict (data-verdict)
// and each flag listed as "code: words", sorted, with the flags' names.
type pageAudit struct {
	Verdict string   `json:"verdict"`
	Flags   []string `json:"flags"`
	Names   []string `json:"names"`
}

// readPanel is the JavaScript that reads a panel's flags (li[data-flag]
// in root) into a pageAudit.
const readPanel = `(root, verdict) => {
  const items = [...root.querySelectorAll("li.flag[data-flag]")];
  return {verdict: verdict,
    flags: items.map((li) => li.dataset.flag + ": " + li.querySelector(".flag-what").textContent).sort(),
    names: items.map((li) => li.dataset.flag + "=" + li.querySelector(".flag-name").textContent)};
}`

// TestAuditPagesAgreeWithReplay: the offline verifier page (verifier.js,
// as `journal verifier` writes it, in Spanish and English) and the
// dashboard feed's Verify all (feed.js's verifyAll and summaryPanel, fed
// an export's events as the API gives them) give, on corpus files that
// cover every flag code replay has, the verdict and the flags (code and
// words, in the page's language) that `journal replay` gives in process;
// each flag's name is in the page's language (i18n.js fc.CODE). One
// browser for every file.
func TestAuditPagesAgreeWithReplay(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	start := time.Now()
	codes := flagCodes(t)
	files := auditFiles(t, codes)
	t.Logf("replay on the corpus, to pick the files: %v", time.Since(start).Round(time.Millisecond))
	b := newBrowser(t)
	h := newHarness(t, memBackend())
	checked := 0
	names := map[string]map[string]string{} // lang → code → name shown
	for _, l := range []i18n.Lang{i18n.ES, i18n.EN} {
		names[string(l)] = map[string]string{}
		page, err := web.VerifierPage(l)
		require.NoError(t, err)
		path := filepath.Join(t.TempDir(), "verify.html")
		require.NoError(t, os.WriteFile(path, page, 0o644))
		b.do(t, "open the offline verifier", chromedp.Navigate("file://"+path), chromedp.WaitReady("#result"))
		for _, f := range files {
			want := replayOn(t, f, l)
			text, _ := json.Marshal(want.text)
			got := eval[pageAudit](t, b, `(async () => {
  await JournalVerifier.check(`+strconv.Quote(filepath.Base(f))+`, `+string(text)+`, [], {now: "`+auditNow.Format(time.RFC3339)+`"});
  const r = document.getElementById("result");
  return (`+readPanel+`)(r, r.dataset.verdict);
})()`)
			checked++
			compareAudit(t, "the offline verifier", l, f, want, got, names)
		}
		// The feed's Verify all, on the dashboard page, fed the export's
		// events as the API gives them (no stored bytes: no hash chain to
		// check, so only the files whose chain holds).
		b.do(t, "open the dashboard", chromedp.Navigate(h.url+"/"), chromedp.WaitReady("#verify-all"))
		eval[bool](t, b, `(document.documentElement.lang = "`+string(l)+`", true)`)
		for _, f := range files {
			want := replayOn(t, f, l)
			if want.verdict == string(replay.VerdictMismatch) || want.verdict == string(replay.VerdictForeign) {
				continue
			}
			text, _ := json.Marshal(want.text)
			got := eval[pageAudit](t, b, `(async () => {
  const records = JournalVerify.parseExport(`+string(text)+`).records.map((r, i) => ({seq: i + 1, event: r.event}));
  const list = document.createElement("ol");
  const feed = JournalFeed.create({list: list, api: async (p) => (p.includes("/events?from=1&") ? records : []), campaign: () => "c", now: "`+auditNow.Format(time.RFC3339)+`"});
  feed.add(records, false);
  const c = await feed.verifyAll();
  const panel = JournalFeed.summaryPanel(c.report, feed);
  return (`+readPanel+`)(panel, panel.dataset.verdict);
})()`)
			checked++
			compareAudit(t, "the feed's Verify all", l, f, want, got, names)
		}
	}
	// A flag on a request (repeated) links to the card of the roll that
	// answers it, even when that card is not loaded yet; the card's badge
	// says the flag, in Spanish; a flag on a device has no card and says
	// its sequence.
	eval[bool](t, b, `(document.documentElement.lang = "es", true)`)
	v2flags := replayOn(t, filepath.Join("testdata", "corpus", "genuine", "v2-flags.jsonl"), i18n.ES)
	text, _ := json.Marshal(v2flags.text)
	link := eval[struct {
		Link, Device bool
		At, Card     string
		Flags, Badge string
	}](t, b, `(async () => {
  const records = JournalVerify.parseExport(`+string(text)+`).records.map((r, i) => ({seq: i + 1, event: r.event}));
  const list = document.createElement("ol");
  document.body.append(list);
  const feed = JournalFeed.create({list: list, api: async (p) => (p.includes("/events?from=1&") ? records : []), campaign: () => "c", now: "`+auditNow.Format(time.RFC3339)+`"});
  const c = await feed.verifyAll();
  const panel = JournalFeed.summaryPanel(c.report, feed);
  document.body.append(panel);
  const a = panel.querySelector('li[data-flag="repeated"] a.to-card');
  const dev = panel.querySelector('li[data-flag="key-by-other"]');
  if (a) a.click();
  const card = list.querySelector(".ev.target");
  const badge = card && card.querySelector(".verdict");
  return {Link: !!a, Device: !!dev && !dev.querySelector("a.to-card"), At: dev ? dev.querySelector(".at").textContent : "",
    Card: card ? card.dataset.rolls : "", Flags: badge ? badge.dataset.flags : "", Badge: badge ? badge.textContent : ""};
})()`)
	require.True(t, link.Link, "the repeated flag links to its card")
	require.NotEmpty(t, link.Card, "the link shows the card of the roll that answers the request")
	require.Contains(t, link.Flags, "repeated", "the card's badge: %s", link.Badge)
	require.Contains(t, link.Badge, "verificada con avisos", "the card's badge in Spanish: %s", link.Badge)
	require.Contains(t, link.Badge, "repetida", "the flag's name in Spanish: %s", link.Badge)
	require.True(t, link.Device, "a device's flag has no card to link to")
	require.Contains(t, link.At, "secuencia ", "a device's flag says its sequence")
	shot(t, b, "audit-panel-es.png")

	for _, c := range codes {
		es, en := names["es"][c], names["en"][c]
		require.NotEmpty(t, es, "flag %s shown by no page", c)
		require.NotEqual(t, en, es, "flag %s: its name is the same in both languages (%q): fc.%s in i18n.js", c, es, c)
	}
	t.Logf("%d flag codes, %d files, %d verifications in two pages and two languages: %v", len(codes), len(files), checked, time.Since(start).Round(time.Millisecond))
}

// compareAudit fails when a page's audit is not replay's.
func compareAudit(t *testing.T, page string, l i18n.Lang, file string, want replayAudit, got pageAudit, names map[string]map[string]string) {
	t.Helper()
	if want.verdict != got.Verdict {
		t.Errorf("%s (%s), %s: verdict %q, replay %q", page, l, file, got.Verdict, want.verdict)
	}
	if w, g := fmt.Sprint(want.flags), fmt.Sprint(got.Flags); w != g {
		t.Errorf("%s (%s), %s: flags\n  page   %s\n  replay %s", page, l, file, g, w)
	}
	for _, n := range got.Names {
		code, name, _ := strings.Cut(n, "=")
		names[string(l)][code] = name
	}
}
