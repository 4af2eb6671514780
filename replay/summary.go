package replay

import (
	"fmt"
	"io"

	"github.com/campaign-journal/journal/i18n"
)

// Failure is the one-line English summary of an audit that is not OK:
// its mismatches, and the messages that are not events if any (the
// err.… keys of the catalogue, so that an error made of it renders in the
// output's language).
func (r Report) Failure() string {
	msg := i18n.EN.N("err.verification_failed", r.Totals.Mismatches)
	if r.Totals.Foreign > 0 {
		msg += i18n.EN.N("err.not_journal_events", r.Totals.Foreign)
	}
	return msg
}

// WriteSummary writes the short English account of an audit that
// journal restore prints: what is not an event, in journal replay's
// words, and one line of totals with the verdict.
func (r Report) WriteSummary(w io.Writer) {
	en := i18n.EN
	if len(r.Foreign) > 0 || r.ForeignOmitted > 0 {
		fmt.Fprintln(w, en.T("rp.foreign_head"))
		for _, m := range r.Foreign {
			fmt.Fprintf(w, "  %s  %s\n", en.T("rp.foreign"), m)
		}
		if r.ForeignOmitted > 0 {
			fmt.Fprintln(w, "  "+en.T("rp.and_more", r.ForeignOmitted))
		}
	}
	t := r.Totals
	verdict := "verified"
	if !r.OK() {
		verdict = "verification failed"
	}
	fmt.Fprintf(w, "%s: %d events, %d sessions (%d verified, %d not yet revealed), %d rolls verified, %d mismatches",
		verdict, t.Events, t.Sessions, t.SessionsVerified, t.SessionsUnrevealed, t.Verified, t.Mismatches)
	if t.Foreign > 0 {
		fmt.Fprint(w, ", "+en.N("rp.not_events", t.Foreign))
	}
	fmt.Fprintln(w)
}
