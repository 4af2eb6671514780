package audit_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/replay"
	repro "github.com/campaign-journal/journal/reproduce"
)

func TestWhereAndNoEvents(t *testing.T) {
	require.Equal(t, "x.jsonl", audit.Where("x.jsonl", "mordor"))
	require.Equal(t, "campaign mordor", audit.Where("", "mordor"))
	require.Equal(t, "the journal", audit.Where("", ""))
	require.EqualError(t, audit.NoEvents("x.jsonl", "mordor"), "x.jsonl has no events of campaign mordor")
	require.EqualError(t, audit.NoEvents("x.jsonl", ""), "x.jsonl has no events")
	require.EqualError(t, audit.NoEvents("", ""), "the journal has no events")
	require.EqualError(t, audit.NoSession("s9", "campaign mordor"), "no session s9 in campaign mordor")
}

func TestVerdict(t *testing.T) {
	ok := replay.Report{}
	bad := replay.Report{Totals: replay.Totals{Mismatches: 2}}
	flagged := replay.Report{Sessions: []replay.SessionReport{{Flags: []replay.Flag{{}, {}}}}}
	alarms := []device.Alarm{{Text: "the record lacks seq 4"}}

	require.NoError(t, audit.Verdict(ok, 0, nil))
	for _, tt := range []struct {
		rep    replay.Report
		lost   uint64
		unheld []device.Alarm
		want   string
		is     error
	}{
		{bad, 3, alarms, "messages lost from the stream: 3; the journal's record is not whole (restore it from a backup)", exitcode.ErrMismatch},
		{ok, 0, alarms, "the record does not hold what this device signed: the record lacks seq 4", exitcode.ErrMismatch},
		{bad, 0, alarms, bad.Failure(), exitcode.ErrMismatch},
		{flagged, 0, nil, "verified with flags: 2 flags, no mismatch", exitcode.ErrFlagged},
	} {
		err := audit.Verdict(tt.rep, tt.lost, tt.unheld)
		require.EqualError(t, err, tt.want)
		require.True(t, errors.Is(err, tt.is), "%v", err)
	}
	require.NoError(t, audit.Reproduced(repro.Report{}))
	err := audit.Reproduced(repro.Report{Totals: repro.Totals{Mismatches: 1}})
	require.True(t, errors.Is(err, exitcode.ErrMismatch), "%v", err)
}
