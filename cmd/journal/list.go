package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/sheettext"
)

// The list verbs: campaign list, session list, skill list, weapon list
// (character list is in play.go). Each prints a table (package sheettext),
// or with --json an array of the rows (package projections).

func (a *app) campaignListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the journal's campaigns",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			st, err := a.openStore(c.Context(), false, "")
			if err != nil {
				return err
			}
			list := projections.NewCampaignList()
			q := events.Query{Subject: events.AllFilter, Types: []string{events.TypeCampaignCreated}, OnForeign: a.warnForeign()}
			err = st.Read(c.Context(), q, func(r events.Recorded) error {
				list.Add(r)
				return nil
			})
			rows := list.Rows
			if err != nil {
				return err
			}
			return a.emit(rows, func(w io.Writer) { sheettext.CampaignList(w, a.language(), rows) })
		},
	}
}

func (a *app) sessionListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the campaign's sessions, oldest first",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			rows := projections.SessionList(camp)
			return a.emit(rows, func(w io.Writer) { sheettext.SessionList(w, a.language(), rows) })
		},
	}
}

func (a *app) skillListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the skills of the campaign: its system's and its own",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			rows := projections.SkillList(camp)
			return a.emit(rows, func(w io.Writer) {
				sheettext.SkillList(w, a.language(), rows, camp.System == events.SystemTOR)
			})
		},
	}
}

func (a *app) weaponListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the campaign's weapons with their damage and attack skill",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			rows := projections.WeaponList(camp)
			return a.emit(rows, func(w io.Writer) { sheettext.WeaponList(w, a.language(), rows) })
		},
	}
}
