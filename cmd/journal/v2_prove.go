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
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/device/client"
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
	return a.runSpec(c, "roll-prove", *body)
}

// readProofs reads the proof files of `replay --proof` (client.ReadProofs).
func readProofs(paths []string) ([]replay.ProofFile, error) { return client.ReadProofs(paths) }

// proofResults writes what replay concluded of each proof file that is
// not a flag (a recorded roll's), and fails on a proof that does not hold.
func (a *app) proofResults(rep replay.Report) error {
	l := a.language()
	var bad []string
	for _, p := range rep.Proofs {
		switch p.Status {
		case replay.ProofRecorded:
			if !a.jsonOut {
				fmt.Fprintln(a.stdout, "  "+p.WhatIn(l))
			}
		case replay.ProofBad:
			bad = append(bad, l.T("rp2.proof.bad", p.File, p.WhatIn(l)))
		}
	}
	if len(bad) > 0 {
		return exitError{code: 1, msg: strings.Join(bad, "; ")}
	}
	return nil
}
