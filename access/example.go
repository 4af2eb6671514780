package access

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"slices"
)

// The example users of deploy/access.example.json, whose credentials are
// published with the repository: passwords "<name>-change-me" (bcrypt
// hashes in the file) and tokens "<name>-token-change-me" (sha256 hashes).
// Whoever reads the repository signs in with them, the journal user with
// every permission.
var (
	exampleNames          = []string{"journal", "ana", "bea", "cai", "wall"}
	examplePasswordHashes = []string{
		"$2a$11$RwQNDzk.daLjGjyqCY64J.mV/NXMMYzNm3GuVzT0h0rxpuXMWJL3e", // journal
		"$2a$11$mKk57gs8p2I/dSqi/qC9OOJDxgvQvExPf.PyPWnITteloRySStNCi", // ana
		"$2a$11$JUPTMiyksOlIJ0YCd2MSReOwwN5ByLtzTWCQd382Q/sJ88dxjP/B2", // bea
		"$2a$11$YhCMyIJRCr6pqb9xOEpG2uyKbzMtKO1Vh/SxT/inWdchbVTyFku9e", // cai
		"$2a$11$JIj.1DSjejSScYD63YB6/eavC3uItQQWOf0VRcny.da13ReSegdG.", // wall
	}
)

// ExamplePassword reports whether password is one of the example
// passwords published with the repository (plain, or as the example file's
// bcrypt hash).
func ExamplePassword(password string) bool {
	if password == "" {
		return false
	}
	if slices.Contains(examplePasswordHashes, password) {
		return true
	}
	for _, n := range exampleNames {
		if password == n+"-change-me" {
			return true
		}
	}
	return false
}

// exampleToken reports whether a configured token (plain or "sha256:") is
// one of the example tokens published with the repository.
func exampleToken(tok string) bool {
	sum, err := tokenHash(tok)
	if err != nil {
		return false
	}
	for _, n := range exampleNames {
		want := sha256.Sum256([]byte(n + "-token-change-me"))
		if subtle.ConstantTimeCompare(sum[:], want[:]) == 1 {
			return true
		}
	}
	return false
}

// ExampleCredentials lists, one line each, the users of c that still sign
// in with a credential published with the repository (an example password
// or token of deploy/access.example.json): `journal serve` warns about each
// at start. Empty when none is.
func (c *Config) ExampleCredentials() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, u := range c.Users {
		if ExamplePassword(u.Password) {
			out = append(out, fmt.Sprintf("user %q (%s) signs in to NATS with the example password of deploy/access.example.json", u.Name, u.Role))
		}
		for _, tok := range u.Tokens {
			if exampleToken(tok) {
				out = append(out, fmt.Sprintf("user %q (%s) has an example HTTP token of deploy/access.example.json", u.Name, u.Role))
				break
			}
		}
	}
	return out
}
