package web_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/dice"
)

// v2Modules are the journal-dice-v2 browser modules, in load order.
var v2Modules = []string{"dice.js", "signed.js", "keys.js", "dice2.js", "vendor/noble-curves.js", "beacon.js"}

// loadScripts adds the given /static/ scripts to the current page, in order.
func loadScripts(t *testing.T, b *browser, names ...string) {
	t.Helper()
	for _, n := range names {
		eval[bool](t, b, fmt.Sprintf(`new Promise((ok, fail) => { const s = document.createElement("script"); s.src = "/static/%s"; s.onload = () => ok(true); s.onerror = () => fail(new Error("cannot load %s")); document.head.append(s); })`, n, n))
	}
}

// openV2 opens a page of the journal's own origin (127.0.0.1: a secure
// context) with the v2 modules loaded, and returns its URL.
func openV2(t *testing.T, b *browser, h *harness) {
	t.Helper()
	b.do(t, "page", chromedp.Navigate(h.url+"/healthz"))
	loadScripts(t, b, v2Modules...)
}

// jsValue evaluates an async JavaScript body (with "return") and returns
// its result as JSON text.
func jsValue(t *testing.T, b *browser, body string) string {
	t.Helper()
	return eval[string](t, b, `(async () => { const v = await (async () => { `+body+` })(); return JSON.stringify(v === undefined ? null : v); })()`)
}

// jsError runs an async body that must throw; it returns the error's
// name and code ("SignedError/bad-signature"), or "no error".
func jsError(t *testing.T, b *browser, body string) string {
	t.Helper()
	return eval[string](t, b, `(async () => { try { await (async () => { `+body+` })(); return "no error"; } catch (e) { return (e && e.name) + "/" + (e && e.code) + ": " + (e && e.message); } })()`)
}

const (
	v2Seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	v2R0   = "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	v2R1   = "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	kNone  = "766900aaa4cc3aba30d10633457fc47625367284282501a1d3571d3e9bc3e847"
	kAB    = "f6483963d6bb6e8a1ae485d6dc5e3b11d922cf64d3ccf778ce86c582d39bbe17"
)

var (
	contribA = strings.Repeat("aa", 32)
	contribB = strings.Repeat("bb", 32)
)

// TestDiceV2InBrowser checks dice2.js against every test vector of
// docs/design.md §3.2 in headless Chromium, with Web Crypto and with dice.js's
// fallback (used where the page is not a secure context), and its verify
// against true, forged and sealed rolls.
func TestDiceV2InBrowser(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, memBackend())
	openV2(t, b, h)
	vectors := []struct {
		name string
		expr string
		want string
	}{
		{"K, no contributions", `JournalDiceV2.sessionKey(S, "camp-1", "sess-1", [])`, `"` + kNone + `"`},
		{"K, contributions aa, bb", `JournalDiceV2.sessionKey(S, "camp-1", "sess-1", [A, B])`, `"` + kAB + `"`},
		{"commitment of r0", `JournalDiceV2.revealCommitment(R0)`, `"72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084"`},
		{"nonce 0, r0, 3d10, K with contributions", `JournalDiceV2.faces(KAB, "camp-1", "sess-1", 0, R0, [10, 10, 10])`, `[1,7,6]`},
		{"nonce 1, r1, d12 + 3d6, K with contributions", `JournalDiceV2.faces(KAB, "camp-1", "sess-1", 1, R1, [12, 6, 6, 6])`, `[7,2,5,1]`},
		{"nonce 0, r0, 3d10, K without contributions", `JournalDiceV2.faces(KNONE, "camp-1", "sess-1", 0, R0, [10, 10, 10])`, `[2,10,1]`},
		{"nonce 2, r0, 2d6, K with contributions", `JournalDiceV2.faces(KAB, "camp-1", "sess-1", 2, R0, [6, 6])`, `[3,3]`},
		{"K from contributions in the other order differs", `JournalDiceV2.sessionKey(S, "camp-1", "sess-1", [B, A]).then(k => k !== KAB)`, `true`},
		{"reveal matches", `JournalDiceV2.revealMatches(R0, "72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084")`, `true`},
		{"reveal does not match in upper case", `JournalDiceV2.revealMatches(R0, "72DBB7336C76780023F83DA4C355F2EEEA85733B13D3477697917790C1229084")`, `false`},
		{"upper-case seed refused", `JournalDiceV2.sessionKey(S.toUpperCase(), "camp-1", "sess-1", []).catch(e => e.code)`, `"invalid-hex32"`},
		{"short contribution refused", `JournalDiceV2.sessionKey(S, "camp-1", "sess-1", ["aa"]).catch(e => e.code + " " + e.field)`, `"invalid-hex32 contribution 1"`},
		{"short r refused", `JournalDiceV2.faces(KAB, "camp-1", "sess-1", 0, "20", [6]).catch(e => e.code)`, `"invalid-hex32"`},
	}
	vectors = append(vectors, chainVectors(t)...)
	// Roll records (roll-made data as docs/design.md §3.2 names it), their
	// session and request.
	const commitR0 = "72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084"
	sessionEnded := `{id: "sess-1", algorithm: "journal-dice-v2", commitment: COMMIT, seed: S, contributions: [A, B]}`
	request := `{data: {request: "0193a5b0-7c1e-7d2a-9f00-1234567890ab", commitment: "` + commitR0 + `"}}`
	roll := func(data string) string {
		return `{campaign: "camp-1", session: "sess-1", data: {request: "0193a5b0-7c1e-7d2a-9f00-1234567890ab", witness: "ana", ` + data + `}}`
	}
	verify := func(rollData, session, req, pick string) string {
		return `JournalDiceV2.verify(` + roll(rollData) + `, ` + session + `, ` + req + `).then(v => ` + pick + `)`
	}
	verdicts := []struct {
		name string
		expr string
		want string
	}{
		{"a true roll", verify(`nonce: 0, reveal: R0, draws: [10, 10, 10], faces: [1, 7, 6]`, sessionEnded, request, `v.status`), `"verified"`},
		{"a true roll: d12 + 3d6", verify(`nonce: 1, reveal: R1, draws: [12, 6, 6, 6], faces: [7, 2, 5, 1]`, sessionEnded, `null`, `v.status`), `"verified"`},
		{"a forged face", verify(`nonce: 0, reveal: R0, draws: [10, 10, 10], faces: [1, 7, 7]`, sessionEnded, request, `v.status + " " + v.derived`), `"mismatch 1,7,6"`},
		{"a reveal that is not the commitment", verify(`nonce: 1, reveal: R1, draws: [12, 6, 6, 6], faces: [7, 2, 5, 1]`, sessionEnded, request, `v.status + " " + /commitment/.test(v.reason)`), `"mismatch true"`},
		{"faces re-derived under another nonce", verify(`nonce: 2, reveal: R0, draws: [10, 10, 10], faces: [1, 7, 6]`, sessionEnded, request, `v.status`), `"mismatch"`},
		{"a dropped contribution", verify(`nonce: 0, reveal: R0, draws: [10, 10, 10], faces: [1, 7, 6]`, `{id: "sess-1", algorithm: "journal-dice-v2", commitment: COMMIT, seed: S, contributions: [A]}`, request, `v.status`), `"mismatch"`},
		{"no contribution: verified and flagged", verify(`nonce: 0, reveal: R0, draws: [10, 10, 10], faces: [2, 10, 1]`, `{id: "sess-1", algorithm: "journal-dice-v2", commitment: COMMIT, seed: S, contributions: []}`, request, `v.status + " " + v.flags.length`), `"verified 1"`},
		{"a seed that is not the session's commitment", verify(`nonce: 0, reveal: R0, draws: [10, 10, 10], faces: [1, 7, 6]`, `{id: "sess-1", algorithm: "journal-dice-v2", commitment: COMMIT, seed: R1, contributions: [A, B]}`, request, `v.status`), `"mismatch"`},
		{"the true seed under another session commitment", verify(`nonce: 0, reveal: R0, draws: [10, 10, 10], faces: [1, 7, 6]`, `{id: "sess-1", algorithm: "journal-dice-v2", commitment: "`+commitR0+`", seed: S, contributions: [A, B]}`, request, `v.status + " " + v.commitmentOK`), `"mismatch false"`},
		{"draws and faces of different lengths", verify(`nonce: 0, reveal: R0, draws: [10, 10], faces: [1, 7, 6]`, sessionEnded, request, `v.status`), `"mismatch"`},
		{"a die of 1 side", verify(`nonce: 0, reveal: R0, draws: [1, 10, 10], faces: [1, 7, 6]`, sessionEnded, request, `v.status`), `"mismatch"`},
		{"a reveal in upper case", verify(`nonce: 0, reveal: R0.toUpperCase(), draws: [10, 10, 10], faces: [1, 7, 6]`, sessionEnded, request, `v.status`), `"mismatch"`},
		{"a v1 session", verify(`nonce: 0, reveal: R0, draws: [10, 10, 10], faces: [1, 7, 6]`, `{id: "sess-1", algorithm: "journal-dice-v1", commitment: COMMIT, seed: S}`, request, `v.status`), `"mismatch"`},
		{"sealed: the seed is not out, the reveal is checked", verify(`nonce: 0, reveal: R0, draws: [10, 10, 10], faces: [1, 7, 6]`, `{id: "sess-1", algorithm: "journal-dice-v2", commitment: COMMIT, contributions: [A, B]}`, request, `v.status + " " + v.revealOK`), `"sealed true"`},
		{"sealed, but the reveal is not the commitment", verify(`nonce: 0, reveal: R1, draws: [10, 10, 10], faces: [1, 7, 6]`, `{id: "sess-1", algorithm: "journal-dice-v2", commitment: COMMIT, contributions: [A, B]}`, request, `v.status`), `"mismatch"`},
		{"unwitnessed GM roll: flagged", `JournalDiceV2.verify({campaign: "camp-1", session: "sess-1", data: {nonce: 0, reveal: R0, witness: "none", draws: [10, 10, 10], faces: [1, 7, 6]}}, ` + sessionEnded + `, null).then(v => v.status + " " + v.flags.join("; ").includes("unwitnessed"))`, `"verified true"`},
	}
	seedCommit := dice.Seed(run32(0)).Commitment()
	for _, mode := range []struct {
		name     string
		fallback bool
	}{{"web crypto", false}, {"fallback", true}} {
		t.Run(mode.name, func(t *testing.T) {
			eval[bool](t, b, fmt.Sprintf(`(JournalDice.useFallback(%v), true)`, mode.fallback))
			require.Equal(t, !mode.fallback, eval[bool](t, b, `JournalDice.webCrypto()`))
			for _, v := range append(vectors, verdicts...) {
				body := `const S = "` + v2Seed + `", R0 = "` + v2R0 + `", R1 = "` + v2R1 + `", A = "` + contribA + `", B = "` + contribB + `", KAB = "` + kAB + `", KNONE = "` + kNone + `", COMMIT = "` + seedCommit + `"; return await (` + v.expr + `);`
				if got := jsValue(t, b, body); got != v.want {
					t.Errorf("%s: got %s, want %s", v.name, got, v.want)
				}
			}
		})
	}
	eval[bool](t, b, `(JournalDice.useFallback(false), true)`)

	// Beyond the vectors: the browser agrees with rules/dice on other
	// inputs (three contributions, every die size the rules use, a long stream).
	contribs := [][32]byte{fill32(1), run32(0x33), fill32(0xfe)}
	k := dice.SessionKey(dice.Seed(run32(0)), "mordor", "s-2026-12-01", contribs)
	sides := []int{2, 3, 4, 6, 8, 10, 12, 20, 100, 256, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6}
	var r [32]byte
	copy(r[:], "a player's secret r, 32 bytes..")
	s := dice.StreamV2(k, "mordor", "s-2026-12-01", 41, r)
	want := make([]int, len(sides))
	for i, n := range sides {
		f, err := s.Roll(n)
		require.NoError(t, err)
		want[i] = f
	}
	wantJSON, _ := json.Marshal(want)
	sidesJSON, _ := json.Marshal(sides)
	hexes := make([]string, len(contribs))
	for i, c := range contribs {
		hexes[i] = hex.EncodeToString(c[:])
	}
	hexesJSON, _ := json.Marshal(hexes)
	got := jsValue(t, b, fmt.Sprintf(`const K = await JournalDiceV2.sessionKey(%q, "mordor", "s-2026-12-01", %s); return [K, await JournalDiceV2.faces(K, "mordor", "s-2026-12-01", 41, %q, %s)];`,
		v2Seed, hexesJSON, hex.EncodeToString(r[:]), sidesJSON))
	require.Equal(t, fmt.Sprintf(`[%q,%s]`, k.String(), wantJSON), got)
}

func run32(from byte) [32]byte {
	var b [32]byte
	for i := range b {
		b[i] = from + byte(i)
	}
	return b
}

func fill32(v byte) [32]byte {
	var b [32]byte
	for i := range b {
		b[i] = v
	}
	return b
}

// insecurePage serves web/static over plain http under a name that is not
// localhost (insecure.example, mapped to 127.0.0.1): a page that is not a
// secure context, as a phone on the LAN sees the journal over http. It
// returns the browser and the page's URL.
func insecurePage(t *testing.T) (*browser, string) {
	t.Helper()
	srv := httptest.NewServer(http.StripPrefix("/static/", http.FileServer(http.Dir("static"))))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	b := newBrowser(t) // insecure.example is 127.0.0.1 (sharedHosts)
	page := "http://insecure.example:" + u.Port() + "/static/vendor/README.md"
	b.do(t, "open the insecure page", chromedp.Navigate(page))
	if eval[bool](t, b, `window.isSecureContext`) {
		t.Fatal("http://insecure.example should not be a secure context")
	}
	return b, page
}

// TestDiceV2WithoutSecureContext: on a page that is not a secure context
// (no crypto.subtle at all) dice2.js still gives the §3.2 vectors, through
// dice.js's fallback.
func TestDiceV2WithoutSecureContext(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b, _ := insecurePage(t)
	loadScripts(t, b, "dice.js", "dice2.js")
	require.False(t, eval[bool](t, b, `JournalDice.webCrypto()`))
	got := jsValue(t, b, `const K = await JournalDiceV2.sessionKey("`+v2Seed+`", "camp-1", "sess-1", ["`+contribA+`", "`+contribB+`"]);
		return [K, await JournalDiceV2.faces(K, "camp-1", "sess-1", 1, "`+v2R1+`", [12, 6, 6, 6]), await JournalDiceV2.revealCommitment("`+v2R0+`")];`)
	require.Equal(t, `["`+kAB+`",[7,2,5,1],"72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084"]`, got)
}

// chainVectors are the witness chains' vectors (rules/dice/v2_witness.go,
// docs/design.md §3.3), computed by the Go reference: w from a device key's
// Ed25519 signature (RFC 8032's first test key, through Web Crypto), its
// anchor, w_1 and w_2, the check, and the combination.
func chainVectors(t *testing.T) []struct{ name, expr, want string } {
	t.Helper()
	seed, err := hex.DecodeString("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
	require.NoError(t, err)
	const commitment = "72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084"
	w := dice.DeviceWitnessSecret(ed25519.NewKeyFromSeed(seed), "camp-1", "sess-1", commitment)
	hx := func(b [32]byte) string { return `"` + hex.EncodeToString(b[:]) + `"` }
	w1, err := dice.WitnessValue(w, 1)
	require.NoError(t, err)
	w2, err := dice.WitnessValue(w, 2)
	require.NoError(t, err)
	sign := `crypto.subtle.importKey("pkcs8", JournalDice.hexToBytes("302e020100300506032b657004220420` + hex.EncodeToString(seed) + `"), {name: "Ed25519"}, false, ["sign"])` +
		`.then(k => crypto.subtle.sign({name: "Ed25519"}, k, new TextEncoder().encode(JournalDiceV2.witnessSeedMessage("camp-1", "sess-1", "` + commitment + `"))))` +
		`.then(sig => JournalDiceV2.witnessSecret(new Uint8Array(sig)))`
	W := hx(w)
	return []struct{ name, expr, want string }{
		{"a device's w from its Ed25519 signature", sign, W},
		{"the witness anchor H^1024(w)", `JournalDiceV2.witnessAnchor(` + W + `)`, hx(dice.WitnessAnchor(w))},
		{"w_1", `JournalDiceV2.witnessValue(` + W + `, 1)`, hx(w1)},
		{"w_2", `JournalDiceV2.witnessValue(` + W + `, 2)`, hx(w2)},
		{"w_2 hashes twice to the anchor", `JournalDiceV2.witnessMatches(` + hx(w2) + `, ` + hx(dice.WitnessAnchor(w)) + `, 2)`, `true`},
		{"w_2 is not the first value", `JournalDiceV2.witnessMatches(` + hx(w2) + `, ` + hx(dice.WitnessAnchor(w)) + `, 1)`, `false`},
		{"r combines w_1 and w_2 in order", `JournalDiceV2.combineWitnesses([` + hx(w1) + `, ` + hx(w2) + `])`, hx(dice.CombineWitnesses([][32]byte{w1, w2}))},
	}
}
