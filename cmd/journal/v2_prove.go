package main

// `journal roll prove REQUEST`: the CLI as the device that made a v2
// request re-derives its secret r (device.Key.Reveal) from the recorded
// request and sends its signed roll.reveal again (the catalogue's
// roll-prove): a pending request is revealed as usual; one the GM
// cancelled (or left unrevealed at its session's end) gets the journal's
// journal.roll.proved.v1, the roll it would have been. With --out FILE
// nothing is sent: the reveal is written as a proof file (signed.Proof)
// for 'journal replay --file EXPORT --proof FILE', where the host will not
// record it.

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/replay"
)

// proveV2 proves the user's v2 request named request (as a user names
// it: resolveRequestID) with the device key keyName: sent again, or
// written to the proof file out.
func (a *app) proveV2(c *cobra.Command, keyName, request, out string) error {
	ctx := c.Context()
	campaign, err := a.campaignID()
	if err != nil {
		return err
	}
	if request, err = a.resolveRequestID(ctx, campaign, request); err != nil {
		return err
	}
	k, camp, err := a.keyAndFold(c, keyName) // the invocation's one fold
	if err != nil {
		return err
	}
	body, err := a.thisDevice().Prove(camp, k, request, a.cliActor(), out)
	if err != nil || body == nil {
		return err
	}
	return a.RunSpec(c, "roll-prove", *body)
}

// proofResults writes what replay concluded of each proof file that is
// not a flag (audit.ProofResults), and fails on a proof that does not hold.
func (a *app) proofResults(rep replay.Report) error {
	var w io.Writer
	if !a.jsonOut {
		w = a.stdout
	}
	if bad := audit.ProofResults(w, a.language(), rep); len(bad) > 0 {
		return exitcode.MismatchError{Message: strings.Join(bad, "; ")}
	}
	return nil
}
