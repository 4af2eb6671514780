package audit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
)

// TestProofResults: a recorded roll's proof is told on w (nothing on a
// nil w), a flagged one is not, and a proof that does not hold is why the
// check fails.
func TestProofResults(t *testing.T) {
	rep := replay.Report{Proofs: []replay.ProofResult{
		{File: "a.proof", Status: replay.ProofRecorded, What: "request r1 is recorded"},
		{File: "b.proof", Status: replay.ProofFlagged, What: "flagged"},
		{File: "c.proof", Status: replay.ProofBad, What: "wrong key"},
	}}
	var w strings.Builder
	bad := ProofResults(&w, i18n.EN, rep)
	require.Equal(t, "  request r1 is recorded\n", w.String())
	require.Equal(t, []string{"proof file c.proof: wrong key"}, bad)
	require.Equal(t, bad, ProofResults(nil, i18n.EN, rep))
	require.Empty(t, ProofResults(nil, i18n.EN, replay.Report{Proofs: rep.Proofs[:2]}))
}
