package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/sheettext"
)

func (a *app) characterCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "character", Short: "Create and show characters"}
	var atText string
	show := &cobra.Command{
		Use:   "show CHAR [--at SEQ|TIME]",
		Short: "Show a character sheet, now or as of a stream sequence or a time",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			at, err := a.resolveAt(c.Context(), atText)
			if err != nil {
				return err
			}
			camp, err := a.load(c, at)
			if err != nil {
				return err
			}
			if camp.System == events.SystemTOR {
				return a.showTOR(camp, args[0], at)
			}
			sheet := camp.Characters[args[0]]
			if sheet == nil {
				return noCharacter(camp, args[0], at)
			}
			return a.emit(sheet, func(w io.Writer) { sheettext.Sheet(w, a.language(), camp, sheet) })
		},
	}
	show.Flags().StringVar(&atText, "at", "", "show the sheet as of this stream sequence, or this time (RFC 3339 or \"YYYY-MM-DD HH:MM\")")
	list := &cobra.Command{
		Use:   "list",
		Short: "List the campaign's characters",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			var list any = camp.Characters
			if camp.TOR != nil {
				list = camp.TOR.Characters
			}
			return a.emit(list, func(w io.Writer) { sheettext.Roster(w, a.language(), camp) })
		},
	}
	cmd.AddCommand(a.specCommand("character-create"), show, list)
	return cmd
}

func (a *app) sessionCommand() *cobra.Command {
	return a.specGroup("session", "Start and end sessions (the seed is committed at start, revealed at end)", []string{"session-start", "session-end"},
		a.sessionListCommand(), a.specCommand("session-contribute"), a.specCommand("session-cosign"))
}

// rollCommand is 'journal roll' (fromspec_forms.go), with its subcommands.
func (a *app) rollCommand() *cobra.Command {
	cmd := a.specCommand("roll")
	cmd.AddCommand(a.rollV2Commands()...)
	cmd.AddCommand(a.specCommand("free-roll"), a.specCommand("reveal"))
	return cmd
}

func (a *app) contestCommand() *cobra.Command { return a.specCommand("contest") }

func (a *app) combatCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "combat", Short: "Start a combat (initiative), next round, end"}
	show := &cobra.Command{
		Use:   "show",
		Short: "Show the combat in progress: order, round, who has attacked, damage taken",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			if camp.Combat == nil {
				return msgerr.Errorf("no combat in progress in campaign %s", camp.ID)
			}
			return a.emit(camp.Combat, func(w io.Writer) { sheettext.Combat(w, a.language(), camp) })
		},
	}
	cmd.AddCommand(a.specCommand("combat-start"), a.specCommand("combat-round"), a.specCommand("combat-end"), show)
	return cmd
}

func (a *app) attackCommand() *cobra.Command { return a.specCommand("attack") }

func (a *app) healthCommands() []*cobra.Command {
	return []*cobra.Command{a.specCommand("damage"), a.specCommand("heal"), a.specCommand("rest"), a.specCommand("heal-after-combat")}
}

func (a *app) progressCommands() []*cobra.Command {
	return []*cobra.Command{a.specGroup("xp", "Experience", []string{"xp"}), a.specGroup("token", "The token", []string{"token-return"}),
		a.specGroup("day", "In-game days", []string{"day-new"}), a.specCommand("reload")}
}

// startedAlgorithm is the dice algorithm of the session-started event a
// session start recorded ("" when it recorded none: a repeated request
// reports its events too, so only an error leaves it empty).
func startedAlgorithm(res command.Result) string {
	for _, r := range res.Events {
		var d events.SessionStarted
		if r.Event.Type == events.TypeSessionStarted && r.Event.DecodeData(&d) == nil {
			return d.Algorithm
		}
	}
	return ""
}
