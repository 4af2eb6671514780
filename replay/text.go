package replay

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/campaign-journal/journal/i18n"
)

// WriteText writes the report in English (WriteTextIn).
func (r Report) WriteText(w io.Writer) error { return r.WriteTextIn(w, i18n.EN) }

// WriteTextIn writes the report for people in l: one summary line per
// session, one line per mismatch under it, the campaigns refolded, the
// mismatches that belong to no session, and a last line with the totals
// and the verdict. Counts read in the right number ("1 session").
func (r Report) WriteTextIn(w io.Writer, l i18n.Lang) error {
	bw := bufio.NewWriter(w)
	for _, s := range r.Sessions {
		fmt.Fprint(bw, l.T("rp.session", s.Campaign, s.Session, statusName(l, s.Status),
			join(l.N("rp.rolls_checked", s.Rolls), l.N("rp.verified", s.Verified), l.N("rp.unverifiable", s.Unverifiable), l.N("rp.voided", len(s.Voided)))))
		switch {
		case s.SeedSource != "":
			fmt.Fprint(bw, l.T("rp.seed", orCode(l, "rp.seed.", s.SeedSource)))
		case !s.Ended:
			fmt.Fprint(bw, l.T("rp.not_ended"))
		}
		fmt.Fprintln(bw)
		for _, v := range s.Voided {
			fmt.Fprintln(bw, "  "+l.T("rp.voided_line", v.Nonce, v.EventID, v.VoidedBy, v.Reason))
		}
		writeV2Session(bw, l, s)
		WriteMismatchesIn(bw, l, s.Mismatches, s.Omitted)
	}
	for _, c := range r.Campaigns {
		parts := []string{l.N("rp.events_folded", c.Events), l.N("rp.characters", c.Characters), l.N("rp.sessions", c.Sessions)}
		if c.FoldErrors > 0 {
			parts = append(parts, l.N("rp.fold_errors", c.FoldErrors))
		}
		fmt.Fprintln(bw, l.T("rp.campaign", c.Campaign, join(parts...)))
		writeDevices(bw, l, c.Devices) // v2_devices_text.go
		writeFlags(bw, l, c.Flags)
	}
	if len(r.Mismatches) > 0 || r.Omitted > 0 {
		fmt.Fprintln(bw, l.T("rp.outside"))
		WriteMismatchesIn(bw, l, r.Mismatches, r.Omitted)
	}
	if len(r.Foreign) > 0 || r.ForeignOmitted > 0 {
		fmt.Fprintln(bw, l.T("rp.foreign_head"))
		for _, m := range r.Foreign {
			fmt.Fprintf(bw, "  %s  %s\n", l.T("rp.foreign"), foreignIn(l, m))
		}
		if r.ForeignOmitted > 0 {
			fmt.Fprintln(bw, "  "+l.T("rp.and_more", r.ForeignOmitted))
		}
	}
	t := r.Totals
	verdict := l.T("rp.ok")
	if !r.OK() {
		verdict = l.T("rp.failed")
	} else if n := r.Flagged(); n > 0 {
		verdict = l.N("rp2.ok_flagged", n) // v2_flags.go
	}
	sessions := l.N("rp.sessions", t.Sessions) + " (" + join(l.N("rp.verified", t.SessionsVerified),
		l.N("rp.s_mismatch", t.SessionsMismatch), l.N("rp.s_unrevealed", t.SessionsUnrevealed)) + ")"
	line := verdict + ": " + join(l.N("rp.events", t.Events), sessions, l.N("rp.rolls_checked", t.Rolls),
		l.N("rp.verified", t.Verified), l.N("rp.unverifiable", t.Unverifiable), l.N("rp.voided", t.Voided), l.N("rp.mismatches", t.Mismatches))
	if t.Foreign > 0 {
		line += ", " + l.N("rp.not_events", t.Foreign)
	}
	fmt.Fprintln(bw, line)
	return bw.Flush()
}

// foreignIn is m.String in l (the reason, a decoder's error, stays as it
// is).
func foreignIn(l i18n.Lang, m ForeignMessage) string {
	switch {
	case m.Line != 0:
		return l.T("rp.foreign_line", m.Line, m.Reason)
	case m.Subject != "":
		return l.T("rp.foreign_seq", m.Seq, m.Subject, m.Reason)
	}
	return l.T("rp.foreign_other", m.Reason)
}

// join lists parts with commas.
func join(parts ...string) string { return strings.Join(parts, ", ") }

// statusName is a session's verdict in l.
func statusName(l i18n.Lang, s Status) string { return orCode(l, "rp.status.", string(s)) }

// orCode looks up prefix+code in l; a code the catalogue lacks prints as it is.
func orCode(l i18n.Lang, prefix, code string) string {
	k := i18n.Key(prefix + code)
	if s := l.T(k); s != string(k) {
		return s
	}
	return code
}

// WriteMismatches writes the mismatches in English (WriteMismatchesIn).
func WriteMismatches(w io.Writer, ms []Mismatch, omitted int) {
	WriteMismatchesIn(w, i18n.EN, ms, omitted)
}

// WriteMismatchesIn writes one line per mismatch in l, and how many were
// left out.
func WriteMismatchesIn(w io.Writer, l i18n.Lang, ms []Mismatch, omitted int) {
	for _, m := range ms {
		fmt.Fprintf(w, "  %s %-15s", l.T("rp.mismatch"), orCode(l, "mkind.", string(m.Kind)))
		if m.EventID != "" {
			fmt.Fprint(w, l.T("rp.m_event", m.EventID))
		}
		if m.Seq != 0 {
			fmt.Fprint(w, l.T("rp.m_seq", m.Seq))
		} else if m.Position != 0 {
			fmt.Fprintf(w, " #%d", m.Position)
		}
		if m.Session != "" {
			fmt.Fprint(w, l.T("rp.m_session", m.Session))
		}
		if m.Nonce != nil {
			fmt.Fprintf(w, " nonce %d", *m.Nonce)
		}
		fmt.Fprintf(w, ": %s\n", m.WhatIn(l))
	}
	if omitted > 0 {
		fmt.Fprintln(w, "  "+l.N("rp.more_mismatches", omitted))
	}
}
