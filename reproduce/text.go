package reproduce

import (
	"bufio"
	"fmt"
	"io"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
)

// WriteText writes the reproduction in English (WriteTextIn).
func (r Report) WriteText(w io.Writer) error { return r.WriteTextIn(w, i18n.EN) }

// WriteTextIn writes the reproduction for people, in l: one summary line
// per session with one line per difference under it, one line per campaign
// (how far it went and whether the final sheets agree), the differences
// outside the sessions, the transcript of what was reproduced (as
// recorded), and a last line with the totals and the verdict.
func (r Report) WriteTextIn(w io.Writer, l i18n.Lang) error {
	bw := bufio.NewWriter(w)
	for _, s := range r.Sessions {
		fmt.Fprint(bw, l.T("rr.session", s.Campaign, s.Session, orCode(l, "rp.status.", string(s.Status)),
			l.N("rr.commands", s.Commands), l.N("rr.compared", s.Events), l.N("rr.identical", s.Identical, s.Rolls)))
		if s.SeedSource != "" {
			fmt.Fprint(bw, l.T("rp.seed", orCode(l, "rp.seed.", s.SeedSource)))
		}
		fmt.Fprintln(bw)
		replay.WriteMismatchesIn(bw, l, s.Mismatches, s.Omitted)
	}
	for _, c := range r.Campaigns {
		fmt.Fprint(bw, l.T("rr.campaign", c.Campaign, l.N("rr.reproduced", c.Reproduced, c.Events, c.Commands)))
		if c.Copied > 0 {
			fmt.Fprint(bw, ", "+l.N("rr.copied", c.Copied))
		}
		if c.Skipped > 0 {
			fmt.Fprint(bw, ", "+l.N("rr.skipped", c.Skipped))
		}
		if c.Stopped != "" {
			fmt.Fprint(bw, l.T("rr.stopped", c.StoppedIn(l)))
		}
		sheets := l.T("rr.sheets_identical")
		if !c.SheetsIdentical {
			sheets = l.T("rr.sheets_different")
		}
		fmt.Fprintln(bw, l.N("rr.sheets", c.Characters, sheets))
	}
	if len(r.Mismatches) > 0 || r.Omitted > 0 {
		fmt.Fprintln(bw, l.T("rp.outside"))
		replay.WriteMismatchesIn(bw, l, r.Mismatches, r.Omitted)
	}
	for _, c := range r.Campaigns {
		if len(c.Transcript) == 0 {
			continue
		}
		fmt.Fprintln(bw)
		fmt.Fprintln(bw, l.T("rr.transcript", c.Campaign))
		for _, t := range c.Transcript {
			fmt.Fprintf(bw, "  %s  %s\n", t.Time.Format("2006-01-02 15:04:05"), t.Text)
		}
		fmt.Fprintln(bw)
	}
	t := r.Totals
	verdict := l.T("rr.identical_verdict")
	if !r.OK() {
		verdict = l.T("rr.different_verdict")
	}
	fmt.Fprintln(bw, verdict+": "+l.N("rp.events", t.Events)+", "+l.N("rr.commands", t.Commands)+", "+
		l.N("rr.events_reproduced", t.Reproduced)+", "+l.N("rr.copied_short", t.Copied)+", "+l.N("rr.skipped", t.Skipped)+"; "+
		l.N("rp.sessions", t.Sessions)+" ("+l.N("rr.s_identical", t.SessionsIdentical)+", "+l.N("rr.s_different", t.SessionsDifferent)+", "+
		l.N("rp.s_unrevealed", t.SessionsUnrevealed)+"); "+l.N("rr.identical", t.RollsIdentical, t.Rolls)+"; "+l.N("rr.differences", t.Mismatches))
	return bw.Flush()
}

// orCode looks up prefix+code in l; a code the catalogue lacks prints as it is.
func orCode(l i18n.Lang, prefix, code string) string {
	k := i18n.Key(prefix + code)
	if s := l.T(k); s != string(k) {
		return s
	}
	return code
}
