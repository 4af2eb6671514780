package command

import (
	"context"
	"errors"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/ryf"
)

// CreateCharacter is the request to create a RyF or Galaxia character.
type CreateCharacter struct {
	ID             string   `json:"id" cli:"ID"`
	Name           string   `json:"name,omitempty" cli:"--name NAME" help:"display name (default: the id)"`
	Player         string   `json:"player" cli:"--player NAME" help:"the player's name"`
	NPC            bool     `json:"npc,omitempty" cli:"--npc" help:"a non-player character: ranges only, no budgets, no token"`
	Occupation     string   `json:"occupation,omitempty" cli:"--occupation TEXT" help:"occupation (free text)"`
	Attributes     string   `json:"attributes" cli:"--attrs F=8,R=7,D=9,I=8,P=8" help:"attributes, e.g. F=8,R=7,D=9,I=8,P=8"` // "F=8,R=7,D=9,I=8,P=8"
	Skills         string   `json:"skills" cli:"--skills \"Pelea=5,Sigilo=3\"" help:"skills, e.g. \"Pelea=5,Sigilo=3\""`      // "Pelea=5,Sigilo=3"
	Specialization string   `json:"specialization,omitempty" cli:"--spec SKILL" help:"the specialization skill" complete:"skill"`
	Weapons        []string `json:"weapons,omitempty" cli:"--weapons A,B" help:"weapons carried, first one wielded, e.g. Espada,Revólver"`
	// The One Ring: Hope maximum, culture and traits. Attributes and Skills
	// then use The One Ring's syntax.
	MaxHope int      `json:"max_hope,omitempty" cli:"--hope N" help:"The One Ring: maximum Hope"`
	Culture string   `json:"culture,omitempty" cli:"--culture C" help:"The One Ring: culture (a hobbit adds to the fellowship pool)"`
	Traits  []string `json:"traits,omitempty" cli:"--traits T,U" help:"The One Ring: traits (specialities and distinctive features), comma-separated"`
}

// RuleWeapon names a weapon a new character carries that the campaign does
// not have, among the character's violations.
const RuleWeapon = "weapon"

// CreateCharacter validates a character against the campaign's rules (every
// violation reported at once) and records it at full HP.
func (j *Handler) CreateCharacter(ctx context.Context, campaign string, req CreateCharacter) (Result, error) {
	if err := events.ValidID(req.ID); err != nil {
		return Result{}, invalid("character id %q: %v", clip.Text(req.ID), err)
	}
	if req.Name == "" {
		req.Name = req.ID
	}
	if strings.TrimSpace(req.Player) == "" && !req.NPC {
		return Result{}, invalid("a player character needs --player USER")
	}
	if req.Player != "" {
		// A character's player is a user id (the user its device logs in
		// as, 'journal login'), compared without case: "Ana" is ana.
		req.Player = strings.ToLower(strings.TrimSpace(req.Player))
		if err := events.ValidID(req.Player); err != nil {
			return Result{}, invalid("--player %q: a player is a user id (as 'journal login' sets it): %v", clip.Text(req.Player), err)
		}
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if d.campaign.Characters[req.ID] != nil {
			return invalid("character %s already exists", req.ID)
		}
		if d.campaign.System == SystemTOR {
			return d.createTORCharacter(req)
		}
		rules, err := d.ryfRules()
		if err != nil {
			return err
		}
		// Every problem at once: the lists, the specialization, the
		// creation rules and the weapons.
		ch, err := rules.ParseCharacter(req.Attributes, req.Skills, req.Specialization, req.NPC)
		var vs []ryf.Violation
		var ie *ryf.InvalidCharacterError
		if errors.As(err, &ie) {
			vs = ie.Violations
		} else if err != nil {
			return invalid("%v", err)
		}
		var weapons []string
		for _, name := range req.Weapons {
			w, err := rules.LookupWeapon(name)
			if err != nil {
				vs = append(vs, ryf.Violation{Rule: RuleWeapon, Subject: name, Message: err.Error()})
				continue
			}
			weapons = append(weapons, w.Name)
		}
		if len(vs) > 0 {
			return invalid("%v", &ryf.InvalidCharacterError{Violations: vs})
		}
		attrs, skills, spec := ch.Attributes, ch.Skills, ch.Specialization
		data := events.CharacterCreated{
			Name: req.Name, Player: req.Player, NPC: req.NPC, Occupation: req.Occupation,
			Attributes: map[string]int{}, Skills: skills, Specialization: spec, Weapons: weapons, MaxHP: ch.MaxHP(),
		}
		for a, v := range attrs {
			data.Attributes[string(a)] = v
		}
		d.add(events.KindCharacter, req.ID, events.TypeCharacterCreated, data)
		return nil
	})
}

// character returns a character of the campaign or a clear error.
func character(c *projections.Campaign, id string) (*projections.Sheet, error) {
	ch := c.Characters[id]
	if ch == nil {
		if len(c.Roster) == 0 {
			return nil, notFound("no character %q in campaign %s (it has none yet)", clip.Text(id), c.ID)
		}
		return nil, notFound("no character %q in campaign %s%s (characters: %s)", clip.Text(id), c.ID, didYouMean(id, c.Roster), strings.Join(c.Roster, ", "))
	}
	return ch, nil
}

// ryfCharacter is what the rules need of a sheet.
func ryfCharacter(s *projections.Sheet) ryf.Character {
	attrs := make(map[ryf.Attr]int, len(s.Attributes))
	for a, v := range s.Attributes {
		attrs[ryf.Attr(a)] = v
	}
	return ryf.Character{Attributes: attrs, Skills: s.Skills, Specialization: s.Specialization, NPC: s.NPC}
}

// canAct refuses a roll for a character who cannot act.
func canAct(s *projections.Sheet) error {
	switch st := ryf.Status(s.Status); {
	case st.CanAct():
	case st == ryf.StatusUnconscious: // one message per status, so that each language says it whole
		return invalid("%s is unconscious and cannot act or roll", s.Name)
	case st == ryf.StatusDead:
		return invalid("%s is dead and cannot act or roll", s.Name)
	default:
		return invalid("%s is %s and cannot act or roll", s.Name, s.Status)
	}
	return nil
}
