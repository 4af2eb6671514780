package reproduce

import (
	"bufio"
	"fmt"
	"io"

	"github.com/campaign-journal/journal/replay"
)

// WriteText writes the reproduction for people: one summary line per
// session with one line per difference under it, one line per campaign
// (how far it went and whether the final sheets agree), the differences
// outside the sessions, the transcript of what was reproduced, and a last
// line with the totals and the verdict.
func (r Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, s := range r.Sessions {
		fmt.Fprintf(bw, "session %s/%s: %s — %d commands re-run, %d events compared, %d of %d rolls identical nonce by nonce",
			s.Campaign, s.Session, s.Status, s.Commands, s.Events, s.Identical, s.Rolls)
		if s.SeedSource != "" {
			fmt.Fprintf(bw, " (seed %s)", s.SeedSource)
		}
		fmt.Fprintln(bw)
		replay.WriteMismatches(bw, s.Mismatches, s.Omitted)
	}
	for _, c := range r.Campaigns {
		fmt.Fprintf(bw, "campaign %s: %d of %d events reproduced by %d commands", c.Campaign, c.Reproduced, c.Events, c.Commands)
		if c.Copied > 0 {
			fmt.Fprintf(bw, ", %d copied as recorded", c.Copied)
		}
		if c.Skipped > 0 {
			fmt.Fprintf(bw, ", %d not reproduced", c.Skipped)
		}
		if c.Stopped != "" {
			fmt.Fprintf(bw, " (stopped: %s)", c.Stopped)
		}
		sheets := "identical"
		if !c.SheetsIdentical {
			sheets = "DIFFERENT"
		}
		fmt.Fprintf(bw, "; final sheets of %d characters %s\n", c.Characters, sheets)
	}
	if len(r.Mismatches) > 0 || r.Omitted > 0 {
		fmt.Fprintln(bw, "outside the sessions:")
		replay.WriteMismatches(bw, r.Mismatches, r.Omitted)
	}
	for _, c := range r.Campaigns {
		if len(c.Transcript) == 0 {
			continue
		}
		fmt.Fprintf(bw, "\ntranscript of the reproduction (%s):\n", c.Campaign)
		for _, l := range c.Transcript {
			fmt.Fprintf(bw, "  %s  %s\n", l.Time.Format("2006-01-02 15:04:05"), l.Text)
		}
		fmt.Fprintln(bw)
	}
	t := r.Totals
	verdict := "IDENTICAL"
	if !r.OK() {
		verdict = "DIFFERENT"
	}
	fmt.Fprintf(bw, "%s: %d events, %d commands re-run, %d events reproduced, %d copied, %d not reproduced; %d sessions (%d identical, %d different, %d not yet revealed); %d of %d rolls identical; %d differences\n",
		verdict, t.Events, t.Commands, t.Reproduced, t.Copied, t.Skipped, t.Sessions, t.SessionsIdentical,
		t.SessionsDifferent, t.SessionsUnrevealed, t.RollsIdentical, t.Rolls, t.Mismatches)
	return bw.Flush()
}
