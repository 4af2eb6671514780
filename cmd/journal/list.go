package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// The list verbs: campaign list, session list, skill list, weapon list
// (character list is in play.go). Each prints a table, or with --json an
// array of the rows.

// campaignRow is one campaign of campaign list.
type campaignRow struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	System  string    `json:"system"`
	Created time.Time `json:"created"`
	Seq     uint64    `json:"seq"`
}

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
			rows := []campaignRow{}
			seen := map[string]bool{}
			q := events.Query{Subject: events.AllFilter, Types: []string{events.TypeCampaignCreated}, OnForeign: a.warnForeign()}
			err = st.Read(c.Context(), q, func(r events.Recorded) error {
				var d events.CampaignCreated
				if seen[r.Event.Campaign] || r.Event.DecodeData(&d) != nil {
					return nil
				}
				seen[r.Event.Campaign] = true
				rows = append(rows, campaignRow{ID: r.Event.Campaign, Name: d.Name, System: d.System, Created: r.Event.Time, Seq: r.Seq})
				return nil
			})
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

// sessionRow is one session of session list.
type sessionRow struct {
	ID      string    `json:"id"`
	Title   string    `json:"title,omitempty"`
	Started time.Time `json:"started"`
	Rolls   uint64    `json:"rolls"`
	Ended   bool      `json:"ended"`
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
			rows := []sessionRow{}
			for _, s := range camp.Sessions {
				rows = append(rows, sessionRow{ID: s.ID, Title: s.Title, Started: s.Started, Rolls: s.NextNonce, Ended: s.Ended})
			}
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

// skillRow is one skill of skill list.
type skillRow struct {
	Name      string `json:"name"`
	Attribute string `json:"attribute"`
	// Group is The One Ring's skill group.
	Group string `json:"group,omitempty"`
	// Origin is "system" (the rules') or "campaign" (skill define).
	Origin string `json:"origin"`
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
			rows := []skillRow{}
			if camp.System == events.SystemTOR {
				for _, s := range tor.Skills() {
					rows = append(rows, skillRow{Name: s.Name, Attribute: string(s.Attribute), Group: string(s.Group), Origin: "system"})
				}
			}
			for _, s := range ryf.SystemSkills(ryf.System(camp.System)) {
				rows = append(rows, skillRow{Name: s.Name, Attribute: string(s.Attr), Origin: "system"})
			}
			for _, s := range camp.Skills {
				rows = append(rows, skillRow{Name: s.Name, Attribute: s.Attribute, Origin: "campaign"})
			}
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

// weaponRow is one weapon of weapon list.
type weaponRow struct {
	Name      string `json:"name"`
	Damage    string `json:"damage"`
	Skill     string `json:"skill"`
	Precision int    `json:"precision"`
	Short     int    `json:"short_m,omitempty"`
	Medium    int    `json:"medium_m,omitempty"`
	Long      int    `json:"long_m,omitempty"`
	Magazine  int    `json:"magazine,omitempty"`
	// Origin is "system" (the rule texts' weapons) or "campaign" (weapon
	// define, which replaces a system weapon of the same name).
	Origin string `json:"origin"`
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
			rows := []weaponRow{}
			if camp.System != events.SystemTOR {
				for _, w := range ryf.KnownWeapons(ryf.System(camp.System)) {
					rows = append(rows, weaponRow{Name: w.Name, Damage: w.Damage.String(), Skill: w.Skill, Precision: w.Precision,
						Short: w.Short, Medium: w.Medium, Long: w.Long, Magazine: w.Magazine, Origin: "system"})
				}
			}
			for _, w := range camp.Weapons {
				row := weaponRow{Name: w.Name, Damage: w.Damage, Skill: w.Skill, Precision: w.Precision,
					Short: w.Short, Medium: w.Medium, Long: w.Long, Magazine: w.Magazine, Origin: "campaign"}
				replaced := false
				for i := range rows {
					if strings.EqualFold(rows[i].Name, w.Name) {
						rows[i], replaced = row, true
					}
				}
				if !replaced {
					rows = append(rows, row)
				}
			}
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
