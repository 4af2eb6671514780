package web_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds Debian's chromium, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Skip("chromium not installed: apt-get install chromium (.ci/run installs it)")
	return ""
}

// browser is one headless Chromium tab, with its console collected.
type browser struct {
	ctx     context.Context
	mu      sync.Mutex
	console []string
}

// newBrowser opens a tab in a browser context of its own (a fresh
// profile: no cookies, storage or cache of another test's) of the
// package's shared headless Chromium (chrome_test.go), with its console
// collected; the context is disposed of when the test ends.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	return newBrowserLang(t, "")
}

// newBrowserLang is newBrowser in a Chromium whose Accept-Language (the
// browser's languages) is lang ("": Chromium's default).
func newBrowserLang(t *testing.T, lang string) *browser {
	t.Helper()
	extra := map[string]any{}
	if lang != "" {
		extra["accept-lang"] = lang
	}
	p := sharedChrome(t, chromium(t), extra)
	return openContext(t, p.ctx)
}

// openContext opens a tab in a new browser context of the Chromium of
// parent, collecting its console, closed when t ends.
func openContext(t *testing.T, parent context.Context) *browser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	b := &browser{ctx: ctx}
	messages := chromedp.Console(ctx)
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		cancel()
		t.Fatalf("new browser context: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m.String())
			b.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			for _, line := range b.logs() {
				t.Log("browser console:", line)
			}
		}
	})
	return b
}

func (b *browser) logs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.console)
}

// do runs actions with a timeout.
func (b *browser) do(t *testing.T, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) into T.
func eval[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// keepShots reports whether screenshots are kept where a person looks
// at them: $JOURNAL_ARTIFACTS, $ARTIFACTS_DIR, $JOURNAL_SHOTS or
// $SHOTS_DIR is set (.ci/run sets them). Otherwise the browser tests take
// none: a full-page PNG took 0.2–5 s of a loaded machine each (17 s of
// one play-through game) for a temporary folder deleted when the test
// ends. No assertion looks at a screenshot.
func keepShots() bool {
	for _, v := range []string{"JOURNAL_ARTIFACTS", "ARTIFACTS_DIR", "JOURNAL_SHOTS", "SHOTS_DIR"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}

// artifact saves a test artifact: into $JOURNAL_ARTIFACTS (else a
// temporary folder), and also into $ARTIFACTS_DIR when set.
func artifact(t *testing.T, name string, data []byte) {
	t.Helper()
	dir := os.Getenv("JOURNAL_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	dirs := []string{dir}
	if d := os.Getenv("ARTIFACTS_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatalf("artifact folder: %v", err)
		}
		path := filepath.Join(d, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatalf("artifact: %v", err)
		}
		t.Logf("artifact: %s", path)
	}
}

// TestDashboard drives the dashboard in headless Chromium against the
// service on a real embedded JetStream server: a roll recorded through the
// API appears live, its verify button says "not yet revealed" while the
// session is open, and "verified" once the session has ended and revealed
// its seed, re-deriving the dice in the browser.
func TestDashboard(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, jetBackend(false))
	h.setup("mordor")
	h.command("mordor", "session-start", `{"title":"La torre"}`, http.StatusOK)
	early := h.command("mordor", "roll", `{"character":"lodin","skill":"sigilo","vs":"media","entropy":"ana-1"}`, http.StatusOK)
	h.command("mordor", "combat-start", `{"participants":["lodin","ruisenor","orco"]}`, http.StatusOK)

	b.do(t, "open the dashboard",
		chromedp.Navigate(h.url+"/?campaign=mordor"),
		chromedp.WaitVisible(`#live.on`),
		chromedp.WaitVisible(rollSel(early.Recorded[0].Event.ID)),
		chromedp.WaitVisible(`article.card[data-character="lodin"] .hp`),
		chromedp.WaitVisible(`#initiative li[data-character="orco"]`),
	)

	// A roll recorded through the API appears without a reload.
	roll := h.command("mordor", "roll", `{"character":"ruisenor","skill":"advertir","vs":"dificil","entropy":"bea-7"}`, http.StatusOK)
	id := roll.Recorded[0].Event.ID
	b.do(t, "see the roll live", chromedp.WaitVisible(rollSel(id)))
	if n := eval[int](t, b, `performance.getEntriesByType("navigation").length`); n != 1 {
		t.Fatalf("the page navigated %d times", n)
	}

	// Before the session ends the seed is secret.
	b.do(t, "verify before the end",
		chromedp.Click(rollSel(id)+` button.verify`),
		chromedp.WaitVisible(rollSel(id)+` .verdict[data-status="sealed"]`),
	)

	// The session ends through the API: the seed is revealed.
	h.command("mordor", "combat-end", ``, http.StatusOK)
	h.command("mordor", "session-end", ``, http.StatusOK)
	waitTrue(t, b, "the session ends on the page", `document.getElementById("session").textContent.includes("ended")`)
	b.do(t, "verify after the end",
		chromedp.Click(rollSel(id)+` button.verify`),
		chromedp.WaitVisible(rollSel(id)+` .verdict[data-status="verified"]`),
		chromedp.Click(rollSel(early.Recorded[0].Event.ID)+` button.verify`),
		chromedp.WaitVisible(rollSel(early.Recorded[0].Event.ID)+` .verdict[data-status="verified"]`),
	)
	text := eval[string](t, b, fmt.Sprintf(`document.querySelector(%q).textContent`, rollSel(id)+" .verdict"))
	if !strings.Contains(text, "verified") || !strings.Contains(text, "re-derived") {
		t.Fatalf("verdict: %q", text)
	}

	// The luck charts and the transcript are drawn.
	b.do(t, "charts and transcript",
		chromedp.WaitVisible(`#charts figure[data-dist="d10"] svg rect`),
		chromedp.WaitVisible(`#transcript li`),
	)
	eval[bool](t, b, `(window.scrollTo(0, 0), true)`)
	if keepShots() {
		shot, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		artifact(t, "dashboard.png", shot)
	}

	// On a phone: nothing wider than the screen.
	b.do(t, "phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Sleep(300*time.Millisecond))
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("on a 390 px screen the page is %d px wide", w)
	}
	eval[bool](t, b, `(window.scrollTo(0, 0), true)`)
	if keepShots() {
		phone, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		artifact(t, "dashboard-phone.png", phone)
	}

	for _, line := range b.logs() {
		if strings.Contains(line, "Uncaught") || strings.Contains(strings.ToLower(line), "exception") {
			t.Errorf("browser console: %s", line)
		}
	}
}

// waitTrue polls a JavaScript predicate until it holds, every 50 ms (not
// on animation frames, which a window of the shared browser may not get
// while another test's window is in front).
func waitTrue(t *testing.T, b *browser, what, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func rollSel(id string) string { return fmt.Sprintf(`li.roll[data-event-id=%q]`, id) }

// TestDiceInBrowser checks dice.js against the test vectors of docs/design.md §3,
// in the browser, with Web Crypto and with the fallback used where the
// page is not a secure context.
func TestDiceInBrowser(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, memBackend())
	// Load the module into a page of the service's origin.
	b.do(t, "page", chromedp.Navigate(h.url+"/healthz"))
	eval[bool](t, b, `new Promise((ok, fail) => { const s = document.createElement("script"); s.src = "/static/dice.js"; s.onload = () => ok(true); s.onerror = fail; document.head.append(s); })`)
	if !eval[bool](t, b, `JournalDice.webCrypto()`) {
		t.Fatal("Web Crypto is not available on the test page (127.0.0.1 should be a secure context)")
	}
	const seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	vectors := []struct {
		name string
		expr string
		want string
	}{
		{"commitment", `JournalDice.commitment(SEED)`, `"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"`},
		{"block(0) of nonce 0", `JournalDice.block(SEED, "camp-1", "sess-1", 0, "", 0)`, `"ccc640960e2f31e9b8a2c5342d22671e1c58239fe15b8b3075028094e01464f5"`},
		{"nonce 0: 3d10", `JournalDice.faces(SEED, "camp-1", "sess-1", 0, "", [10, 10, 10])`, `[5,9,5]`},
		{"nonce 1: 3d10", `JournalDice.faces(SEED, "camp-1", "sess-1", 1, "", [10, 10, 10])`, `[4,6,4]`},
		{"nonce 2: d12, 3d6", `JournalDice.faces(SEED, "camp-1", "sess-1", 2, "", [12, 6, 6, 6])`, `[3,6,3,4]`},
		{"nonce 0, entropy lodin: 3d10", `JournalDice.faces(SEED, "camp-1", "sess-1", 0, "lodin", [10, 10, 10])`, `[4,8,9]`},
		{"nonce 3: 2d6", `JournalDice.faces(SEED, "camp-1", "sess-1", 3, "", [6, 6])`, `[1,4]`},
		{"nonce 4: d20, d100", `JournalDice.faces(SEED, "camp-1", "sess-1", 4, "", [20, 100])`, `[18,28]`},
		{"sides of 1o3d10", `JournalDice.sidesOf({kind: "skill", dice: "1o3d10", faces: [1, 2, 3, 4, 5, 6]})`, `[10,10,10,10,10,10]`},
		{"sides of damage", `JournalDice.sidesOf({kind: "damage", dice: "2d6", faces: [6, 2, 3]})`, `[6,6,6]`},
		{"sides of damage with a modifier", `JournalDice.sidesOf({kind: "damage", dice: "1d6-2", faces: [4]})`, `[6]`},
		{"sides of a heal", `JournalDice.sidesOf({kind: "heal", dice: "1d6", faces: [3]})`, `[6]`},
		{"sides of a One Ring roll", `JournalDice.sidesOf({kind: "tor", dice: "d12+3d6", faces: [3, 6, 3, 4]})`, `[12,6,6,6]`},
		{"verify a true roll", `JournalDice.verify({campaign: "camp-1", session: "sess-1", data: {kind: "tor", dice: "d12+3d6", nonce: 2, entropy: "", faces: [3, 6, 3, 4]}},
			{id: "sess-1", commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd", seed: SEED}).then(r => r.status)`, `"verified"`},
		{"verify a forged face", `JournalDice.verify({campaign: "camp-1", session: "sess-1", data: {kind: "skill", dice: "1o3d10", nonce: 0, entropy: "", faces: [5, 9, 6]}},
			{id: "sess-1", commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd", seed: SEED}).then(r => r.status)`, `"mismatch"`},
		{"verify against a wrong commitment", `JournalDice.verify({campaign: "camp-1", session: "sess-1", data: {kind: "skill", dice: "1o3d10", nonce: 0, entropy: "", faces: [5, 9, 5]}},
			{id: "sess-1", commitment: "00", seed: SEED}).then(r => r.status)`, `"mismatch"`},
		{"verify before the seed is revealed", `JournalDice.verify({campaign: "camp-1", session: "sess-1", data: {kind: "skill", dice: "1o3d10", nonce: 0, faces: [5, 9, 5]}},
			{id: "sess-1", commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"}).then(r => r.status)`, `"sealed"`},
	}
	for _, mode := range []struct {
		name     string
		fallback bool
	}{{"web crypto", false}, {"fallback", true}} {
		t.Run(mode.name, func(t *testing.T) {
			eval[bool](t, b, fmt.Sprintf(`(JournalDice.useFallback(%v), true)`, mode.fallback))
			if got := eval[bool](t, b, `JournalDice.webCrypto()`); got == mode.fallback {
				t.Fatalf("webCrypto() = %v with fallback %v", got, mode.fallback)
			}
			for _, v := range vectors {
				expr := `(async () => { const SEED = "` + seed + `"; return JSON.stringify(await (` + v.expr + `)); })()`
				if got := eval[string](t, b, expr); got != v.want {
					t.Errorf("%s: got %s, want %s", v.name, got, v.want)
				}
			}
		})
	}
}
