package replay

import (
	"bufio"
	"fmt"
	"io"
)

// WriteText writes the report for people: one summary line per session, one
// line per mismatch under it, the campaigns refolded, the mismatches that
// belong to no session, and a last line with the totals and the verdict.
func (r Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, s := range r.Sessions {
		fmt.Fprintf(bw, "session %s/%s: %s — %d rolls checked, %d verified, %d unverifiable, %d voided",
			s.Campaign, s.Session, s.Status, s.Rolls, s.Verified, s.Unverifiable, len(s.Voided))
		switch {
		case s.SeedSource != "":
			fmt.Fprintf(bw, " (seed %s)", s.SeedSource)
		case !s.Ended:
			fmt.Fprint(bw, " (session not ended)")
		}
		fmt.Fprintln(bw)
		for _, v := range s.Voided {
			fmt.Fprintf(bw, "  voided  nonce %d  event %s  by %s: %s\n", v.Nonce, v.EventID, v.VoidedBy, v.Reason)
		}
		writeV2Session(bw, s)
		WriteMismatches(bw, s.Mismatches, s.Omitted)
	}
	for _, c := range r.Campaigns {
		fmt.Fprintf(bw, "campaign %s: %d events folded, %d characters, %d sessions", c.Campaign, c.Events, c.Characters, c.Sessions)
		if c.FoldErrors > 0 {
			fmt.Fprintf(bw, ", %d fold errors", c.FoldErrors)
		}
		fmt.Fprintln(bw)
		writeFlags(bw, c.Flags)
	}
	if len(r.Mismatches) > 0 || r.Omitted > 0 {
		fmt.Fprintln(bw, "outside the sessions:")
		WriteMismatches(bw, r.Mismatches, r.Omitted)
	}
	if len(r.Foreign) > 0 || r.ForeignOmitted > 0 {
		fmt.Fprintln(bw, "not journal events (written past the commands; their contents cannot be checked):")
		for _, m := range r.Foreign {
			fmt.Fprintf(bw, "  FOREIGN  %s\n", m)
		}
		if r.ForeignOmitted > 0 {
			fmt.Fprintf(bw, "  … and %d more\n", r.ForeignOmitted)
		}
	}
	t := r.Totals
	verdict := "OK"
	if !r.OK() {
		verdict = "FAILED"
	}
	fmt.Fprintf(bw, "%s: %d events, %d sessions (%d verified, %d mismatch, %d not yet revealed), %d rolls checked, %d verified, %d unverifiable, %d voided, %d mismatches",
		verdict, t.Events, t.Sessions, t.SessionsVerified, t.SessionsMismatch, t.SessionsUnrevealed,
		t.Rolls, t.Verified, t.Unverifiable, t.Voided, t.Mismatches)
	if t.Foreign > 0 {
		fmt.Fprintf(bw, ", %d messages that are not events", t.Foreign)
	}
	fmt.Fprintln(bw)
	return bw.Flush()
}

// WriteMismatches writes one line per mismatch, and how many were left out.
func WriteMismatches(w io.Writer, ms []Mismatch, omitted int) {
	for _, m := range ms {
		fmt.Fprintf(w, "  MISMATCH %-15s", m.Kind)
		if m.EventID != "" {
			fmt.Fprintf(w, " event %s", m.EventID)
		}
		if m.Seq != 0 {
			fmt.Fprintf(w, " seq %d", m.Seq)
		} else if m.Position != 0 {
			fmt.Fprintf(w, " #%d", m.Position)
		}
		if m.Session != "" {
			fmt.Fprintf(w, " session %s", m.Session)
		}
		if m.Nonce != nil {
			fmt.Fprintf(w, " nonce %d", *m.Nonce)
		}
		fmt.Fprintf(w, ": %s\n", m.What)
	}
	if omitted > 0 {
		fmt.Fprintf(w, "  … and %d more mismatches\n", omitted)
	}
}
