package audit

import (
	"fmt"
	"strings"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/replay"
	repro "github.com/campaign-journal/journal/reproduce"
)

// The verdict of an audit (journal replay), once its report is printed:
// which error the command exits with, in which words. Errors are written
// in English; exitcode.Report renders them in the output's language (the
// err.… keys are in its catalogue).

// Where names an audit's input in messages: the export file, else the
// campaign, else the whole journal.
func Where(file, campaign string) string {
	switch {
	case file != "":
		return file
	case campaign != "":
		return "campaign " + campaign
	}
	return "the journal"
}

// NoEvents is the error of an audit whose input has no events: the export
// file, none of campaign's (when campaign is given), or the journal. A
// campaign of the journal with no events is the caller's to name: it may
// not exist.
func NoEvents(file, campaign string) error {
	if file != "" && campaign != "" {
		return msgerr.Errorf("%s has no events of campaign %s", file, campaign)
	}
	return msgerr.Errorf("%s has no events", Where(file, campaign))
}

// NoSession is the error of an audit of --session session that found no
// such session in where (Where).
func NoSession(session, where string) error {
	return msgerr.Errorf("no session %s in %s", clip.Text(session), where)
}

// Verdict is the outcome of a verification (replay.Verify) once its
// report and its proofs' results are printed: nil, or the first of
//   - lost messages (lost, what Losses.Report counted): the events read
//     may all verify, the record is still not whole; exit Mismatch;
//   - unheld, the alarms of receipts the audit was given to check (--receipts;
//     the device's own receipts only warn), when the report is OK: the
//     record does not hold what the device signed; exit Mismatch;
//   - the report's mismatches (replay.Report.Failure); exit Mismatch;
//   - the report's flags, with no mismatch; exit Flagged.
func Verdict(rep replay.Report, lost uint64, unheld []device.Alarm) error {
	if lost > 0 {
		return exitcode.MismatchError{Message: fmt.Sprintf("messages lost from the stream: %d; the journal's record is not whole (restore it from a backup)", lost)}
	}
	if len(unheld) > 0 && rep.OK() {
		return exitcode.MismatchError{Message: fmt.Sprintf("the record does not hold what this device signed: %s", unheld[0].Text)}
	}
	if !rep.OK() {
		return exitcode.MismatchError{Message: rep.Failure()}
	}
	if n := rep.Flagged(); n > 0 {
		// Errors are English, as every error of the journal.
		return msgerr.Errorf("%w: %s, no mismatch", exitcode.ErrFlagged, strings.TrimPrefix(i18n.EN.N("rp2.ok_flagged", n), "OK with "))
	}
	return nil
}

// Reproduced is the outcome of a reproduction (reproduce.Run) once its
// report is printed: nil, or a mismatch that counts the commands whose
// results differ (exit Mismatch).
func Reproduced(rep repro.Report) error {
	if !rep.OK() {
		return exitcode.MismatchError{Message: i18n.EN.N("err.reproduction_differs", rep.Totals.Mismatches)}
	}
	return nil
}
