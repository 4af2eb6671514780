package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
)

// The list verbs: campaign list, session list, skill list, weapon list
// (character list is in play.go). Each prints a table, or with --json an
// array of the rows.

// The rows of the lists (package projections).
type (
	campaignRow = projections.CampaignRow
	sessionRow  = projections.SessionRow
	skillRow    = projections.SkillRow
	weaponRow   = projections.WeaponRow
)

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
			l := a.language()
			return a.emit(rows, func(w io.Writer) {
				t := newTable("", l.T("col.id"), l.T("col.name"), l.T("col.system"), l.T("col.created"))
				for _, r := range rows {
					t.add(r.ID, r.Name, r.System, localTime(r.Created))
				}
				t.write(w)
			})
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
			l := a.language()
			return a.emit(rows, func(w io.Writer) {
				t := newTable("", l.T("col.id"), l.T("col.title"), l.T("col.started"), l.T("col.rolls"), l.T("col.state")).alignRight(3)
				for _, r := range rows {
					t.add(r.ID, r.Title, localTime(r.Started), strconv.FormatUint(r.Rolls, 10), sessionState(l, r.Ended))
				}
				t.write(w)
			})
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
			l := a.language()
			return a.emit(rows, func(w io.Writer) {
				head := []string{l.T("col.skill"), l.T("col.attr")}
				if camp.System == events.SystemTOR {
					head = append(head, l.T("col.group"))
				}
				t := newTable("", append(head, l.T("col.origin"))...)
				for _, r := range rows {
					cells := []string{r.Name, r.Attribute}
					if camp.System == events.SystemTOR {
						cells = append(cells, r.Group)
					}
					t.add(append(cells, origin(l, r.Origin))...)
				}
				t.write(w)
			})
		},
	}
}

// origin names where a skill or weapon comes from.
func origin(l i18n.Lang, o string) string {
	if o == "campaign" {
		return l.T("list.campaign")
	}
	return l.T("list.system")
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
			l := a.language()
			return a.emit(rows, func(w io.Writer) {
				t := newTable("", l.T("col.name"), l.T("col.damage"), l.T("col.skill"), l.T("col.precision"),
					l.T("col.ranges"), l.T("col.magazine"), l.T("col.origin")).alignRight(3, 5)
				for _, r := range rows {
					ranges, magazine := "", ""
					if r.Long > 0 {
						ranges = fmt.Sprintf("%d/%d/%d m", r.Short, r.Medium, r.Long)
					}
					if r.Magazine > 0 {
						magazine = strconv.Itoa(r.Magazine)
					}
					t.add(r.Name, r.Damage, r.Skill, fmt.Sprintf("%+d", r.Precision), ranges, magazine, origin(l, r.Origin))
				}
				t.write(w)
			})
		},
	}
}
