package audit

import (
	"fmt"
	"io"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
)

// ProofResults writes on w (nil: nothing), in l, what replay concluded of
// each proof file of rep that is not a flag (a recorded roll's), and
// returns, in l, why each proof that does not hold fails (none: they all
// hold).
func ProofResults(w io.Writer, l i18n.Lang, rep replay.Report) []string {
	var bad []string
	for _, p := range rep.Proofs {
		switch p.Status {
		case replay.ProofRecorded:
			if w != nil {
				fmt.Fprintln(w, "  "+p.WhatIn(l))
			}
		case replay.ProofBad:
			bad = append(bad, l.T("rp2.proof.bad", p.File, p.WhatIn(l)))
		}
	}
	return bad
}
