package projections

import (
	"maps"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Token holders.
const (
	TokenWithPlayer = "player"
	TokenWithGM     = "gm"
)

// Sheet is a RyF or Galaxia character sheet folded from its events.
type Sheet struct {
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	Player         string         `json:"player"`
	NPC            bool           `json:"npc,omitempty"`
	Occupation     string         `json:"occupation,omitempty"`
	Attributes     map[string]int `json:"attributes"`
	Skills         map[string]int `json:"skills"`
	Specialization string         `json:"specialization,omitempty"`
	Weapons        []string       `json:"weapons,omitempty"`

	HP     int    `json:"hp"`
	MaxHP  int    `json:"max_hp"`
	Status string `json:"status"`

	// XP is the balance to spend; XPTotal all XP ever granted.
	XP      int `json:"xp"`
	XPTotal int `json:"xp_total"`

	// Token is who holds the character's token: "player" or "gm" (NPCs have none: "").
	Token string `json:"token,omitempty"`
	// TokenJustReturned: the GM has just returned the token; the next roll is one level lower.
	TokenJustReturned bool `json:"token_just_returned,omitempty"`
	// SpecUsedToday: the specialization has been used this in-game day.
	SpecUsedToday bool `json:"spec_used_today,omitempty"`
	// ShotsFired counts shots per magazine weapon since its last reload.
	ShotsFired map[string]int `json:"shots_fired,omitempty"`

	Rolls      int    `json:"rolls"`
	CreatedSeq uint64 `json:"created_seq"`
}

func newSheet(id string, d *events.CharacterCreated, seq uint64) *Sheet {
	s := &Sheet{
		ID: id, Name: d.Name, Player: d.Player, NPC: d.NPC, Occupation: d.Occupation,
		Attributes: maps.Clone(d.Attributes), Skills: maps.Clone(d.Skills),
		Specialization: d.Specialization, Weapons: append([]string(nil), d.Weapons...),
		HP: d.MaxHP, MaxHP: d.MaxHP, CreatedSeq: seq, ShotsFired: map[string]int{},
	}
	if s.Skills == nil {
		s.Skills = map[string]int{}
	}
	if !d.NPC {
		s.Token = TokenWithPlayer
	}
	s.Status = statusOf(s.HP)
	return s
}

func (s *Sheet) applyRoll(d *events.RollMade) {
	s.Rolls++
	switch d.Kind {
	case "damage", "heal", "free":
		return // dice rolled for an effect or a free roll, not a rules roll of the character
	}
	if d.Token {
		s.Token = TokenWithGM
	}
	// A returned token lowers the next roll only.
	s.TokenJustReturned = false
	if d.Specialization {
		s.SpecUsedToday = true
	}
	if d.Kind == "ranged" && d.Weapon != "" {
		if s.ShotsFired == nil {
			s.ShotsFired = map[string]int{}
		}
		s.ShotsFired[d.Weapon]++
	}
}

func (s *Sheet) takeDamage(n int) {
	s.HP -= n
	s.Status = statusOf(s.HP)
}

func (s *Sheet) heal(n int) {
	s.HP = min(s.HP+n, s.MaxHP)
	s.Status = statusOf(s.HP)
}

// Clone returns a deep copy of the sheet.
func (s *Sheet) Clone() *Sheet {
	c := *s
	c.Attributes = maps.Clone(s.Attributes)
	c.Skills = maps.Clone(s.Skills)
	c.Weapons = append([]string(nil), s.Weapons...)
	c.ShotsFired = maps.Clone(s.ShotsFired)
	return &c
}

// statusOf is the wound state for hp (docs/rules.md §1.9).
func statusOf(hp int) string { return string(ryf.StatusOf(hp)) }
