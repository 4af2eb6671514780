package replay

import (
	"bytes"
	"strings"
	"testing"
)

// TestSummary: the restore's account says verified or failed from the
// totals, and counts what is not an event; Failure names both.
func TestSummary(t *testing.T) {
	var b bytes.Buffer
	ok := Report{Totals: Totals{Events: 9, Sessions: 1, SessionsVerified: 1, Verified: 3}}
	ok.WriteSummary(&b)
	if got := b.String(); got != "verified: 9 events, 1 sessions (1 verified, 0 not yet revealed), 3 rolls verified, 0 mismatches\n" {
		t.Fatalf("%q", got)
	}
	b.Reset()
	bad := Report{Totals: Totals{Events: 9, Mismatches: 2, Foreign: 1}, Foreign: []ForeignMessage{{Seq: 4, Reason: "not JSON"}}}
	bad.WriteSummary(&b)
	out := b.String()
	if !strings.HasPrefix(strings.Split(out, "\n")[len(strings.Split(out, "\n"))-2], "verification failed: 9 events") || !strings.Contains(out, "not JSON") {
		t.Fatalf("%s", out)
	}
	if f := bad.Failure(); !strings.Contains(f, "2 mismatches") || !strings.Contains(f, "1") {
		t.Fatalf("%q", f)
	}
}
