package device

import (
	"crypto/rand"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// TestDomainsApart: a request id is the same for a retry and another for
// any other input; no derivation string is another's or a signed message.
func TestDomainsApart(t *testing.T) {
	a := RequestID("mordor", "s1", "ana", "cli-1")
	if a != RequestID("mordor", "s1", "ana", "cli-1") {
		t.Fatal("a retry is another request")
	}
	for _, b := range []string{RequestID("mordor", "s1", "ana", "cli-2"), RequestID("mordor", "s2", "ana", "cli-1"), RequestID("mordor", "s1", "bea", "cli-1")} {
		if a == b {
			t.Fatalf("two requests share the id %s", a)
		}
	}
	if u := uuid.MustParse(a); u.Version() != 5 {
		t.Fatalf("request id %s: version %d, want a name-based UUID (5)", a, u.Version())
	}
	for _, d := range []string{RevealDomain, LegacyWitnessDomain} {
		if !strings.HasPrefix(d, "journal-dice-v2|") || strings.HasPrefix(d, "{") {
			t.Fatalf("domain %q", d)
		}
	}
	if RevealDomain == LegacyWitnessDomain {
		t.Fatal("two derivations share a domain")
	}
	k, err := NewStore(t.TempDir()).New("k", NewOptions{Rand: rand.Reader})
	if err != nil {
		t.Fatal(err)
	}
	r := k.RevealSecret("mordor", "s1", "ana", a)
	w := k.LegacyWitnessValue("mordor", "s1", "ana", a, "cli-1")
	if r == [32]byte(w) {
		t.Fatal("a reveal secret equals a witness value")
	}
}
