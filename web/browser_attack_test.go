package web_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// refusedCount reads how many requests the server refused with code
// (journal_http_requests_total{route="refused"}) from its /metrics.
func refusedCount(t *testing.T, h *harness, code int) int {
	t.Helper()
	r := h.do(http.MethodGet, "/metrics", "")
	want := fmt.Sprintf(`journal_http_requests_total{code="%d",route="refused"} `, code)
	sc := bufio.NewScanner(bytes.NewReader(r.body))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), want); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("metric %s%s: %v", want, v, err)
			}
			return n
		}
	}
	return 0
}

// attackerPage is the page of another site: it tries to make the GM's
// browser run a command in the journal at base, in every way a page can
// without the journal's help (a form, fetch without and with CORS, an
// event stream), then reports what it could see.
const attackerPage = `<!doctype html><title>free dice</title>
<iframe name="sink"></iframe>
<form id="f" target="sink" method="POST" enctype="text/plain" action="BASE/api/campaigns/mordor/commands/day-new"><input name='{"x":"' value='"}'></form>
<script>
window.attack = async () => {
  const out = [];
  document.getElementById("f").submit();
  await new Promise(ok => document.querySelector("iframe").onload = ok);
  try { await fetch("BASE/api/campaigns/mordor/commands/day-new", {method: "POST", mode: "no-cors", body: "{}"}); out.push("no-cors sent"); } catch (e) { out.push("no-cors failed"); }
  try { const r = await fetch("BASE/api/campaigns/mordor/commands/day-new", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"}); out.push("cors " + r.status); } catch (e) { out.push("cors refused"); }
  try { const r = await fetch("BASE/api/campaigns/mordor"); out.push("read " + r.status); } catch (e) { out.push("read refused"); }
  out.push(await new Promise(ok => { const s = new EventSource("BASE/api/campaigns/mordor/events?from=1"); s.onmessage = () => { s.close(); ok("stream open"); }; s.onerror = () => { s.close(); ok("stream refused"); }; }));
  return out.join(", ");
};
</script>`

// TestBrowserAttacks: real Chromium, as a page of another site would use
// it against a journal served without an access file on 127.0.0.1. By DNS
// rebinding (a name of the attacker's resolving to 127.0.0.1, here by
// Chromium's host resolver rules) the page is same-origin with the journal
// as far as the browser knows, so only the Host check stands: every
// request gets 421. Cross-origin (a form, fetch, an event stream from a
// page of another origin), the server refuses each request that reaches
// it with 403. Nothing is recorded either way.
func TestBrowserAttacks(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	h := newHarness(t, memBackend())
	h.setup("mordor")
	h.command("mordor", "session-start", `{}`, http.StatusOK)
	u, _ := url.Parse(h.url)
	port := u.Port()
	base := h.url
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, strings.ReplaceAll(attackerPage, "BASE", base))
	}))
	t.Cleanup(evil.Close)
	b := newBrowser(t) // evil.example and attacker.example are 127.0.0.1 (sharedHosts)
	before := h.count(t)

	// DNS rebinding: the page is at evil.example:PORT, now the journal's
	// address.
	refused := refusedCount(t, h, http.StatusMisdirectedRequest)
	b.do(t, "open the rebound name", chromedp.Navigate("http://evil.example:"+port+"/"))
	got := eval[string](t, b, `(async () => {
		const out = [];
		const w = await fetch("/api/campaigns/mordor/commands/day-new", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"});
		out.push("write " + w.status + " " + (await w.json()).status);
		const r = await fetch("/api/campaigns/mordor");
		out.push("read " + r.status);
		out.push(await new Promise(ok => { const s = new EventSource("/api/campaigns/mordor/events?from=1"); s.onmessage = () => { s.close(); ok("stream open"); }; s.onerror = () => { s.close(); ok("stream refused"); }; }));
		return out.join(", ");
	})()`)
	if got != "write 421 421, read 421, stream refused" {
		t.Errorf("rebinding page: %s", got)
	}
	if n := refusedCount(t, h, http.StatusMisdirectedRequest) - refused; n < 4 {
		t.Errorf("the server refused %d rebinding requests (421), want the page, the write, the read and the stream", n)
	}

	// Cross-origin: the page is at attacker.example, another origin.
	refused = refusedCount(t, h, http.StatusForbidden)
	evilURL, _ := url.Parse(evil.URL)
	b.do(t, "open the attacker's page", chromedp.Navigate("http://attacker.example:"+evilURL.Port()+"/"))
	got = eval[string](t, b, `window.attack()`)
	if got != "no-cors sent, cors refused, read refused, stream refused" {
		t.Errorf("attacker's page: %s", got)
	}
	// The form, the no-cors write, the CORS preflight, the read and the
	// stream each reached the server and were refused there.
	if n := refusedCount(t, h, http.StatusForbidden) - refused; n < 5 {
		t.Errorf("the server refused %d cross-origin requests (403), want 5", n)
	}
	if n := h.count(t); n != before {
		t.Fatalf("%d events recorded by the attacks", n-before)
	}
	t.Logf("browser attacks: rebinding (write, read, stream) and cross-origin (form, fetch no-cors, fetch cors, read, stream): events recorded 0")
}
