package signed_test

import (
	"crypto/ed25519"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// A device's commit-then-reveal, as the CLI or the browser runs it, and
// what the journal (or any verifier) checks.
func Example() {
	seed := make([]byte, ed25519.SeedSize) // all zero: public key 3b6a27bc…da29; a real device uses crypto/rand
	priv := ed25519.NewKeyFromSeed(seed)
	pub := signed.PublicKeyOf(priv)
	fmt.Println("fingerprint", pub.Fingerprint())

	var r [32]byte // the device's secret, from crypto/rand
	r[0] = 7
	commit, _ := dice.ParseHex32(dice.RevealCommitment(r))
	req := &signed.Request{
		Header:     signed.Header{Campaign: "camp-1", Session: "sess-1"},
		Request:    "0193a5b0-7c1e-7d2a-9f00-1234567890ab",
		Commitment: commit,
		Action:     jsontext.Value(`{"command":"roll","character":"lodin","skill":"Pelea","vs":7}`),
	}
	text, _ := signed.Encode(req)
	sig := signed.Sign(priv, text)
	fmt.Println(text)

	// The journal: verify, parse, check the scope, then judge the action.
	m, err := signed.Open(pub, text, sig, "camp-1", "sess-1")
	fmt.Println(m.Kind(), err)

	// Once the request is recorded, the device reveals r.
	revText, _ := signed.Encode(&signed.Reveal{Header: req.Header, Request: req.Request, R: signed.Hex32(r)})
	rev, _ := signed.Open(pub, revText, signed.Sign(priv, revText), "camp-1", "sess-1")
	fmt.Println(signed.CheckReveal(m.(*signed.Request), rev.(*signed.Reveal)))

	// A tampered string does not verify.
	_, err = signed.Open(pub, text[:len(text)-2]+"8}}", sig, "camp-1", "sess-1")
	fmt.Println(err != nil)
	// Output:
	// fingerprint 139e:3940:e64b:5491:7220:88d9:a0d7:4162
	// {"type":"roll.request","campaign":"camp-1","session":"sess-1","request":"0193a5b0-7c1e-7d2a-9f00-1234567890ab","commitment":"f5411ec7e51e46159c654bdbdf3cc20785a217b87384810ed2e541dc0016943a","action":{"command":"roll","character":"lodin","skill":"Pelea","vs":7}}
	// roll.request <nil>
	// <nil>
	// true
}
