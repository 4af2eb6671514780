package replay

// Verdict is a report's verdict in one word, the one every verifier of
// the journal gives on the same bytes (docs/design.md §3.3, "One verdict
// everywhere"; the browser's is web/static/verify.js's summary).
type Verdict string

// The verdicts, from the worst.
const (
	// VerdictMismatch: at least one mismatch (`journal replay` exits 4).
	VerdictMismatch Verdict = "mismatch"
	// VerdictForeign: no mismatch, but input that is not a journal event
	// (exits 4 too: its contents cannot be checked).
	VerdictForeign Verdict = "foreign"
	// VerdictFlagged: verified, with flags (exits 5).
	VerdictFlagged Verdict = "flagged"
	// VerdictOK: verified, nothing flagged (exits 0). Sessions not yet
	// revealed may remain (Totals.SessionsUnrevealed).
	VerdictOK Verdict = "ok"
)

// Verdict is the report's verdict.
func (r Report) Verdict() Verdict {
	switch {
	case r.Totals.Mismatches > 0:
		return VerdictMismatch
	case r.Totals.Foreign > 0:
		return VerdictForeign
	case r.Flagged() > 0:
		return VerdictFlagged
	}
	return VerdictOK
}
