package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// callCommand is `journal call CHAR... --skill S`: the GM's roll call (the
// table's, recorded as journal.call.made.v1), with `call close ID` and
// `call list`.
func (a *app) callCommand() *cobra.Command {
	var req command.CallRequest
	cmd := &cobra.Command{
		Use:   "call CHAR... (--skill S | --attribute A) [--vs D] [--note N]",
		Short: "Call characters to roll a skill or attribute (each answers once: 'journal roll ... --call ID')",
		Example: "  journal -c mordor call lodin ruisenor --skill advertir --vs media --note \"a noise upstairs\"\n" +
			"  journal -c mordor call list\n  journal -c mordor call close call-1",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			req.Characters = args
			return a.runSpec(c, "call", req)
		},
	}
	cmd.Annotations = map[string]string{annOwnArgs: "yes"}
	f := cmd.Flags()
	f.StringVar(&req.Skill, "skill", "", "the skill to roll (named as the rules do once recorded)")
	f.StringVar(&req.Attribute, "attribute", "", "the attribute to roll (RyF), or the skill's attribute")
	f.StringVar(&req.Vs, "vs", "", "the difficulty (RyF: a name or a number; The One Ring: the TN)")
	f.StringVar(&req.Note, "note", "", "the GM's note for the players")
	var reason string
	closeCmd := &cobra.Command{
		Use:     "close ID [--reason R]",
		Short:   "Close a roll call: it takes no more answers",
		Example: "  journal -c mordor call close call-1",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.runSpec(c, "call-close", command.CallClose{Call: args[0], Reason: reason})
		},
	}
	closeCmd.Flags().StringVar(&reason, "reason", "", "why the call is closed")
	list := &cobra.Command{
		Use:     "list",
		Short:   "List the open roll calls and who answered each",
		Example: "  journal -c mordor call list",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			calls := camp.Calls
			if calls == nil {
				calls = []*projections.Call{}
			}
			l := a.language()
			return a.emit(calls, func(w io.Writer) {
				if len(calls) == 0 {
					fmt.Fprintln(w, l.T("cli.call_none"))
					return
				}
				tw := newTable("", strings.Split(l.T("cli.call_head"), "\t")...)
				for _, call := range calls {
					what := call.Skill
					if what == "" {
						what = call.Attribute
					}
					answered := make([]string, 0, len(call.Answered))
					for ch := range call.Answered {
						answered = append(answered, ch)
					}
					sort.Strings(answered)
					tw.add(call.ID, strings.Join(call.Characters, ","), what, orDash(call.Vs), orDash(strings.Join(answered, ",")), orDash(call.Note))
				}
				tw.write(w)
			})
		},
	}
	cmd.AddCommand(closeCmd, list)
	return cmd
}

// voidProposalCommands are `journal void propose EVENT --reason R` (the
// GM's) and `journal void consent PROPOSAL` (the roller's device signs
// and records its void.consent).
func (a *app) voidProposalCommands() []*cobra.Command {
	var reason string
	propose := &cobra.Command{
		Use:     "propose EVENT --reason R",
		Short:   "journal-dice-v2: propose to void a roll, asking its roller's signed consent",
		Example: "  journal -c mordor void propose 01a230d8 --reason \"rolled the wrong skill\"",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.runSpecWith(c, "void-propose", func(_ *command.Journal, campaign string) (any, error) {
				id, err := a.resolveEventID(c.Context(), campaign, args[0])
				if err != nil {
					return nil, err
				}
				return command.VoidPropose{EventID: id, Reason: reason}, nil
			})
		},
	}
	propose.Flags().StringVar(&reason, "reason", "", "why the roll would be voided (the roller consents to this reason)")
	_ = propose.MarkFlagRequired("reason")
	var keyName string
	consent := &cobra.Command{
		Use:     "consent PROPOSAL [--name KEY]",
		Short:   "journal-dice-v2: consent, signed on this device, to a void proposal of your roll",
		Example: "  JOURNAL_ACTOR=bea journal -c mordor void consent void-1",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			k, err := loadKey(keyName)
			if err != nil {
				return err
			}
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			p := camp.OpenVoidProposal(args[0])
			if p == nil {
				return usagef("void consent: no open void proposal %q in campaign %s", args[0], camp.ID)
			}
			msg, sig, err := a.seal(c.Context(), camp.ID, camp.LastSeq, k, &signed.VoidConsent{
				Header: signed.Header{Campaign: camp.ID, Session: p.Session}, Event: p.EventID, Reason: p.Reason})
			if err != nil {
				return usagef("void consent: %v", err)
			}
			return a.runSpec(c, "void-consent", command.VoidConsent{Character: p.Character, Proposal: p.ID,
				SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
		},
	}
	consent.Flags().StringVar(&keyName, "name", device.DefaultName, "the device key's name")
	return []*cobra.Command{propose, consent}
}
