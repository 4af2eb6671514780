package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/sheettext"
)

// torCommands are The One Ring's own commands:
//
//	hope spend CHAR [ROLL_EVENT_ID]
//	fellowship ask CHAR | vote CHAR VOTER yes|no | take CHAR | withdraw CHAR | show | phase
//	shadow gain CHAR N [--reason R]
//	madness end CHAR --flaw F
//	trait invoke CHAR TRAIT --auto [--skill S] | --roll
//	advancement grant CHAR GROUP|SKILL [--roll EVENT_ID] | show CHAR [--at SEQ]
//	adventure start [TITLE]
func (a *app) torCommands() []*cobra.Command {
	return []*cobra.Command{a.hopeCommand(), a.fellowshipCommand(), a.shadowCommand(), a.madnessCommand(),
		a.traitCommand(), a.advancementCommand(), a.adventureCommand()}
}

func (a *app) hopeCommand() *cobra.Command {
	return a.specGroup("hope", "Spend Hope on a failed roll", []string{"hope-spend"})
}

func (a *app) fellowshipCommand() *cobra.Command {
	var at uint64
	show := &cobra.Command{
		Use:   "show [--at SEQ]",
		Short: "Show the adventure, the fellowship pool, the company and the open request",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.loadTOR(c, at)
			if err != nil {
				return err
			}
			s := camp.TOR
			doc := map[string]any{"pool": s.Pool, "adventure": s.Adventure, "adventures": s.Adventures,
				"fellowship": s.Fellowship(), "request": s.Request}
			return a.emit(doc, func(w io.Writer) { sheettext.TORCompany(w, a.language(), camp) })
		},
	}
	show.Flags().Uint64Var(&at, "at", 0, "as of this stream sequence")
	return a.specGroup("fellowship", "The fellowship pool, its vote, and the fellowship phase",
		[]string{"fellowship-ask", "fellowship-vote", "fellowship-take", "fellowship-withdraw", "fellowship-phase"}, show)
}

func (a *app) shadowCommand() *cobra.Command {
	return a.specGroup("shadow", "Shadow", []string{"shadow-gain"})
}

func (a *app) madnessCommand() *cobra.Command {
	return a.specGroup("madness", "Bouts of madness (one begins when a roll shows the Eye while Hope is below Shadow)", []string{"madness-end"})
}

func (a *app) traitCommand() *cobra.Command {
	return a.specGroup("trait", "Traits", []string{"trait-invoke"})
}

func (a *app) advancementCommand() *cobra.Command {
	var at uint64
	show := &cobra.Command{
		Use:   "show CHAR [--at SEQ]",
		Short: "Show a character's advancement boxes and which rolls of the adventure qualify for which box",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			camp, err := a.loadTOR(c, at)
			if err != nil {
				return err
			}
			ch := camp.TOR.Sheet(args[0])
			if ch == nil {
				return noCharacter(camp, args[0], at)
			}
			rep := sheettext.AdvancementOf(camp.TOR, ch)
			return a.emit(rep, func(w io.Writer) { sheettext.Advancement(w, a.language(), camp, rep) })
		},
	}
	show.Flags().Uint64Var(&at, "at", 0, "as of this stream sequence")
	return a.specGroup("advancement", "Advancement points (at most 3 per skill group per adventure)", []string{"advancement-grant"}, show)
}

func (a *app) adventureCommand() *cobra.Command {
	return a.specGroup("adventure", "Adventures (the fellowship phase ends one)", []string{"adventure-start"})
}

// loadTOR folds a The One Ring campaign as of sequence at.
func (a *app) loadTOR(c *cobra.Command, at uint64) (*projections.Campaign, error) {
	camp, err := a.load(c, at)
	if err != nil {
		return nil, err
	}
	if camp.TOR == nil {
		return nil, msgerr.Errorf("campaign %s plays %s: this command is for The One Ring (tor)", camp.ID, camp.System)
	}
	return camp, nil
}

// showTOR prints a The One Ring character sheet as of sequence at.
func (a *app) showTOR(camp *projections.Campaign, id string, at uint64) error {
	ch := camp.TOR.Sheet(id)
	if ch == nil {
		return noCharacter(camp, id, at)
	}
	return a.emit(ch, func(w io.Writer) { sheettext.TORSheet(w, a.language(), camp, ch) })
}
