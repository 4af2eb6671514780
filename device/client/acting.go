package client

import (
	"slices"
	"strings"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
)

// Who and what a device's command names in a campaign's state: pure
// reads of it.

// ActingCharacter names a character for the permissions of a command of
// the actor that has none of its own (a contribution): the character its
// player plays, else the first NPC, else the first character.
func ActingCharacter(camp *projections.Campaign, actor string) string {
	if camp.TOR != nil {
		return torActingCharacter(camp, actor)
	}
	var npc string
	for _, id := range camp.Roster {
		ch := camp.Characters[id]
		if ch == nil {
			continue
		}
		if strings.EqualFold(ch.Player, actor) {
			return id
		}
		if ch.NPC && npc == "" {
			npc = id
		}
	}
	if npc != "" {
		return npc
	}
	if len(camp.Roster) > 0 {
		return camp.Roster[0]
	}
	return ""
}

// torActingCharacter is ActingCharacter for a The One Ring campaign.
func torActingCharacter(camp *projections.Campaign, actor string) string {
	var npc string
	for _, id := range camp.TOR.Roster {
		ch := camp.TOR.Characters[id]
		if ch == nil {
			continue
		}
		if ch.Player == actor {
			return id
		}
		if ch.NPC && npc == "" {
			npc = id
		}
	}
	if npc == "" && len(camp.TOR.Roster) > 0 {
		npc = camp.TOR.Roster[0]
	}
	return npc
}

// PlayedBy is the first of chars whose player is actor, else the first:
// the character a v2 request of several characters acts for.
func PlayedBy(camp *projections.Campaign, actor string, chars ...string) string {
	for _, id := range chars {
		if ch := camp.Characters[id]; ch != nil && strings.EqualFold(ch.Player, actor) {
			return id
		}
	}
	if len(chars) == 0 {
		return ""
	}
	return chars[0]
}

// HoldsKey reports whether pub is an active device of user in camp.
func HoldsKey(camp *projections.Campaign, user, pub string) bool {
	d, ok := camp.Participants[user].Device(pub)
	return ok && d.Active()
}

// RegisteredKeys lists the public keys camp registers for user: every
// active device of the user (docs/design.md §3.3).
func RegisteredKeys(camp *projections.Campaign, user string) []string {
	if camp == nil {
		return nil
	}
	var keys []string
	for _, d := range camp.Participants[user].ActiveDevices() {
		keys = append(keys, d.PublicKey)
	}
	return keys
}

// WitnessesOf lists the users who may witness a request of requester:
// registered players other than it.
func WitnessesOf(c *projections.Campaign, requester string) []string {
	var out []string
	for u, p := range c.Participants {
		if p.Role == command.RolePlayer && u != requester {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return out
}

// FindRequest finds a v2 roll request in any session of c.
func FindRequest(c *projections.Campaign, request string) (*projections.Session, *projections.PendingRoll) {
	for _, s := range c.Sessions {
		if p := s.Requests[request]; p != nil {
			return s, p
		}
	}
	return nil, nil
}

// LastEnded is the campaign's session named id, or its last ended one.
func LastEnded(camp *projections.Campaign, id string) (*projections.Session, error) {
	if id != "" {
		s := camp.Session(id)
		if s == nil {
			return nil, msgerr.Errorf("%w: no session %s in campaign %s", events.ErrNotFound, clip.Text(id), camp.ID)
		}
		return s, nil
	}
	for i := len(camp.Sessions) - 1; i >= 0; i-- {
		if camp.Sessions[i].Ended {
			return camp.Sessions[i], nil
		}
	}
	return nil, usagef("campaign %s has no ended session to co-sign", camp.ID)
}
