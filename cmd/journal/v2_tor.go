package main

import (
	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/projections"
)

// The One Ring in a journal-dice-v2 session, from the CLI: `journal roll
// CHAR SKILL [--tn N] [--trait T]` is the signed tor-roll request and its
// reveal in one command (requestRevealV2); `journal hope spend CHAR` is the
// roller's signed tor-hope request, which draws nothing and is recorded at
// once. Both are the catalogue's roll-request (and roll-reveal).

// isTOR reports whether the campaign plays The One Ring.
func (a *app) isTOR(c *cobra.Command) (bool, error) {
	camp, _, err := a.campaignNow(c.Context(), false) // the invocation's one fold (commands.go)
	if err != nil {
		return false, err
	}
	return camp.System == command.SystemTOR, nil
}

// torRollV2 runs a v2 The One Ring roll in one command: the action names
// the skill as the rules do, the TN (14 by default) and the trait counted
// as invoked.
func (a *app) torRollV2(c *cobra.Command, keyName string, req command.RollRequest) error {
	if req.Entropy != "" {
		return usagef("roll: --entropy is not for a journal-dice-v2 session (your device's secret replaces entropy)")
	}
	return a.requestRevealV2(c, keyName, req.Character, func(j *command.Handler, campaign string, _ *projections.Session) (any, error) {
		return j.TORRollActionFor(c.Context(), campaign, req)
	})
}

// hopeV2 spends 1 Hope on character's latest v2 roll (roll, when given,
// must be that roll's event id) with the roller's signed request
// (client.Hope).
func (a *app) hopeV2(c *cobra.Command, keyName, character, roll string) error {
	ctx := c.Context()
	t, err := a.openV2(ctx, keyName)
	if err != nil {
		return err
	}
	if ch := t.Camp.TOR.Sheet(character); ch != nil && roll != "" && (ch.LastRoll == nil || ch.LastRoll.EventID != roll) {
		// The journal says why (SpendHope's wording for a roll not the latest).
		return a.RunSpec(c, "hope-spend", body{"character": character, "roll": roll})
	}
	return a.v2Client(c, t.j).Hope(ctx, t.Session, character, func() (any, error) {
		return t.j.TORHopeActionFor(ctx, t.Campaign, character)
	})
}
