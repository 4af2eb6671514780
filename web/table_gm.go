package web

// The GM's routes of the table (docs/design.md §6): the names a page offers
// in its skill and attribute pickers (the rules' names, so that a roll call
// or a roll names a skill as the rules spell it), and the invites the GM
// makes from the page, as `journal invite` makes them.
//
// Invariants:
//   - The names route records nothing and answers what the rules have: the
//     system's skills in docs/rules.md's order, then the campaign's own
//     (skill define); the attributes by letter (RyF) or name (The One
//     Ring); the weapons the campaign defined. Any reader of the campaign
//     may ask (a player's page offers the same names).
//   - Only a GM of the campaign makes an invite, for that campaign only,
//     signed "by" the GM's own name; a player's invite names characters of
//     the campaign; a name the access file gives another role or campaign
//     is refused, as `journal invite` refuses it. The invite's token is in
//     the answer once and the book keeps its SHA-256 only.

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// gmRoutes are the routes of this file (added to tableRoutes).
func (s *Server) gmRoutes() []Route {
	return []Route{
		{http.MethodGet, "/api/campaigns/{c}/names", "the rules' names a page offers: skills (system's, then the campaign's), attributes and weapons; records nothing", s.ruleNames},
		{http.MethodPost, "/api/campaigns/{c}/invites", "make a one-time invite link for the campaign (the GM's; body: {user, role, characters, expires_hours}), as journal invite does", s.makeInvite},
	}
}

// nameRow is one skill or attribute a picker offers.
type nameRow struct {
	Name string `json:"name"`
	// Attribute is a skill's default attribute; Letter an attribute's
	// letter (RyF), which a roll names it by.
	Attribute string `json:"attribute,omitempty"`
	Letter    string `json:"letter,omitempty"`
	// Group is The One Ring's skill group; English a The One Ring skill's
	// English name (which the journal also reads).
	Group   string `json:"group,omitempty"`
	English string `json:"english,omitempty"`
	Origin  string `json:"origin,omitempty"` // "system" or "campaign"
}

// namesJSON is the names route's answer.
type namesJSON struct {
	System     string    `json:"system"`
	Skills     []nameRow `json:"skills"`
	Attributes []nameRow `json:"attributes"`
	Weapons    []string  `json:"weapons"`
}

// namesOf is what the rules name in campaign c (pure).
func namesOf(c *projections.Campaign) namesJSON {
	out := namesJSON{System: c.System, Skills: []nameRow{}, Attributes: []nameRow{}, Weapons: []string{}}
	if c.System == events.SystemTOR {
		for _, s := range tor.Skills() {
			out.Skills = append(out.Skills, nameRow{Name: s.Name, English: s.English, Attribute: string(s.Attribute), Group: string(s.Group), Origin: "system"})
		}
		for _, a := range []tor.Attribute{tor.Cuerpo, tor.Corazon, tor.Mente} {
			out.Attributes = append(out.Attributes, nameRow{Name: string(a)})
		}
		return out
	}
	for _, s := range ryf.SystemSkills(ryf.System(c.System)) {
		out.Skills = append(out.Skills, nameRow{Name: s.Name, Attribute: string(s.Attr), Origin: "system"})
	}
	for _, s := range c.Skills {
		out.Skills = append(out.Skills, nameRow{Name: s.Name, Attribute: s.Attribute, Origin: "campaign"})
	}
	attrs := []ryf.Attr{ryf.Fuerza, ryf.Resistencia, ryf.Destreza, ryf.Inteligencia, ryf.Percepcion}
	if c.Carisma {
		attrs = append(attrs, ryf.Carisma)
	}
	for _, a := range attrs {
		out.Attributes = append(out.Attributes, nameRow{Name: a.Name(), Letter: string(a)})
	}
	for _, w := range c.Weapons {
		out.Weapons = append(out.Weapons, w.Name)
	}
	return out
}

func (s *Server) ruleNames(w http.ResponseWriter, r *http.Request) error {
	var out namesJSON
	if err := s.withCampaign(r, func(c *projections.Campaign) error {
		out = namesOf(c)
		return nil
	}); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

// inviteBody is the body of an invite made from the page.
type inviteBody struct {
	User       string   `json:"user"`
	Role       string   `json:"role"` // player (default), gm or viewer
	Characters []string `json:"characters"`
	// ExpiresHours is how long the link stays usable (0: invite.DefaultTTL).
	ExpiresHours int `json:"expires_hours"`
}

// invitedJSON is the invite made: its token once, and the link's path.
type invitedJSON struct {
	Token      string    `json:"token"`
	Link       string    `json:"link"` // the path of the link: /table#invite=TOKEN
	Invite     string    `json:"invite"`
	User       string    `json:"user"`
	Role       string    `json:"role"`
	Campaign   string    `json:"campaign"`
	Characters []string  `json:"characters,omitempty"`
	Expires    time.Time `json:"expires"`
}

// maxInviteHours bounds an invite's life from the page (30 days).
const maxInviteHours = 30 * 24

func (s *Server) makeInvite(w http.ResponseWriter, r *http.Request) error {
	c, _, err := campaignOf(r)
	if err != nil {
		return err
	}
	if err := s.requireGM(r, c, "invite"); err != nil {
		return err
	}
	if s.opts.Devices == nil {
		return &httpError{status: http.StatusNotFound, msg: msgerr.New("this server keeps no invites: serve it with --access FILE")}
	}
	body, err := readBody(w, r)
	if err != nil {
		return err
	}
	var req inviteBody
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	if req.Role == "" {
		req.Role = invite.RolePlayer
	}
	if req.ExpiresHours < 0 || req.ExpiresHours > maxInviteHours {
		return badRequest("expires_hours %d: want 0 (the default, %s) up to %d", req.ExpiresHours, invite.DefaultTTL, maxInviteHours)
	}
	by := "gm"
	if p, ok := principal(r); ok {
		by = p.Name
	}
	if p, taken := invite.Taken(s.opts.Access, req.User, c, req.Role); taken { // as journal invite
		return badRequest("user %q is a %s of campaign %q: invite another name", clip.Text(req.User), p.Role, p.Campaign)
	}
	if err := s.withCampaign(r, func(camp *projections.Campaign) error {
		for _, ch := range req.Characters {
			if camp.Characters[ch] == nil && (camp.TOR == nil || camp.TOR.Characters[ch] == nil) {
				return badRequest("character %q: campaign %s has no such character", clip.Text(ch), c)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	tok, inv, err := s.opts.Devices.Create(r.Context(), invite.Spec{User: req.User, Role: req.Role, Campaign: c,
		Characters: slices.Clone(req.Characters), By: by, TTL: time.Duration(req.ExpiresHours) * time.Hour})
	if errors.Is(err, invite.ErrInvalid) {
		return badRequest("%v", err)
	}
	if err != nil {
		return msgerr.Errorf("invite: %w", err)
	}
	return writeJSON(w, http.StatusOK, invitedJSON{Token: tok, Link: "/table#invite=" + tok, Invite: inv.ID, User: inv.User,
		Role: inv.Role, Campaign: inv.Campaign, Characters: inv.Characters, Expires: inv.Expires})
}
