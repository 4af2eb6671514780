package main

// journal roll free and journal roll reveal-secret: free rolls of a dice
// expression and the GM's secret rolls (docs/design.md §3.4).

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/projections"
)

// freeRollCommand is 'journal roll free DICE'.
func (a *app) freeRollCommand() *cobra.Command {
	var req command.FreeRollRequest
	var keyName string
	cmd := &cobra.Command{
		Use:   "free DICE [--character C] [--note TEXT] [--secret] [--entropy S]",
		Short: "A free roll of a dice expression (1d6, 2d10+3, 2d6+1d4-1) from the session's committed dice",
		Long: `A free roll of a dice expression from the session's committed dice, verified
like every roll (docs/rules.md 3.5): NdM terms (N 1..100, M 2..256)
and numbers joined by + or -, at most 10 terms, 100 dice, numbers adding up
to 1000. A player rolls as one of its characters; the GM for any character
or none. --secret (the GM's) records the roll without its outcome until the
GM reveals it ('journal roll reveal-secret ID') or the session ends; the GM
sees the outcome at once.`,
		Example: `  JOURNAL_ACTOR=ana journal -c mordor roll free 2d10+3 --character lodin --note "the trap"
  journal -c mordor roll free 1d20 --secret --note "who notices"`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			req.Dice = args[0]
			return a.v2Path(c, func() error {
				if req.Entropy != "" {
					return usagef("roll free: --entropy is not for a journal-dice-v2 session (your device's secret replaces entropy)")
				}
				return a.requestRevealV2(c, keyName, req.Character, func(j *command.Journal, campaign string, _ *projections.Session) (any, error) {
					return j.FreeRollActionFor(c.Context(), campaign, req)
				})
			}, "free-roll", req)
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Character, "character", "", "the character who rolls (the GM may name none)")
	f.StringVar(&req.Note, "note", "", "a note shown with the roll")
	f.BoolVar(&req.Secret, "secret", false, "the GM's secret roll: its outcome is recorded when revealed or when the session ends")
	f.StringVar(&req.Call, "call", "", "the roll call it answers")
	f.StringVar(&req.Entropy, "entropy", "", "the player's own entropy, so not even the GM can know the roll before")
	f.StringVar(&keyName, "name", device.DefaultName, "journal-dice-v2: the device key that signs the roll")
	addGMRollFlags(f)
	return cmd
}

// revealSecretCommand is 'journal roll reveal-secret ID'.
func (a *app) revealSecretCommand() *cobra.Command { return a.specCommand("reveal") }

// reportSecrets prints the outcome of the secret rolls a command recorded:
// the GM's eyes only (the events do not hold it).
func (a *app) reportSecrets(res command.Result, before *projections.Campaign) {
	l := a.language()
	for _, s := range res.Secret {
		line := projections.DescribeRoll(l, before, &s.Roll)
		fmt.Fprintln(a.stdout, l.T("rec.secret", line, s.Hidden))
	}
}
