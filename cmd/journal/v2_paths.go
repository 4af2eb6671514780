package main

import (
	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/projections"
)

// The journal-dice-v2 paths of contests, combat starts (initiative) and
// healing after a combat in the CLI: in a v2 session `journal contest`,
// `journal combat start` and `journal heal-after-combat` sign one request
// with the user's device key and reveal it (requestRevealV2), the action
// naming every input as the rules spell it.

// actingV2 runs a v2 request of several characters, chars, and its reveal
// (requestRevealV2) for the one the CLI's user plays (client.PlayedBy, on
// a fresh fold); action builds its action.
func (a *app) actingV2(c *cobra.Command, keyName string, chars []string, action func(*command.Handler, string) (any, error)) error {
	camp, _, err := a.campaignNow(c.Context(), true)
	if err != nil {
		return err
	}
	return a.requestRevealV2(c, keyName, client.PlayedBy(camp, a.cliActor(), chars...), func(j *command.Handler, campaign string, _ *projections.Session) (any, error) {
		return action(j, campaign)
	})
}

// contestV2 runs a v2 contest in one command: both sides' rolls from one
// signed request (two nonces) and its reveal, then the verdict.
func (a *app) contestV2(c *cobra.Command, keyName string, req command.ContestRequest) error {
	if req.EntropyA != "" || req.EntropyB != "" {
		return usagef("contest: --entropy-a and --entropy-b are not for a journal-dice-v2 session (your device's secret replaces entropy)")
	}
	return a.actingV2(c, keyName, []string{req.A, req.B}, func(j *command.Handler, campaign string) (any, error) {
		return j.ContestActionFor(c.Context(), campaign, req)
	})
}

// combatStartV2 runs a v2 combat start in one command: every participant's
// initiative from one signed request (a nonce each) and its reveal.
func (a *app) combatStartV2(c *cobra.Command, keyName string, req command.CombatStart) error {
	if req.Entropy != "" {
		return usagef("combat start: --entropy is not for a journal-dice-v2 session (your device's secret replaces entropy)")
	}
	return a.actingV2(c, keyName, req.Participants, func(j *command.Handler, campaign string) (any, error) {
		return j.InitiativeActionFor(c.Context(), campaign, req)
	})
}

// healV2 runs a v2 healing after a combat in one command.
func (a *app) healV2(c *cobra.Command, keyName, char, entropy string) error {
	if entropy != "" {
		return usagef("heal-after-combat: --entropy is not for a journal-dice-v2 session (your device's secret replaces entropy)")
	}
	return a.requestRevealV2(c, keyName, char, func(j *command.Handler, campaign string, _ *projections.Session) (any, error) {
		return j.HealActionFor(c.Context(), campaign, char)
	})
}

// v2Path runs v2 in a v2 session and otherwise the catalogued command
// name with its body (RunSpec).
func (a *app) v2Path(c *cobra.Command, v2 func() error, name string, v1 any) error {
	if in, err := a.InV2Session(c); err != nil || in {
		if err != nil {
			return err
		}
		return v2()
	}
	return a.RunSpec(c, name, v1)
}
