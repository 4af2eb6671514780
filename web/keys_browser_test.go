package web_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

const (
	keyReq   = "0193a5b0-7c1e-7d2a-9f00-1234567890ab"
	keyEvent = "0193a5b0-7c1e-7d2a-9f00-abcdefabcdef"
)

// keySamples is one message of every type for campaign mordor, session s-1,
// as Go's signed package encodes them.
func keySamples(t *testing.T) []string {
	t.Helper()
	h := signed.Header{Campaign: "mordor", Session: "s-1"}
	commit, err := dice.ParseHex32(dice.RevealCommitment(run32(0x20)))
	require.NoError(t, err)
	msgs := []signed.Message{
		&signed.Contribute{Header: h, Value: signed.Hex32(fill32(0xaa))},
		&signed.Request{Header: h, Request: keyReq, Commitment: commit,
			Action: jsontext.Value(`{"command":"roll","character":"lodin","skill":"Pelea","vs":7,"mod":0,"token":false,"note":null,"list":[1,2.5,"x"]}`)},
		&signed.Request{Header: h, Request: keyReq, BeaconRound: 30662982, Action: jsontext.Value(`{"command":"attack","character":"orc-1","target":"lodin"}`)},
		&signed.Reveal{Header: h, Request: keyReq, R: signed.Hex32(run32(0x20))},
		&signed.Witness{Header: h, Request: keyReq, Value: signed.Hex32(fill32(0xbb))},
		&signed.Cosign{Header: h, Ended: signed.Hex32(fill32(0xcc))},
		&signed.VoidConsent{Header: h, Event: keyEvent, Reason: "rolled for the \"wrong\" character \\ a\nb\tc <&> ü 🎲 \u2028 \x01 \x7f"},
		// With the device's receipt (seen, after "session").
		&signed.Cosign{Header: signed.Header{Campaign: "mordor", Session: "s-1", Seen: &signed.Seen{Seq: 42, Hash: signed.Hex32(fill32(0xdd))}}, Ended: signed.Hex32(fill32(0xcc))},
		&signed.Reveal{Header: signed.Header{Campaign: "mordor", Session: "s-1", Seen: &signed.Seen{Seq: 1<<53 - 1, Hash: signed.Hex32(run32(0x01))}}, Request: keyReq, R: signed.Hex32(run32(0x20))},
	}
	out := make([]string, len(msgs))
	for i, m := range msgs {
		s, err := signed.Encode(m)
		require.NoError(t, err, "sample %d", i)
		out[i] = s
	}
	return out
}

func goKey(b byte) ed25519.PrivateKey {
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = b
	}
	return ed25519.NewKeyFromSeed(seed)
}

// keyState is what the page reports about a stored key.
type keyState struct {
	PublicKey   string   `json:"publicKey"`
	Fingerprint string   `json:"fingerprint"`
	Extractable bool     `json:"extractable"`
	Exports     []string `json:"exports"`
	RawPublic   string   `json:"rawPublic"`
	Type        string   `json:"type"`
}

// describeKey is a JavaScript body that reports a DeviceKey k as a keyState.
const describeKey = `
	const exports = [];
	for (const f of ["pkcs8", "jwk", "raw"]) {
		try { await crypto.subtle.exportKey(f, k.privateKey); exports.push(f + " exported"); }
		catch (e) { exports.push(f + " " + e.name); }
	}
	const raw = Array.from(new Uint8Array(await crypto.subtle.exportKey("raw", k.publicCryptoKey)), x => x.toString(16).padStart(2, "0")).join("");
	return {publicKey: k.publicKey, fingerprint: k.fingerprint, extractable: k.privateKey.extractable, exports, rawPublic: raw, type: k.privateKey.type};`

func readKeyState(t *testing.T, b *browser, load string) keyState {
	t.Helper()
	var ks keyState
	require.NoError(t, json.Unmarshal([]byte(jsValue(t, b, `const k = await `+load+`; if (!k) return null; `+describeKey)), &ks))
	return ks
}

func checkKeyState(t *testing.T, ks keyState) signed.PublicKey {
	t.Helper()
	pub, err := signed.ParsePublicKey(ks.PublicKey)
	require.NoError(t, err, "the browser's public key is a valid recorded key")
	require.Equal(t, signed.Fingerprint(pub), ks.Fingerprint, "the browser's fingerprint is Go's")
	require.False(t, ks.Extractable, "the private key is not extractable")
	require.Equal(t, "private", ks.Type)
	require.Equal(t, []string{"pkcs8 InvalidAccessError", "jwk InvalidAccessError", "raw InvalidAccessError"}, ks.Exports, "no export of the private key")
	require.Equal(t, ks.PublicKey, ks.RawPublic, "publicKey is the raw public key")
	return pub
}

// TestKeysInBrowser: a device key made in headless Chromium is an Ed25519
// key whose private half cannot be exported, kept across a page reload;
// what it signs opens with Go's signed.Open, byte for byte the string Go's
// signed.Encode writes; what Go signs verifies in the browser, with Web
// Crypto and with the noble fallback; tampered strings and signatures are
// refused by both, alike.
func TestKeysInBrowser(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, memBackend())
	openV2(t, b, h)
	require.Equal(t, `{"ok":true}`, jsValue(t, b, `return JournalKeys.supported();`))
	require.True(t, eval[bool](t, b, `JournalSigned.webCrypto()`), "Chromium's Web Crypto has Ed25519")

	ana := `{campaign: "mordor", user: "ana"}`
	first := readKeyState(t, b, `JournalKeys.create(`+ana+`)`)
	pub := checkKeyState(t, first)
	require.Contains(t, jsError(t, b, `await JournalKeys.create(`+ana+`);`), "KeyError/exists", "a second create does not replace the key")

	// The next visit: the same key, still not extractable.
	openV2(t, b, h)
	again := readKeyState(t, b, `JournalKeys.load(`+ana+`)`)
	checkKeyState(t, again)
	require.Equal(t, first.PublicKey, again.PublicKey, "the key survives a reload")
	require.Equal(t, first.Fingerprint, again.Fingerprint)

	samples := keySamples(t)
	samplesJSON, _ := json.Marshal(samples)

	t.Run("browser signs, Go opens", func(t *testing.T) {
		// The page rebuilds each message from its members in another order
		// and signs it with the reloaded key.
		var got []struct{ Signed, Signature string }
		require.NoError(t, json.Unmarshal([]byte(jsValue(t, b, `const k = await JournalKeys.load(`+ana+`); const out = [];
			for (const s of `+string(samplesJSON)+`) {
				const reversed = Object.fromEntries(Object.entries(JSON.parse(s)).reverse());
				const r = await k.sign(reversed);
				out.push({Signed: r.signed, Signature: r.signature});
			}
			return out;`)), &got))
		require.Len(t, got, len(samples))
		for i, g := range got {
			require.Equal(t, samples[i], g.Signed, "the browser writes the string Go's Encode writes")
			m, err := signed.Open(pub, g.Signed, g.Signature, "mordor", "s-1")
			require.NoError(t, err, "sample %d", i)
			require.Equal(t, string(m.Kind()), mustType(t, g.Signed))
			// Anything else is refused by Go.
			_, err = signed.Open(pub, g.Signed+" ", g.Signature, "mordor", "s-1")
			require.ErrorIs(t, err, signed.ErrBadSignature)
		}
		// signString signs any string; the signature is Go's format.
		sig := jsValue(t, b, `const k = await JournalKeys.load(`+ana+`); return k.signString("héllo 🎲");`)
		require.NoError(t, signed.Verify(pub, "héllo 🎲", strings.Trim(sig, `"`)))
		// A key signs only for its campaign; a message Go would refuse is not signed.
		require.Contains(t, jsError(t, b, `const k = await JournalKeys.load(`+ana+`); await k.sign({type: "session.cosign", campaign: "isengard", session: "s-1", ended: "`+strings.Repeat("cc", 32)+`"});`), "KeyError/wrong-scope")
		require.Contains(t, jsError(t, b, `const k = await JournalKeys.load(`+ana+`); await k.sign({type: "session.cosign", campaign: "mordor", session: "s-1", ended: "`+strings.Repeat("CC", 32)+`"});`), "SignedError/malformed")
		require.Contains(t, jsError(t, b, `const k = await JournalKeys.load(`+ana+`); await k.sign({type: "session.cosign", campaign: "mordor", session: "s-1", ended: "`+strings.Repeat("cc", 32)+`", extra: 1});`), "SignedError/malformed: unknown field")
		require.Contains(t, jsError(t, b, `const k = await JournalKeys.load(`+ana+`); await k.sign({type: "void.consent", campaign: "mordor", session: "s-1", event: "`+keyEvent+`", reason: "\ud800"});`), "SignedError/malformed")
	})

	goPriv := goKey(7)
	goPub := signed.PublicKeyOf(goPriv)
	for _, mode := range []struct {
		name     string
		fallback bool
	}{{"web crypto", false}, {"noble fallback", true}} {
		t.Run("Go signs, browser opens, "+mode.name, func(t *testing.T) {
			eval[bool](t, b, fmt.Sprintf(`(JournalSigned.useFallback(%v), true)`, mode.fallback))
			t.Cleanup(func() { eval[bool](t, b, `(JournalSigned.useFallback(false), true)`) })
			require.Equal(t, !mode.fallback, eval[bool](t, b, `JournalSigned.webCrypto()`))
			for _, s := range samples {
				sig := signed.Sign(goPriv, s)
				got := jsValue(t, b, fmt.Sprintf(`return (await JournalSigned.open(%s, %s, %s, "mordor", "s-1")).type;`, jsq(goPub.String()), jsq(s), jsq(sig)))
				require.Equal(t, `"`+mustType(t, s)+`"`, got)
			}
			require.Equal(t, `"`+signed.Fingerprint(goPub)+`"`, jsValue(t, b, fmt.Sprintf(`return JournalSigned.fingerprint(%s);`, jsq(goPub.String()))))
			for _, c := range tamperCases(t, goPriv, samples[1]) {
				js := jsError(t, b, fmt.Sprintf(`await JournalSigned.open(%s, %s, %s, %s, "s-1");`, jsq(c.pub), jsq(c.signed), jsq(c.sig), jsq(c.campaign)))
				if !strings.HasPrefix(js, "SignedError/"+c.code+":") {
					t.Errorf("%s: the browser says %s, want code %s", c.name, js, c.code)
				}
				goErr := goOpen(c.pub, c.signed, c.sig, c.campaign)
				if !errors.Is(goErr, c.want) {
					t.Errorf("%s: Go says %v, want %v", c.name, goErr, c.want)
				}
			}
		})
	}

	// A signature under a mixed-order key (A' = A + a point of order 8)
	// made to hold only in the cofactored equation [8]([S]B - [k]A' - R) = 0:
	// Go's cofactorless verification refuses it, and so must the browser,
	// with Web Crypto and with the fallback (noble's own verify takes it).
	t.Run("a mixed-order key", func(t *testing.T) {
		text := samples[0]
		var forged struct {
			Pub, Sig   string
			Cofactored bool
		}
		require.NoError(t, json.Unmarshal([]byte(jsValue(t, b, `const N = JournalNoble, P = N.ed25519.Point, L = (1n << 252n) + 27742317777372353535851937790883648493n;
			const le = (x) => { let n = 0n; for (let i = x.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(x[i]); return n; };
			const toLE = (n) => { const x = new Uint8Array(32); for (let i = 0; i < 32; i++) { x[i] = Number(n & 255n); n >>= 8n; } return x; };
			const hex = (x) => Array.from(x, (v) => v.toString(16).padStart(2, "0")).join("");
			const T = P.fromHex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", true);
			const a = 1234567n, pub = P.BASE.multiply(a).add(T).toBytes(), msg = new TextEncoder().encode(`+jsq(text)+`);
			for (let r = 99n; ; r++) {
				const R = P.BASE.multiply(r).toBytes();
				const h = new Uint8Array(64 + msg.length); h.set(R); h.set(pub, 32); h.set(msg, 64);
				const k = le(N.sha512(h)) % L;
				if (k % 8n === 0n) continue;
				const sig = new Uint8Array(64); sig.set(R); sig.set(toLE((r + k * a) % L), 32);
				return {Pub: hex(pub), Sig: JournalSigned.base64url(sig), Cofactored: N.ed25519.verify(sig, msg, pub, {zip215: false})};
			}`)), &forged))
		require.True(t, forged.Cofactored, "the forged signature holds in the cofactored equation")
		require.ErrorIs(t, goOpen(forged.Pub, text, forged.Sig, "mordor"), signed.ErrBadSignature, "Go refuses it")
		for _, fallback := range []bool{false, true} {
			eval[bool](t, b, fmt.Sprintf(`(JournalSigned.useFallback(%v), true)`, fallback))
			got := jsError(t, b, fmt.Sprintf(`await JournalSigned.open(%s, %s, %s, "mordor", "s-1");`, jsq(forged.Pub), jsq(text), jsq(forged.Sig)))
			require.True(t, strings.HasPrefix(got, "SignedError/bad-signature:"), "fallback %v: %s", fallback, got)
		}
		eval[bool](t, b, `(JournalSigned.useFallback(false), true)`)
	})

	// An event made from a device's message, as a verifier sees it.
	t.Run("verifyEvent", func(t *testing.T) {
		reveal, request := samples[3], samples[1]
		keys := `{ana: "` + goPub.String() + `", bea: "` + signed.PublicKeyOf(goKey(9)).String() + `"}`
		event := func(envSession, user, text, sig, extra string) string {
			return `{campaign: "mordor", session: "` + envSession + `", data: {user: "` + user + `", signed: ` + jsq(text) + `, signature: "` + sig + `"` + extra + `}}`
		}
		revSig, reqSig := signed.Sign(goPriv, reveal), signed.Sign(goPriv, request)
		r0 := hex32(run32(0x20))
		commit := dice.RevealCommitment(run32(0x20))
		tests := []struct {
			name, event, keys, want string
		}{
			{"a reveal", event("s-1", "ana", reveal, revSig, `, request: "`+keyReq+`", reveal: "`+r0+`", nonce: 3`), keys, "verified"},
			{"keys as a Map", event("s-1", "ana", reveal, revSig, `, request: "`+keyReq+`", reveal: "`+r0+`"`), `new Map(Object.entries(` + keys + `))`, "verified"},
			{"another reveal recorded", event("s-1", "ana", reveal, revSig, `, request: "`+keyReq+`", reveal: "`+hex32(run32(0x40))+`"`), keys, "mismatch: the event's reveal is"},
			{"another request recorded", event("s-1", "ana", reveal, revSig, `, request: "`+keyEvent+`", reveal: "`+r0+`"`), keys, "mismatch: the event's request is"},
			{"in another session", event("s-2", "ana", reveal, revSig, `, request: "`+keyReq+`"`), keys, "mismatch: session is"},
			{"signed by another user's key", event("s-1", "bea", reveal, revSig, ``), keys, "mismatch: bad signature"},
			{"a user without a key", event("s-1", "cid", reveal, revSig, ``), keys, "mismatch: no key is registered for user cid"},
			{"no signature", event("s-1", "ana", reveal, "", ``), keys, "mismatch: bad signature"},
			{"a request, its action in another order", event("s-1", "ana", request, reqSig, `, request: "`+keyReq+`", commitment: "`+commit+`", action: {list: [1, 2.5, "x"], note: null, token: false, mod: 0, vs: 7, skill: "Pelea", character: "lodin", command: "roll"}`), keys, "verified"},
			{"a request, its action changed", event("s-1", "ana", request, reqSig, `, action: {command: "roll", character: "lodin", skill: "Pelea", vs: 6, mod: 0, token: false, note: null, list: [1, 2.5, "x"]}`), keys, "mismatch: the event's action is"},
			{"a request, a member added to its action", event("s-1", "ana", request, reqSig, `, action: {command: "roll", character: "lodin", skill: "Pelea", vs: 7, mod: 0, token: false, note: null, list: [1, 2.5, "x"], bonus: 2}`), keys, "mismatch: the event's action is"},
			{"a request, a member dropped from its action", event("s-1", "ana", request, reqSig, `, action: {command: "roll", character: "lodin", skill: "Pelea", vs: 7, mod: 0, token: false, note: null}`), keys, "mismatch: the event's action is"},
			{"a request, another commitment", event("s-1", "ana", request, reqSig, `, commitment: "`+hex32(fill32(1))+`"`), keys, "mismatch: the event's commitment is"},
		}
		for _, tt := range tests {
			got := jsValue(t, b, `const v = await JournalSigned.verifyEvent(`+tt.event+`, `+tt.keys+`); return v.status + ": " + v.reason;`)
			if !strings.HasPrefix(strings.Trim(got, `"`), tt.want) {
				t.Errorf("%s: %s, want %s…", tt.name, got, tt.want)
			}
		}
	})

	t.Run("figures", func(t *testing.T) {
		s, sig := samples[1], signed.Sign(goPriv, samples[1])
		for _, fallback := range []bool{false, true} {
			eval[bool](t, b, fmt.Sprintf(`(JournalSigned.useFallback(%v), true)`, fallback))
			ms := jsValue(t, b, `const t0 = performance.now(); for (let i = 0; i < 100; i++) await JournalSigned.open(`+jsq(goPub.String())+`, `+jsq(s)+`, `+jsq(sig)+`, "mordor", "s-1"); return +((performance.now() - t0) / 100).toFixed(3);`)
			t.Logf("figure: JournalSigned.open of a roll.request (fallback %v): %s ms each", fallback, ms)
		}
		eval[bool](t, b, `(JournalSigned.useFallback(false), true)`)
		ms := jsValue(t, b, `const k = await JournalKeys.loadOrCreate({campaign: "mordor", user: "fig"}); const t0 = performance.now(); for (let i = 0; i < 100; i++) await k.sign(JSON.parse(`+jsq(s)+`)); return +((performance.now() - t0) / 100).toFixed(3);`)
		t.Logf("figure: DeviceKey.sign of a roll.request (encode + Web Crypto Ed25519): %s ms each", ms)
		ms = jsValue(t, b, `const t0 = performance.now(); for (let i = 0; i < 10; i++) { await JournalKeys.create({campaign: "mordor", user: "fig" + i}); } return +((performance.now() - t0) / 10).toFixed(3);`)
		t.Logf("figure: JournalKeys.create (generate + store in IndexedDB): %s ms each", ms)
		jsValue(t, b, `await JournalKeys.forget({campaign: "mordor", user: "fig"}); for (let i = 0; i < 10; i++) await JournalKeys.forget({campaign: "mordor", user: "fig" + i});`)
	})

	t.Run("parse agrees with Go", func(t *testing.T) {
		for _, c := range parseCases() {
			_, goErr := signed.Parse(c.text)
			js := jsError(t, b, fmt.Sprintf(`JournalSigned.parse(%s);`, jsq(c.text)))
			jsOK := js == "no error"
			if (goErr == nil) != jsOK {
				t.Errorf("%s: Go says %v, the browser says %s", c.name, goErr, js)
			}
			if (goErr == nil) != c.ok {
				t.Errorf("%s: Go says %v, want ok=%v", c.name, goErr, c.ok)
			}
		}
	})

	t.Run("one key per campaign and user; replace and forget", func(t *testing.T) {
		// Two tabs' worth of loadOrCreate at once leave one key.
		pair := jsValue(t, b, `const [a, c] = await Promise.all([JournalKeys.loadOrCreate({campaign: "mordor", user: "bea"}), JournalKeys.loadOrCreate({campaign: "mordor", user: "bea"})]); return [a.publicKey === c.publicKey, a.publicKey !== "`+first.PublicKey+`"];`)
		require.Equal(t, `[true,true]`, pair)
		other := readKeyState(t, b, `JournalKeys.loadOrCreate({campaign: "isengard", user: "ana"})`)
		require.NotEqual(t, first.PublicKey, other.PublicKey, "another campaign, another key")
		require.Equal(t, `["isengard/ana","mordor/ana","mordor/bea"]`, jsValue(t, b, `return (await JournalKeys.list()).map(k => k.campaign + "/" + k.user).sort();`))
		// A lost device: a new key replaces the old one.
		replaced := readKeyState(t, b, `JournalKeys.create(`+ana+`, {replace: true})`)
		checkKeyState(t, replaced)
		require.NotEqual(t, first.PublicKey, replaced.PublicKey)
		require.Equal(t, replaced.PublicKey, readKeyState(t, b, `JournalKeys.load(`+ana+`)`).PublicKey)
		require.Equal(t, `[true,null,false]`, jsValue(t, b, `return [await JournalKeys.forget(`+ana+`), await JournalKeys.load(`+ana+`), await JournalKeys.forget(`+ana+`)];`))
		require.Contains(t, jsError(t, b, `await JournalKeys.load({campaign: "Mordor", user: "ana"});`), "KeyError/invalid")
		require.Contains(t, jsError(t, b, `await JournalKeys.create({campaign: "mordor"});`), "KeyError/invalid")
	})
}

func hex32(b [32]byte) string { return fmt.Sprintf("%x", b[:]) }

// jsq writes s as a JavaScript string literal (JSON).
func jsq(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func mustType(t *testing.T, s string) string {
	t.Helper()
	var v struct{ Type string }
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	return v.Type
}

func goOpen(pubHex, text, sig, campaign string) error {
	pub, err := signed.ParsePublicKey(pubHex)
	if err != nil {
		return err
	}
	_, err = signed.Open(pub, text, sig, campaign, "s-1")
	return err
}

type tamperCase struct {
	name                       string
	pub, signed, sig, campaign string
	code                       string // the browser's SignedError code
	want                       error  // Go's sentinel
}

// tamperCases are ways to present a message that is not priv's signature
// of the string, for campaign mordor, session s-1.
func tamperCases(t *testing.T, priv ed25519.PrivateKey, text string) []tamperCase {
	t.Helper()
	pub := signed.PublicKeyOf(priv).String()
	sig := signed.Sign(priv, text)
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	require.NoError(t, err)
	b64 := base64.RawURLEncoding.EncodeToString
	flip := func(i int) string {
		c := append([]byte(nil), raw...)
		c[i] ^= 1
		return b64(c)
	}
	// S + L: the same signature with a non-canonical scalar (malleability).
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994106857111210306690478232838536700486393405", 10) // 2^252 + 27742317777372353535851937790883648493
	le := func(b []byte) *big.Int {
		r := make([]byte, len(b))
		for i := range b {
			r[len(b)-1-i] = b[i]
		}
		return new(big.Int).SetBytes(r)
	}
	sPlusL := new(big.Int).Add(le(raw[32:]), l).FillBytes(make([]byte, 32))
	mall := append(append([]byte(nil), raw[:32]...), make([]byte, 32)...)
	for i := range sPlusL {
		mall[32+i] = sPlusL[31-i]
	}
	// The last character carries 2 bits of the signature and 4 that must be zero.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, sig[len(sig)-1])
	stray := sig[:len(sig)-1] + string(alphabet[last|1])
	other := signed.Sign(goKey(9), text)
	return []tamperCase{
		{"a changed character of the string", pub, strings.Replace(text, `"vs":7`, `"vs":8`, 1), sig, "mordor", "bad-signature", signed.ErrBadSignature},
		{"a space after the string", pub, text + " ", sig, "mordor", "bad-signature", signed.ErrBadSignature},
		{"a bit of R flipped", pub, text, flip(3), "mordor", "bad-signature", signed.ErrBadSignature},
		{"a bit of S flipped", pub, text, flip(40), "mordor", "bad-signature", signed.ErrBadSignature},
		{"S + L (malleated)", pub, text, b64(mall), "mordor", "bad-signature", signed.ErrBadSignature},
		{"padded base64url", pub, text, sig + "==", "mordor", "bad-signature", signed.ErrBadSignature},
		{"a character of standard base64", pub, text, "+" + sig[1:], "mordor", "bad-signature", signed.ErrBadSignature},
		{"stray bits in the last character", pub, text, stray, "mordor", "bad-signature", signed.ErrBadSignature},
		{"truncated signature", pub, text, sig[:85], "mordor", "bad-signature", signed.ErrBadSignature},
		{"empty signature", pub, text, "", "mordor", "bad-signature", signed.ErrBadSignature},
		{"another key's signature", pub, text, other, "mordor", "bad-signature", signed.ErrBadSignature},
		{"the signature under another key", signed.PublicKeyOf(goKey(9)).String(), text, sig, "mordor", "bad-signature", signed.ErrBadSignature},
		{"a key of small order", "0100000000000000000000000000000000000000000000000000000000000000", text, sig, "mordor", "bad-key", signed.ErrBadKey},
		{"a key of small order, sign bit set", "0100000000000000000000000000000000000000000000000000000000000080", text, sig, "mordor", "bad-key", signed.ErrBadKey},
		{"an upper-case key", strings.ToUpper(pub), text, sig, "mordor", "bad-key", signed.ErrBadKey},
		{"a short key", pub[:62], text, sig, "mordor", "bad-key", signed.ErrBadKey},
		{"sent to another campaign", pub, text, sig, "isengard", "wrong-scope", signed.ErrWrongScope},
	}
}

type parseCase struct {
	name string
	text string
	ok   bool
}

func parseCases() []parseCase {
	h := `"campaign":"mordor","session":"s-1"`
	cc := strings.Repeat("cc", 32)
	req := `"request":"` + keyReq + `"`
	return []parseCase{
		{"canonical", `{"type":"session.cosign",` + h + `,"ended":"` + cc + `"}`, true},
		{"whitespace and another member order", " {\n\t\"ended\" : \"" + cc + "\", \"session\":\"s-1\",\"campaign\":\"mordor\",\"type\":\"session.cosign\"}\r\n", true},
		{"escaped letters", `{"type":"session.cosign",` + h + `,"\u0065nded":"` + cc + `"}`, true},
		{"a duplicate member", `{"type":"session.cosign",` + h + `,"ended":"` + cc + `","ended":"` + cc + `"}`, false},
		{"a duplicate member spelt with an escape", `{"type":"session.cosign",` + h + `,"ended":"` + cc + `","\u0065nded":"` + cc + `"}`, false},
		{"a duplicate inside action", `{"type":"roll.request",` + h + `,` + req + `,"action":{"vs":7,"vs":8}}`, false},
		{"a duplicate deep inside action", `{"type":"roll.request",` + h + `,` + req + `,"action":{"a":[{"x":1,"x":2}]}}`, false},
		{"an unknown member", `{"type":"session.cosign",` + h + `,"ended":"` + cc + `","extra":1}`, false},
		{"an unknown type", `{"type":"session.bless",` + h + `}`, false},
		{"no type", `{` + h + `,"ended":"` + cc + `"}`, false},
		{"a number as type", `{"type":7,` + h + `,"ended":"` + cc + `"}`, false},
		{"upper-case hex", `{"type":"session.cosign",` + h + `,"ended":"` + strings.ToUpper(cc) + `"}`, false},
		{"short hex", `{"type":"session.cosign",` + h + `,"ended":"cc"}`, false},
		{"all-zero value", `{"type":"session.contribute",` + h + `,"value":"` + strings.Repeat("00", 32) + `"}`, false},
		{"no value", `{"type":"session.contribute",` + h + `}`, false},
		{"a request without commitment (witnessed)", `{"type":"roll.request",` + h + `,` + req + `,"action":{}}`, true},
		{"a beacon request", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":30662982,"action":{"x":"y"}}`, true},
		{"a beacon request with a commitment", `{"type":"roll.request",` + h + `,` + req + `,"commitment":"` + cc + `","beacon_round":5,"action":{}}`, false},
		{"a fractional beacon round", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":1.5,"action":{}}`, false},
		{"a negative beacon round", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":-1,"action":{}}`, false},
		{"the largest beacon round", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":18446744073709551615,"action":{}}`, true},
		{"a beacon round of 2^64", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":18446744073709551616,"action":{}}`, false},
		{"a beacon round of 0", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":0,"action":{}}`, true},
		{"a beacon round with an exponent", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":1e3,"action":{}}`, false},
		{"a beacon round of 1.0", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":1.0,"action":{}}`, false},
		{"a beacon round of -0", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":-0,"action":{}}`, false},
		{"a long number in action", `{"type":"roll.request",` + h + `,` + req + `,"action":{"x":1` + strings.Repeat("0", 600) + `}}`, true},
		{"a huge exponent in action", `{"type":"roll.request",` + h + `,` + req + `,"action":{"x":1e400}}`, true},
		{"a number as campaign", `{"type":"session.cosign","campaign":7,"session":"s-1","ended":"` + cc + `"}`, false},
		{"a beacon round as a string", `{"type":"roll.request",` + h + `,` + req + `,"beacon_round":"5","action":{}}`, false},
		{"an action that is an array", `{"type":"roll.request",` + h + `,` + req + `,"action":[1]}`, false},
		{"an action that is null", `{"type":"roll.request",` + h + `,` + req + `,"action":null}`, false},
		{"no action", `{"type":"roll.request",` + h + `,` + req + `}`, false},
		{"an upper-case UUID", `{"type":"roll.reveal",` + h + `,"request":"` + strings.ToUpper(keyReq) + `","r":"` + cc + `"}`, false},
		{"a UUID without dashes", `{"type":"roll.reveal",` + h + `,"request":"` + strings.ReplaceAll(keyReq, "-", "") + `","r":"` + cc + `"}`, false},
		{"a reveal", `{"type":"roll.reveal",` + h + `,` + req + `,"r":"` + cc + `"}`, true},
		{"an upper-case campaign", `{"type":"session.cosign","campaign":"Mordor","session":"s-1","ended":"` + cc + `"}`, false},
		{"a campaign with a dot", `{"type":"session.cosign","campaign":"mor.dor","session":"s-1","ended":"` + cc + `"}`, false},
		{"a 65-character session", `{"type":"session.cosign","campaign":"mordor","session":"` + strings.Repeat("s", 65) + `","ended":"` + cc + `"}`, false},
		{"an empty reason", `{"type":"void.consent",` + h + `,"event":"` + keyEvent + `","reason":"  "}`, false},
		{"a reason of 500 bytes", `{"type":"void.consent",` + h + `,"event":"` + keyEvent + `","reason":"` + strings.Repeat("é", 250) + `"}`, true},
		{"a reason of 502 bytes", `{"type":"void.consent",` + h + `,"event":"` + keyEvent + `","reason":"` + strings.Repeat("é", 251) + `"}`, false},
		{"a lone surrogate escape", `{"type":"void.consent",` + h + `,"event":"` + keyEvent + `","reason":"\ud800"}`, false},
		{"a surrogate pair escape", `{"type":"void.consent",` + h + `,"event":"` + keyEvent + `","reason":"\ud83c\udfb2"}`, true},
		{"a raw control character", "{\"type\":\"void.consent\"," + h + ",\"event\":\"" + keyEvent + "\",\"reason\":\"a\x01b\"}", false},
		{"a bad escape", `{"type":"void.consent",` + h + `,"event":"` + keyEvent + `","reason":"\x"}`, false},
		{"trailing garbage", `{"type":"session.cosign",` + h + `,"ended":"` + cc + `"} x`, false},
		{"two objects", `{"type":"session.cosign",` + h + `,"ended":"` + cc + `"}{}`, false},
		{"a trailing comma", `{"type":"session.cosign",` + h + `,"ended":"` + cc + `",}`, false},
		{"an array", `[{"type":"session.cosign",` + h + `,"ended":"` + cc + `"}]`, false},
		{"a string", `"session.cosign"`, false},
		{"empty", ``, false},
		{"too large", `{"type":"roll.request",` + h + `,` + req + `,"action":{"x":"` + strings.Repeat("x", 9000) + `"}}`, false},
		{"a leading zero in action", `{"type":"roll.request",` + h + `,` + req + `,"action":{"x":01}}`, false},
		{"NaN in action", `{"type":"roll.request",` + h + `,` + req + `,"action":{"x":NaN}}`, false},
		{"numbers in action", `{"type":"roll.request",` + h + `,` + req + `,"action":{"x":-0.5e+10,"y":0,"z":[true,false,null]}}`, true},
		{"a null request id", `{"type":"roll.reveal",` + h + `,"request":null,"r":"` + cc + `"}`, false},
		{"a null commitment", `{"type":"roll.request",` + h + `,` + req + `,"commitment":null,"action":{}}`, true},
	}
}

// TestKeysNeedSecureContext: on a page that is not a secure context (plain
// http, not localhost) there is no Web Crypto: keys.js refuses to make or
// load a key, with a KeyError that says why, and never falls back to a key
// that JavaScript could read. Verifying needs no secret: with
// vendor/noble-curves.js loaded it works there too.
func TestKeysNeedSecureContext(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b, _ := insecurePage(t)
	loadScripts(t, b, "dice.js", "signed.js", "keys.js")
	var s struct {
		OK     bool
		Reason string
	}
	require.NoError(t, json.Unmarshal([]byte(jsValue(t, b, `const s = await JournalKeys.supported(); return {OK: s.ok, Reason: s.reason};`)), &s))
	require.False(t, s.OK)
	require.Contains(t, s.Reason, "not a secure context")
	scope := `{campaign: "mordor", user: "ana"}`
	for _, call := range []string{`JournalKeys.create(` + scope + `)`, `JournalKeys.loadOrCreate(` + scope + `)`, `JournalKeys.load(` + scope + `)`, `JournalKeys.list()`, `JournalKeys.forget(` + scope + `)`} {
		got := jsError(t, b, `await `+call+`;`)
		require.True(t, strings.HasPrefix(got, "KeyError/unsupported: no device key: Web Crypto is not available (this page is not a secure context"), "%s: %s", call, got)
	}
	// Nothing was stored: the page cannot even open IndexedDB's key database.
	require.Equal(t, `false`, jsValue(t, b, `return typeof indexedDB !== "undefined" && (await indexedDB.databases()).some(d => d.name === JournalKeys.DB_NAME);`))

	priv := goKey(7)
	text := keySamples(t)[3]
	sig := signed.Sign(priv, text)
	pub := signed.PublicKeyOf(priv).String()
	call := fmt.Sprintf(`return (await JournalSigned.open(%s, %s, %s, "mordor", "s-1")).type;`, jsq(pub), jsq(text), jsq(sig))
	require.Contains(t, jsError(t, b, call), "SignedError/unsupported")
	loadScripts(t, b, "vendor/noble-curves.js")
	require.Equal(t, `"roll.reveal"`, jsValue(t, b, call))
	require.Equal(t, `"`+signed.Fingerprint(signed.PublicKeyOf(priv))+`"`, jsValue(t, b, fmt.Sprintf(`return JournalSigned.fingerprint(%s);`, jsq(pub))))
	for _, c := range tamperCases(t, priv, keySamples(t)[1]) {
		js := jsError(t, b, fmt.Sprintf(`await JournalSigned.open(%s, %s, %s, %s, "s-1");`, jsq(c.pub), jsq(c.signed), jsq(c.sig), jsq(c.campaign)))
		if !strings.HasPrefix(js, "SignedError/"+c.code+":") {
			t.Errorf("%s: the browser says %s, want code %s", c.name, js, c.code)
		}
	}
}
