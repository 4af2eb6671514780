package web_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// The package's browser tests share Chromium: one process per set of
// browser-wide options (the default set, and one per Accept-Language a
// test asks for), started when a test first asks for it and stopped when
// the package's tests end (TestMain). Each browser of a test
// (newBrowser, incognito) is a browser context of its own in that
// process, with its own window, cookies, storage and cache, disposed of
// when the test ends: what one test's pages stored is never another's.
// Starting Chromium took 2–7 s of each browser test; a browser context
// takes a fraction of that.
//
// The browser tests call t.Parallel: they wait on the browser (pages,
// event streams, polls) more than they compute, so two of them (go test's
// -parallel, GOMAXPROCS) run side by side after the package's other
// tests. The tests that run node over the corpus or the OpenAPI tools are
// CPU-bound and stay sequential (beside two browser tests on a loaded
// machine node ran past its 5-minute timeout), as do the tests that
// measure speed (TestTableSpeed, TestFeedSpeed, the fan-out figures).

// sharedHosts are the names the shared browsers resolve to 127.0.0.1:
// the rebinding and cross-origin attacker's (TestBrowserAttacks) and an
// origin that is not a secure context (insecurePage). No other test
// names them.
const sharedHosts = "MAP evil.example 127.0.0.1, MAP attacker.example 127.0.0.1, MAP insecure.example 127.0.0.1"

// chromeProcess is one running Chromium: ctx is its first tab's context,
// from which each test's browser context is made.
type chromeProcess struct {
	ctx         context.Context
	cancel      context.CancelFunc
	cancelAlloc context.CancelFunc
	dir         string
}

var chromes struct {
	mu sync.Mutex
	m  map[string]*chromeProcess // by the key of its extra options
}

// sharedChrome returns the running Chromium for the browser-wide flags
// extra (name → value), starting it when there is none or it has died.
func sharedChrome(t *testing.T, path string, extra map[string]any) *chromeProcess {
	t.Helper()
	keys := make([]string, 0, len(extra))
	for k, v := range extra {
		keys = append(keys, fmt.Sprintf("%s=%v", k, v))
	}
	slices.Sort(keys)
	key := strings.Join(keys, " ")
	chromes.mu.Lock()
	defer chromes.mu.Unlock()
	if p := chromes.m[key]; p != nil {
		if p.ctx.Err() == nil && chromedp.FromContext(p.ctx).Browser != nil {
			return p
		}
		p.stop() // it died (a crash): start another
	}
	dir, err := os.MkdirTemp("", "journal-web-chromium-")
	if err != nil {
		t.Fatalf("chromium profile folder: %v", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("host-resolver-rules", sharedHosts),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 1000),
	}
	for k, v := range extra {
		opts = append(opts, chromedp.Flag(k, v))
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	p := &chromeProcess{ctx: ctx, cancel: cancel, cancelAlloc: cancelAlloc, dir: dir}
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		p.stop()
		t.Fatalf("start chromium: %v", err)
	}
	if chromes.m == nil {
		chromes.m = map[string]*chromeProcess{}
	}
	chromes.m[key] = p
	return p
}

func (p *chromeProcess) stop() {
	p.cancel()
	p.cancelAlloc()
	_ = os.RemoveAll(p.dir)
}

// stopChromes stops every shared Chromium.
func stopChromes() {
	chromes.mu.Lock()
	defer chromes.mu.Unlock()
	for k, p := range chromes.m {
		p.stop()
		delete(chromes.m, k)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	stopChromes()
	os.Exit(code)
}
