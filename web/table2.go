package web

// The table's journal-dice-v2 paths besides the roll and the attack
// (docs/design.md §3.2, §6): the action a device signs for a contest, a combat
// start (initiative), an after-combat healing, a The One Ring roll and
// Hope, as the rules spell them; an ended session's session-ended event
// as the journal stores it, for each device to hash and co-sign; and void
// proposals, where the GM asks a roll's roller for the signed void.consent
// that the void then carries.
//
// Invariants:
//   - The action routes record nothing: they answer what the journal's
//     *ActionFor functions answer, for an acting character the requester
//     may act for (the permissions of roll-request); the request the device
//     signs is judged again when it is recorded.
//   - The session-ended route gives the event's stored bytes themselves
//     (base64), so that the device hashes them and not the journal's word
//     for their hash.
//   - Void proposals are the table's, like roll calls: they live in this
//     server's memory and record no event. Only a GM of the campaign
//     proposes; only the roll's roller (the user who requested it) adds a
//     consent, and only one that opens under the roller's registered key
//     for the roll's session and names the proposal's event and reason
//     exactly. The void itself is the journal's "void" command, which
//     checks the consent again.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// table2Routes are the routes of this file (added to tableRoutes).
func (s *Server) table2Routes() []Route {
	return []Route{
		{http.MethodPost, "/api/campaigns/{c}/actions/{name}", "the signed action of a journal-dice-v2 contest, combat-start, heal-after-combat, tor-roll or tor-hope (body: v2ActionBody), as the rules spell it; records nothing", s.v2Action},
		{http.MethodGet, "/api/campaigns/{c}/sessions/{s}/ended", "an ended session's session-ended event: its id, sequence and stored bytes (base64), for a device to co-sign", s.sessionEnded},
		{http.MethodGet, "/api/campaigns/{c}/void-proposals", "the GM's open void proposals, with their rollers' consents", s.listVoidProposals},
		{http.MethodPost, "/api/campaigns/{c}/void-proposals", "propose to void a journal-dice-v2 roll, asking its roller's consent (the GM's; body: {event_id, reason})", s.proposeVoid},
		{http.MethodPost, "/api/campaigns/{c}/void-proposals/{id}/consent", "the roller's signed void.consent for a proposal (body: {signed, signature})", s.consentVoid},
	}
}

// v2ActionBody is what the action routes read: the acting character (""
// for the GM) and the inputs of the action named in the path.
type v2ActionBody struct {
	Character string `json:"character"`
	// contest
	A               string `json:"a"`
	SkillA          string `json:"skill_a"`
	AttributeA      string `json:"attribute_a"`
	ModifierA       int    `json:"modifier_a"`
	TokenA          bool   `json:"token_a"`
	SpecializationA bool   `json:"specialization_a"`
	B               string `json:"b"`
	SkillB          string `json:"skill_b"`
	AttributeB      string `json:"attribute_b"`
	ModifierB       int    `json:"modifier_b"`
	TokenB          bool   `json:"token_b"`
	SpecializationB bool   `json:"specialization_b"`
	Rematch         string `json:"rematch"`
	// combat-start
	Participants []string `json:"participants"`
	Token        []string `json:"token"`
	// tor-roll
	Skill string `json:"skill"`
	TN    *int   `json:"tn"` // nil (absent or null): the default 14; 0 is refused
	Trait string `json:"trait"`
	// free-roll (the character is optional for the GM)
	Dice   string `json:"dice"`
	Note   string `json:"note"`
	Secret bool   `json:"secret"`
}

func (s *Server) v2Action(w http.ResponseWriter, r *http.Request) error {
	c, _, err := campaignOf(r)
	if err != nil {
		return err
	}
	body, err := readBody(w, r)
	if err != nil {
		return err
	}
	var req v2ActionBody
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	acting, err := json.Marshal(map[string]string{"character": req.Character})
	if err != nil {
		return err
	}
	if err := s.authorizeCommand(r, c, "roll-request", acting); err != nil {
		return err
	}
	actor, err := s.actor(r)
	if err != nil {
		return err
	}
	j, ctx := s.journal(actor), r.Context()
	var act any
	switch name := r.PathValue("name"); name {
	case command.CommandContest:
		act, err = j.ContestActionFor(ctx, c, command.ContestRequest{A: req.A, SkillA: req.SkillA, AttrA: req.AttributeA,
			ModA: req.ModifierA, TokenA: req.TokenA, SpecA: req.SpecializationA, B: req.B, SkillB: req.SkillB,
			AttrB: req.AttributeB, ModB: req.ModifierB, TokenB: req.TokenB, SpecB: req.SpecializationB, Rematch: req.Rematch})
	case command.CommandCombatStart:
		act, err = j.InitiativeActionFor(ctx, c, command.CombatStart{Participants: req.Participants, Token: req.Token})
	case command.CommandHealAfterCombat:
		act, err = j.HealActionFor(ctx, c, req.Character)
	case command.CommandTORRoll:
		act, err = j.TORRollActionFor(ctx, c, command.RollRequest{Character: req.Character, Skill: req.Skill, TN: req.TN, Trait: req.Trait})
	case command.CommandTORHope:
		act, err = j.TORHopeActionFor(ctx, c, req.Character)
	case command.CommandFreeRoll:
		act, err = j.FreeRollActionFor(ctx, c, command.FreeRollRequest{Character: req.Character, Dice: req.Dice, Note: req.Note, Secret: req.Secret})
	default:
		return &httpError{status: http.StatusNotFound, msg: fmt.Sprintf("no journal-dice-v2 action %q (contest, combat-start, heal-after-combat, tor-roll, tor-hope, free-roll; attack has its own route)", clip.Text(name))}
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, act)
}

// endedJSON is a session's session-ended event as stored.
type endedJSON struct {
	Session string `json:"session"`
	Event   string `json:"event"`
	Seq     uint64 `json:"seq"`
	// Stored is the event's stored bytes, standard base64.
	Stored string `json:"stored"`
}

func (s *Server) sessionEnded(w http.ResponseWriter, r *http.Request) error {
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	var sess projections.Session
	err = s.withCampaign(r, func(c *projections.Campaign) error {
		ss := c.Session(r.PathValue("s"))
		if ss == nil {
			return fmt.Errorf("%w: no session %q in campaign %s", events.ErrNotFound, clip.Text(r.PathValue("s")), c.ID)
		}
		if !ss.Ended || ss.EndedSeq == 0 {
			return badRequest("session %s has not ended", ss.ID)
		}
		sess = *ss
		return nil
	})
	if err != nil {
		return err
	}
	var out endedJSON
	errFound := errors.New("found")
	err = s.opts.Store.Read(r.Context(), events.Query{Subject: filter, From: sess.EndedSeq, To: sess.EndedSeq}, func(rec events.Recorded) error {
		if rec.Event.ID != sess.EndedEvent {
			return fmt.Errorf("the stream holds event %s at seq %d, not session %s's end %s", rec.Event.ID, rec.Seq, sess.ID, sess.EndedEvent)
		}
		b, err := storedBytes(r.Context(), s.opts.Store, rec)
		if err != nil {
			return err
		}
		out = endedJSON{Session: sess.ID, Event: rec.Event.ID, Seq: rec.Seq, Stored: base64.StdEncoding.EncodeToString(b)}
		return errFound
	})
	if err != nil && !errors.Is(err, errFound) {
		return err
	}
	if out.Event == "" {
		return fmt.Errorf("%w: session %s's end is not at seq %d of campaign %s", events.ErrNotFound, sess.ID, sess.EndedSeq, id)
	}
	return writeJSON(w, http.StatusOK, out)
}

// storedBytes is rec's stored bytes: as the store's read gave them
// (events.Recorded.Raw), else the store's own when it gives them, else the
// event's encoding, which is what a store keeps.
func storedBytes(ctx context.Context, st Store, rec events.Recorded) ([]byte, error) {
	if rec.Raw != nil {
		return rec.Raw, nil
	}
	if raw, ok := st.(interface {
		StoredBytes(context.Context, events.Recorded) ([]byte, error)
	}); ok {
		return raw.StoredBytes(ctx, rec)
	}
	return events.Encode(rec.Event)
}

// voidProposal is the GM's proposal to void a v2 roll, and its roller's
// consent once given.
type voidProposal struct {
	ID        string    `json:"id"`
	EventID   string    `json:"event_id"`
	Reason    string    `json:"reason"`
	Session   string    `json:"session"`
	Character string    `json:"character"`
	Roller    string    `json:"roller"`
	Created   time.Time `json:"created"`
	// The roller's signed void.consent, as the void command takes it.
	ConsentSigned    string `json:"consent_signed,omitempty"`
	ConsentSignature string `json:"consent_signature,omitempty"`
}

// voidProposals are the open void proposals of each campaign (in memory).
type voidProposals struct {
	mu   sync.Mutex
	n    int
	open map[string][]voidProposal
}

// table2State is this file's part of the server's memory.
type table2State struct {
	voids voidProposals
}

func (s *Server) listVoidProposals(w http.ResponseWriter, r *http.Request) error {
	c := r.PathValue("c")
	var voided map[string]string
	if err := s.withCampaign(r, func(camp *projections.Campaign) error {
		voided = camp.Voided
		return nil
	}); err != nil {
		return err
	}
	s.table2.voids.mu.Lock()
	defer s.table2.voids.mu.Unlock()
	// A proposal ends with its void.
	if open := s.table2.voids.open[c]; len(open) > 0 {
		s.table2.voids.open[c] = slices.DeleteFunc(open, func(p voidProposal) bool { _, done := voided[p.EventID]; return done })
	}
	out := slices.Clone(s.table2.voids.open[c])
	if out == nil {
		out = []voidProposal{}
	}
	return writeJSON(w, http.StatusOK, out)
}

// proposeBody is the body of a void proposal.
type proposeBody struct {
	EventID string `json:"event_id"`
	Reason  string `json:"reason"`
}

func (s *Server) proposeVoid(w http.ResponseWriter, r *http.Request) error {
	c, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	if err := s.requireGM(r, c, "propose voids"); err != nil {
		return err
	}
	body, err := readBody(w, r)
	if err != nil {
		return err
	}
	var req proposeBody
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	if err := events.ValidID(req.EventID); err != nil {
		return badRequest("event_id %q: %v", clip.Text(req.EventID), err)
	}
	if req.Reason == "" || len(req.Reason) > signed.MaxReasonLen {
		return badRequest("reason: write one, at most %d bytes", signed.MaxReasonLen)
	}
	var target *events.Event
	errFound := errors.New("found")
	err = s.opts.Store.Read(r.Context(), events.Query{Subject: filter}, func(rec events.Recorded) error {
		if rec.Event.ID == req.EventID {
			ev := rec.Event
			target = &ev
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return err
	}
	if target == nil {
		return fmt.Errorf("%w: no event %s in campaign %s", events.ErrNotFound, clip.Text(req.EventID), c)
	}
	if target.Type != events.TypeRollMade {
		return badRequest("event %s is a %s: a roller consents to the void of a journal-dice-v2 roll only", target.ID, target.Type)
	}
	var roll events.RollMade
	if err := target.DecodeData(&roll); err != nil {
		return err
	}
	p := voidProposal{EventID: target.ID, Reason: req.Reason, Session: target.Session, Character: roll.Character, Created: s.opts.Clock().UTC()}
	err = s.withCampaign(r, func(camp *projections.Campaign) error {
		sess := camp.Session(target.Session)
		if sess == nil || !sess.V2() {
			return badRequest("roll %s is not of a journal-dice-v2 session: its void takes no consent", target.ID)
		}
		if _, done := camp.Voided[target.ID]; done {
			return badRequest("roll %s is already voided", target.ID)
		}
		p.Roller = roll.User
		if q := sess.Requests[roll.Request]; q != nil {
			p.Roller = q.Requested.User // the requester, whoever gave r
		}
		if p.Roller == "" {
			return badRequest("roll %s names no roller: its void takes no consent", target.ID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	v := &s.table2.voids
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.open == nil {
		v.open = map[string][]voidProposal{}
	}
	if len(v.open[c]) >= 64 {
		return &httpError{status: http.StatusConflict, msg: "64 void proposals are open: void or let some go first"}
	}
	for _, o := range v.open[c] {
		if o.EventID == p.EventID {
			return &httpError{status: http.StatusConflict, msg: fmt.Sprintf("roll %s is already proposed for a void (%s)", p.EventID, o.ID)}
		}
	}
	v.n++
	p.ID = fmt.Sprintf("void-%d", v.n)
	v.open[c] = append(v.open[c], p)
	return writeJSON(w, http.StatusOK, p)
}

// consentBody is a roller's signed void.consent.
type consentBody struct {
	Signed    string `json:"signed"`
	Signature string `json:"signature"`
}

func (s *Server) consentVoid(w http.ResponseWriter, r *http.Request) error {
	c, id := r.PathValue("c"), r.PathValue("id")
	if _, _, err := campaignOf(r); err != nil {
		return err
	}
	actor, err := s.actor(r)
	if err != nil {
		return err
	}
	body, err := readBody(w, r)
	if err != nil {
		return err
	}
	var req consentBody
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	v := &s.table2.voids
	find := func() (voidProposal, bool) {
		v.mu.Lock()
		defer v.mu.Unlock()
		i := slices.IndexFunc(v.open[c], func(p voidProposal) bool { return p.ID == id })
		if i < 0 {
			return voidProposal{}, false
		}
		return v.open[c][i], true
	}
	p, ok := find()
	if !ok {
		return fmt.Errorf("%w: no open void proposal %s in campaign %s", events.ErrNotFound, id, c)
	}
	if actor != p.Roller {
		return fmt.Errorf("%w: roll %s is %s's: only its roller consents to its void, not %s", events.ErrDenied, p.EventID, p.Roller, actor)
	}
	var pubs []signed.PublicKey
	err = s.withCampaign(r, func(camp *projections.Campaign) error {
		devs := camp.Participants[actor].ActiveDevices() // any active device of the roller's, newest first
		if len(devs) == 0 {
			return badRequest("%s has no registered key in campaign %s", actor, camp.ID)
		}
		for _, d := range devs {
			pub, err := signed.ParsePublicKey(d.PublicKey)
			if err != nil {
				return err
			}
			pubs = append(pubs, pub)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var m signed.Message
	for _, pub := range pubs {
		if m, err = signed.Open(pub, req.Signed, req.Signature, c, p.Session); err == nil {
			break
		}
	}
	if err != nil {
		return badRequest("the consent: %v", err)
	}
	vc, ok := m.(*signed.VoidConsent)
	switch {
	case !ok:
		return badRequest("the consent is a %s, not a %s", m.Kind(), signed.TypeVoidConsent)
	case vc.Event != p.EventID:
		return badRequest("the consent is for event %s, not %s", vc.Event, p.EventID)
	case vc.Reason != p.Reason:
		return badRequest("the consent's reason %q is not the proposal's %q", clip.Text(vc.Reason), clip.Text(p.Reason))
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for i := range v.open[c] {
		if v.open[c][i].ID == id {
			v.open[c][i].ConsentSigned, v.open[c][i].ConsentSignature = req.Signed, req.Signature
			p = v.open[c][i]
		}
	}
	return writeJSON(w, http.StatusOK, p)
}
