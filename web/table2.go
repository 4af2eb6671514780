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
//   - Void proposals are the journal's, like roll calls (table_calls.go:
//     the catalogue's void-propose and void-consent). Only a GM of the
//     campaign proposes; only the roll's roller (the user who requested it)
//     adds a consent, and only one that opens under one of the roller's
//     active devices for the roll's session and names the proposal's event
//     and reason exactly. The void itself is the journal's "void" command,
//     which checks the consent again.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
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
	// contest: the catalogue's body of a contest (its entropy is refused:
	// a device's secret replaces it)
	command.ContestRequest
	// combat-start
	Participants []string `json:"participants"`
	Token        []string `json:"token"`
	// tor-roll
	Skill string `json:"skill"`
	TN    *int   `json:"tn"` // nil (absent or null): the default 14; 0 is refused
	Trait string `json:"trait"`
	// Call is the roll call a tor-roll answers ("" for none).
	Call string `json:"call"`
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
		if req.EntropyA != "" || req.EntropyB != "" {
			return badRequest("contest action: entropy_a and entropy_b are not for a journal-dice-v2 contest (the device's secret replaces entropy)")
		}
		act, err = j.ContestActionFor(ctx, c, req.ContestRequest)
	case command.CommandCombatStart:
		act, err = j.InitiativeActionFor(ctx, c, command.CombatStart{Participants: req.Participants, Token: req.Token})
	case command.CommandHealAfterCombat:
		act, err = j.HealActionFor(ctx, c, req.Character)
	case command.CommandTORRoll:
		act, err = j.TORRollActionFor(ctx, c, command.RollRequest{Character: req.Character, Skill: req.Skill, TN: req.TN, Trait: req.Trait, Call: req.Call})
	case command.CommandTORHope:
		act, err = j.TORHopeActionFor(ctx, c, req.Character)
	case command.CommandFreeRoll:
		act, err = j.FreeRollActionFor(ctx, c, command.FreeRollRequest{Character: req.Character, Dice: req.Dice, Note: req.Note, Secret: req.Secret})
	default:
		return &httpError{status: http.StatusNotFound, msg: msgerr.Errorf("no journal-dice-v2 action %q (contest, combat-start, heal-after-combat, tor-roll, tor-hope, free-roll; attack has its own route)", clip.Text(name))}
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
			return msgerr.Errorf("%w: no session %q in campaign %s", events.ErrNotFound, clip.Text(r.PathValue("s")), c.ID)
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
	errFound := msgerr.New("found")
	err = s.opts.Store.Read(r.Context(), events.Query{Subject: filter, From: sess.EndedSeq, To: sess.EndedSeq}, func(rec events.Recorded) error {
		if rec.Event.ID != sess.EndedEvent {
			return msgerr.Errorf("the stream holds event %s at seq %d, not session %s's end %s", rec.Event.ID, rec.Seq, sess.ID, sess.EndedEvent)
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
		return msgerr.Errorf("%w: session %s's end is not at seq %d of campaign %s", events.ErrNotFound, sess.ID, sess.EndedSeq, id)
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
