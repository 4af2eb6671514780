package sheettext

import (
	"fmt"
	"io"
	"strconv"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/textout"
)

// The tables of the list verbs: campaign list, session list, skill list,
// weapon list (package projections makes their rows; with --json the
// command prints the rows instead).

// CampaignList writes the journal's campaigns, one a row.
func CampaignList(w io.Writer, l i18n.Lang, rows []projections.CampaignRow) {
	t := textout.NewTable("", l.T("col.id"), l.T("col.name"), l.T("col.system"), l.T("col.created"))
	for _, r := range rows {
		t.Add(r.ID, r.Name, r.System, textout.LocalTime(r.Created))
	}
	t.Write(w)
}

// SessionList writes a campaign's sessions, one a row.
func SessionList(w io.Writer, l i18n.Lang, rows []projections.SessionRow) {
	t := textout.NewTable("", l.T("col.id"), l.T("col.title"), l.T("col.started"), l.T("col.rolls"), l.T("col.state")).AlignRight(3)
	for _, r := range rows {
		t.Add(r.ID, r.Title, textout.LocalTime(r.Started), strconv.FormatUint(r.Rolls, 10), SessionState(l, r.Ended))
	}
	t.Write(w)
}

// SkillList writes a campaign's skills, one a row; with groups (The One
// Ring's) each with its skill group.
func SkillList(w io.Writer, l i18n.Lang, rows []projections.SkillRow, groups bool) {
	head := []string{l.T("col.skill"), l.T("col.attr")}
	if groups {
		head = append(head, l.T("col.group"))
	}
	t := textout.NewTable("", append(head, l.T("col.origin"))...)
	for _, r := range rows {
		cells := []string{r.Name, r.Attribute}
		if groups {
			cells = append(cells, r.Group)
		}
		t.Add(append(cells, origin(l, r.Origin))...)
	}
	t.Write(w)
}

// origin names where a skill or weapon comes from.
func origin(l i18n.Lang, o string) string {
	if o == "campaign" {
		return l.T("list.campaign")
	}
	return l.T("list.system")
}

// WeaponList writes a campaign's weapons, one a row: damage, skill,
// precision, and a ranged weapon's ranges and magazine.
func WeaponList(w io.Writer, l i18n.Lang, rows []projections.WeaponRow) {
	t := textout.NewTable("", l.T("col.name"), l.T("col.damage"), l.T("col.skill"), l.T("col.precision"),
		l.T("col.ranges"), l.T("col.magazine"), l.T("col.origin")).AlignRight(3, 5)
	for _, r := range rows {
		ranges, magazine := "", ""
		if r.Long > 0 {
			ranges = fmt.Sprintf("%d/%d/%d m", r.Short, r.Medium, r.Long)
		}
		if r.Magazine > 0 {
			magazine = strconv.Itoa(r.Magazine)
		}
		t.Add(r.Name, r.Damage, r.Skill, fmt.Sprintf("%+d", r.Precision), ranges, magazine, origin(l, r.Origin))
	}
	t.Write(w)
}
