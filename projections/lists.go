package projections

import (
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// The rows of the list verbs (campaign list, session list, skill list,
// weapon list): each a JSON array of them, or a table. Every list is
// never nil (an empty one is []).

// CampaignRow is one campaign of campaign list.
type CampaignRow struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	System  string    `json:"system"`
	Created time.Time `json:"created"`
	Seq     uint64    `json:"seq"`
}

// CampaignList folds campaign-created events into the journal's
// campaigns, in the order they were created; a campaign's second
// campaign-created event, or one whose data does not decode, is ignored.
type CampaignList struct {
	Rows []CampaignRow
	seen map[string]bool
}

// NewCampaignList is an empty list.
func NewCampaignList() *CampaignList {
	return &CampaignList{Rows: []CampaignRow{}, seen: map[string]bool{}}
}

// Add folds r, a campaign-created event.
func (l *CampaignList) Add(r events.Recorded) {
	var d events.CampaignCreated
	if l.seen[r.Event.Campaign] || r.Event.DecodeData(&d) != nil {
		return
	}
	l.seen[r.Event.Campaign] = true
	l.Rows = append(l.Rows, CampaignRow{ID: r.Event.Campaign, Name: d.Name, System: d.System, Created: r.Event.Time, Seq: r.Seq})
}

// SessionRow is one session of session list.
type SessionRow struct {
	ID      string    `json:"id"`
	Title   string    `json:"title,omitempty"`
	Started time.Time `json:"started"`
	Rolls   uint64    `json:"rolls"`
	Ended   bool      `json:"ended"`
}

// SessionList is the campaign's sessions, oldest first.
func SessionList(c *Campaign) []SessionRow {
	rows := []SessionRow{}
	for _, s := range c.Sessions {
		rows = append(rows, SessionRow{ID: s.ID, Title: s.Title, Started: s.Started, Rolls: s.NextNonce, Ended: s.Ended})
	}
	return rows
}

// SkillRow is one skill of skill list.
type SkillRow struct {
	Name      string `json:"name"`
	Attribute string `json:"attribute"`
	// Group is The One Ring's skill group.
	Group string `json:"group,omitempty"`
	// Origin is "system" (the rules') or "campaign" (skill define).
	Origin string `json:"origin"`
}

// SkillList is the campaign's skills: its system's, then its own.
func SkillList(c *Campaign) []SkillRow {
	rows := []SkillRow{}
	if c.System == events.SystemTOR {
		for _, s := range tor.Skills() {
			rows = append(rows, SkillRow{Name: s.Name, Attribute: string(s.Attribute), Group: string(s.Group), Origin: "system"})
		}
	}
	for _, s := range ryf.SystemSkills(ryf.System(c.System)) {
		rows = append(rows, SkillRow{Name: s.Name, Attribute: string(s.Attr), Origin: "system"})
	}
	for _, s := range c.Skills {
		rows = append(rows, SkillRow{Name: s.Name, Attribute: s.Attribute, Origin: "campaign"})
	}
	return rows
}

// WeaponRow is one weapon of weapon list.
type WeaponRow struct {
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

// WeaponList is the campaign's weapons: its system's (none for The One
// Ring), each replaced in place by a campaign weapon of the same name
// (case aside), then the campaign's others.
func WeaponList(c *Campaign) []WeaponRow {
	rows := []WeaponRow{}
	if c.System != events.SystemTOR {
		for _, w := range ryf.KnownWeapons(ryf.System(c.System)) {
			rows = append(rows, WeaponRow{Name: w.Name, Damage: w.Damage.String(), Skill: w.Skill, Precision: w.Precision,
				Short: w.Short, Medium: w.Medium, Long: w.Long, Magazine: w.Magazine, Origin: "system"})
		}
	}
	for _, w := range c.Weapons {
		row := WeaponRow{Name: w.Name, Damage: w.Damage, Skill: w.Skill, Precision: w.Precision,
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
	return rows
}
