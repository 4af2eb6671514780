package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/signed"
)

// The CLI co-signs the end of a journal-dice-v2 session (docs/design.md §3.2):
// `journal session end` co-signs for this device's key right after the
// end, and `journal session cosign [SESSION]` co-signs from another device.
// The device hashes the session-ended event's stored bytes as the journal
// holds them (what an export writes and the chain hashes), not the
// journal's own word for them.

// endedHash reads the stored bytes of session's session-ended event in
// campaign and returns hex(SHA-256(bytes)) (client.EndedHash).
func (a *app) endedHash(ctx context.Context, campaign, session string) (signed.Hex32, error) {
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return signed.Hex32{}, err
	}
	stored, err := a.storedBytes(ctx)
	if err != nil {
		return signed.Hex32{}, err
	}
	_, hash, err := client.EndedHash(ctx, st, stored, campaign, session)
	return hash, err
}

// cosign sends this device's signed co-signature of session's end
// (the last ended session when ""; client.Cosign).
func (a *app) cosign(c *cobra.Command, keyName, session, character string) error {
	ctx := c.Context()
	k, camp, err := a.keyAndFold(c, keyName) // the invocation's one fold
	if err != nil {
		return err
	}
	j, err := a.journal(ctx)
	if err != nil {
		return err
	}
	return a.v2Client(c, j).Cosign(ctx, camp, k, session, character, a.endedHash)
}

// afterV2End co-signs, for the CLI's user, the v2 session that just ended,
// if it has a device key registered in the campaign; else it says how to.
func (a *app) afterV2End(c *cobra.Command) error {
	camp, _, err := a.campaignNow(c.Context(), true)
	if err != nil {
		return err
	}
	s, err := a.thisDevice().ShouldCosign(camp)
	if err != nil || s == nil {
		return err
	}
	a.requestID = "" // the co-signature is a command of its own
	return a.cosign(c, device.DefaultName, s.ID, "")
}
