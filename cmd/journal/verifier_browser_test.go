package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// verifierBrowser opens a tab in a browser context of its own (no
// storage of another test's) of the package's shared headless Chromium,
// started on first use and stopped when the package's tests end
// (TestMain), or skips the test; the context is closed with the test.
// Starting Chromium for each test took seconds of each.
func verifierBrowser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if found, err := exec.LookPath(p); err == nil {
			path = found
			break
		}
	}
	if path == "" {
		t.Skip("chromium not installed: apt-get install chromium (.ci/run installs it)")
	}
	parent := sharedChromium(t, path)
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx))
	return ctx
}

// chromium is the package's shared Chromium: ctx its first tab's context.
var chromium struct {
	mu     sync.Mutex
	ctx    context.Context
	cancel func()
	dir    string
}

// sharedChromium returns the shared Chromium's first context, starting
// the browser when there is none or it has died.
func sharedChromium(t *testing.T, path string) context.Context {
	t.Helper()
	chromium.mu.Lock()
	defer chromium.mu.Unlock()
	if chromium.ctx != nil && chromium.ctx.Err() == nil {
		return chromium.ctx
	}
	stopChromiumLocked()
	dir, err := os.MkdirTemp("", "journal-cli-chromium-")
	require.NoError(t, err)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(path), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(dir), chromedp.WindowSize(1000, 900))
	ctx, cancel := chromedp.NewContext(actx)
	chromium.ctx, chromium.dir = ctx, dir
	chromium.cancel = func() { cancel(); cancelAlloc() }
	require.NoError(t, chromedp.Do(ctx)) // starts the browser
	return ctx
}

// stopChromium stops the shared Chromium, if it runs.
func stopChromium() {
	chromium.mu.Lock()
	defer chromium.mu.Unlock()
	stopChromiumLocked()
}

func stopChromiumLocked() {
	if chromium.cancel != nil {
		chromium.cancel()
		_ = os.RemoveAll(chromium.dir)
	}
	chromium.ctx, chromium.cancel, chromium.dir = nil, nil, ""
}

// TestVerifierOffline writes the offline verifier with 'journal verifier',
// opens it from a file (no server), and checks exports in it: a true
// journal-dice-v2 export (hash chain, signatures, reveals, faces, rules)
// and a v1 one verify; a face changed, an outcome changed, a line removed,
// a signature or a seed altered are each caught.
func TestVerifierOffline(t *testing.T) {
	tb := newV2Table(t)
	lines := tb.v2Session()
	page := tb.as("gm").ok("--lang", "en", "verifier")
	require.True(t, strings.HasPrefix(page, "<!doctype html>"), "the verifier is an HTML document")
	require.NotContains(t, page, "src=\"", "the verifier loads nothing")
	file := filepath.Join(t.TempDir(), "verify.html")
	require.NoError(t, os.WriteFile(file, []byte(page), 0o644))

	ctx := verifierBrowser(t)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		c, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		require.NoError(t, chromedp.Do(c, actions...), what)
	}
	run("open the verifier", chromedp.Navigate("file://"+file), chromedp.WaitReady(`#drop`))
	check := func(name string, ls []string) (string, string) {
		t.Helper()
		text, err := json.Marshal(strings.Join(ls, "\n") + "\n")
		require.NoError(t, err)
		c, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		got, err := chromedp.Run(c, chromedp.Evaluate[[]string](`JournalVerifier.check("`+name+`", `+string(text)+`).then(() => [document.getElementById("result").dataset.status, document.getElementById("result").textContent])`, chromedp.EvalAwaitPromise))
		require.NoError(t, err)
		return got[0], got[1]
	}
	status, text := check("mordor.jsonl", lines)
	require.Equal(t, replayVerdict(t, lines), status, text) // flagged: a request cancelled
	require.Contains(t, text, "hash chain")
	shotVerifier(t, ctx, "verifier-ok.png")

	roll := -1
	for i, l := range lines {
		if strings.Contains(l, `"type":"journal.roll.made.v1"`) && strings.Contains(l, `"reveal"`) {
			roll = i
			break
		}
	}
	require.GreaterOrEqual(t, roll, 0, "a v2 roll in the export")
	replaceIn := func(i int, old, repl string) []string {
		out := append([]string(nil), lines...)
		require.Contains(t, out[i], old)
		out[i] = strings.Replace(out[i], old, repl, 1)
		return out
	}
	var ev struct {
		Data struct {
			Faces   []int  `json:"faces"`
			Outcome string `json:"outcome"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[roll]), &ev))
	faces, _ := json.Marshal(ev.Data.Faces)
	other := []int{ev.Data.Faces[0]%10 + 1}
	other = append(other, ev.Data.Faces[1:]...)
	forged, _ := json.Marshal(other)
	ended := -1 // the last session end: it reveals the seed (co-signatures follow it)
	for i, l := range lines {
		if strings.Contains(l, `"type":"journal.session.ended.v1"`) {
			ended = i
		}
	}
	require.GreaterOrEqual(t, ended, 0, "a session end in the export")
	flip := map[string]string{"success": "failure", "failure": "success", "critical": "success", "fumble": "failure", "natural1": "failure", "rolled": "success"}
	tampered := []struct {
		name  string
		lines []string
	}{
		{"a face changed", replaceIn(roll, `"faces":`+string(faces), `"faces":`+string(forged))},
		{"the outcome changed", replaceIn(roll, `"outcome":"`+ev.Data.Outcome+`"`, `"outcome":"`+flip[ev.Data.Outcome]+`"`)},
		{"a line removed", append(append([]string(nil), lines[:roll]...), lines[roll+1:]...)},
		{"the revealed seed changed", replaceIn(ended, `"seed":"`, `"seed":"0`)},
	}
	for _, tc := range tampered {
		status, text := check("tampered.jsonl", tc.lines)
		require.Equal(t, "mismatch", status, "%s: %s", tc.name, text)
	}
	shotVerifier(t, ctx, "verifier-tampered.png")

	// A journal-dice-v1 campaign verifies too.
	v1 := newCLI(t)
	v1.setupCampaign()
	v1.ok("-c", "mordor", "session", "start", "--dice", "v1")
	v1.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	v1.ok("-c", "mordor", "contest", "lodin", "Sigilo", "orco", "Pelea")
	v1.ok("-c", "mordor", "session", "end")
	v1lines := strings.Split(strings.TrimSpace(v1.ok("-c", "mordor", "export")), "\n")
	status, text = check("v1.jsonl", v1lines)
	require.Equal(t, "verified", status, text)
	// A v1 file has no chain: a hidden roll shows as a gap in the nonces.
	for i, l := range v1lines {
		if strings.Contains(l, `"type":"journal.roll.made.v1"`) && strings.Contains(l, `"nonce":0,`) {
			hidden := append(append([]string(nil), v1lines[:i]...), v1lines[i+1:]...)
			status, text = check("hidden.jsonl", hidden)
			require.Equal(t, "mismatch", status, text)
			require.Contains(t, text, "nonce 0")
			return
		}
	}
	t.Fatal("no roll with nonce 0 in the v1 export")
}

func shotVerifier(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	dir := os.Getenv("JOURNAL_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	t.Logf("artifact: %s", filepath.Join(dir, name))
}
