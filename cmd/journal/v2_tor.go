package main

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// The One Ring in a journal-dice-v2 session, from the CLI: `journal roll
// CHAR SKILL [--tn N] [--trait T]` is the signed tor-roll request and its
// reveal in one command (requestRevealV2); `journal hope spend CHAR` is the
// roller's signed tor-hope request, which draws nothing and is recorded at
// once. Both are the catalogue's roll-request (and roll-reveal).

// isTOR reports whether the campaign plays The One Ring.
func (a *app) isTOR(c *cobra.Command) (bool, error) {
	campaign, err := a.campaignID()
	if err != nil {
		return false, err
	}
	j, err := a.journal(c.Context())
	if err != nil {
		return false, err
	}
	camp, err := a.current(c.Context(), j, campaign) // the invocation's one fold (commands.go)
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
	return a.requestRevealV2(c, keyName, req.Character, func(j *command.Journal, campaign string, _ *projections.Session) (any, error) {
		return j.TORRollActionFor(c.Context(), campaign, req)
	})
}

// hopeV2 spends 1 Hope on character's latest v2 roll (roll, when given,
// must be that roll's event id) with the roller's signed request.
func (a *app) hopeV2(c *cobra.Command, keyName, character, roll string) error {
	ctx := c.Context()
	t, err := a.openV2(ctx, keyName)
	if err != nil {
		return err
	}
	campaign, k, j, s := t.campaign, t.key, t.j, t.session
	if ch := t.camp.TOR.Sheet(character); ch != nil && roll != "" && (ch.LastRoll == nil || ch.LastRoll.EventID != roll) {
		// The journal says why (SpendHope's wording for a roll not the latest).
		return a.runSpec(c, "hope-spend", body{"character": character, "roll": roll})
	}
	act, err := j.TORHopeActionFor(ctx, campaign, character)
	if err != nil {
		return err
	}
	cliID, err := a.cliRequestID()
	if err != nil {
		return err
	}
	actor, err := a.actingUser()
	if err != nil {
		return err
	}
	requestID := device.RequestID(campaign, s.ID, actor, cliID)
	actionJSON, err := json.Marshal(act)
	if err != nil {
		return err
	}
	msg, sig, err := a.seal(ctx, campaign, t.camp.LastSeq, k, &signed.Request{Header: signed.Header{Campaign: campaign, Session: s.ID}, Request: requestID, Action: actionJSON})
	if err != nil {
		return err
	}
	res, err := a.stepNamed(ctx, c, j, cliID+".request", campaign, "roll-request", command.RollRequestSigned{Character: character,
		SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
	if err != nil {
		return err
	}
	return a.reportAll(ctx, j, campaign, res)
}

// torActingCharacter is actingCharacter for a The One Ring campaign.
func torActingCharacter(camp *projections.Campaign, actor string) string {
	var npc string
	for _, id := range camp.TOR.Roster {
		ch := camp.TOR.Characters[id]
		if ch == nil {
			continue
		}
		if ch.Player == actor {
			return id
		}
		if ch.NPC && npc == "" {
			npc = id
		}
	}
	if npc == "" && len(camp.TOR.Roster) > 0 {
		npc = camp.TOR.Roster[0]
	}
	return npc
}
