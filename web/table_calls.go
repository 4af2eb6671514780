package web

// The table's roll calls and void proposals (docs/design.md §6), as the
// journal records them (command/calls.go, command/void_proposals.go):
// the routes keep their paths and JSON, and run the catalogue's commands
// call, call-close, void-propose and void-consent.
//
// Invariants:
//   - Every route that records runs its command with the request's
//     Idempotency-Key (or body member request_id) as its request id: a
//     retry or a double tap with the same key records once and answers
//     the same.
//   - Each is authorized as its command is on /commands/{name}: making
//     and closing calls and proposing voids are the GM's; a consent is the
//     roll's roller's (the journal checks who, access the character).
//   - What they list is the live projection's fold: it survives a restart.

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/projections"
)

// tableCommand runs the catalogue's command name in campaign c for r: body
// is the command's body, request the request id; authorized, timed and
// counted as the commands route does, and awaited in the live projection.
func (s *Server) tableCommand(r *http.Request, c, name, request string, body []byte) (command.Result, error) {
	if err := s.authorizeCommand(r, c, name, body); err != nil {
		return command.Result{}, err
	}
	spec, ok := catalog.Lookup(name)
	if !ok {
		return command.Result{}, notFound("no command %q (see GET /api/commands)", clip.Text(name))
	}
	return s.record(r, name, c, http.StatusOK, func(ctx context.Context, j *command.Handler, call command.Call) (command.Result, error) {
		call.RequestID = request
		return spec.Run(ctx, j, call, c, body)
	})
}

// recordedData decodes the data of the first event of type typ res
// recorded.
func recordedData[D any](res command.Result, typ string) (D, events.Event, error) {
	var d D
	for _, rec := range res.Events {
		if rec.Event.Type == typ {
			return d, rec.Event, rec.Event.DecodeData(&d)
		}
	}
	return d, events.Event{}, notFound("the command recorded no %s", typ)
}

// tableBody reads r's body and its request id (Idempotency-Key or the
// body's request_id), the body without it.
func tableBody(w http.ResponseWriter, r *http.Request) (string, []byte, error) {
	body, err := readBody(w, r)
	if err != nil {
		return "", nil, err
	}
	return catalog.RequestID(r.Header.Get(IdempotencyKey), body)
}

func (s *Server) listCalls(w http.ResponseWriter, r *http.Request) error {
	out := []*projections.Call{}
	err := s.withCampaign(r, func(c *projections.Campaign) error {
		out = append(out, c.Calls...)
		return writeJSON(w, http.StatusOK, out)
	})
	return err
}

func (s *Server) makeCall(w http.ResponseWriter, r *http.Request) error {
	c, _, err := campaignOf(r)
	if err != nil {
		return err
	}
	request, body, err := tableBody(w, r)
	if err != nil {
		return err
	}
	res, err := s.tableCommand(r, c, "call", request, body)
	if err != nil {
		return err
	}
	d, ev, err := recordedData[events.CallMade](res, events.TypeCallMade)
	if err != nil {
		return err
	}
	call := projections.Call{ID: d.Call, Characters: d.Characters, Skill: d.Skill, Attribute: d.Attribute, Vs: d.Vs,
		Note: d.Note, By: d.By, Created: ev.Time, Event: ev.ID, Answered: map[string]string{}}
	return writeJSON(w, http.StatusOK, call)
}

// closeBody is the optional body of a call's close.
type closeBody struct {
	Reason string `json:"reason,omitempty"`
}

func (s *Server) closeCall(w http.ResponseWriter, r *http.Request) error {
	c, _, err := campaignOf(r)
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	request, body, err := tableBody(w, r)
	if err != nil {
		return err
	}
	var req closeBody
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	cmd, err := json.Marshal(command.CallClose{Call: id, Reason: req.Reason})
	if err != nil {
		return err
	}
	if _, err := s.tableCommand(r, c, "call-close", request, cmd); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"closed": id})
}

func (s *Server) listVoidProposals(w http.ResponseWriter, r *http.Request) error {
	out := []*projections.VoidProposal{}
	return s.withCampaign(r, func(c *projections.Campaign) error {
		out = append(out, c.VoidProposals...)
		return writeJSON(w, http.StatusOK, out)
	})
}

func (s *Server) proposeVoid(w http.ResponseWriter, r *http.Request) error {
	c, _, err := campaignOf(r)
	if err != nil {
		return err
	}
	request, body, err := tableBody(w, r)
	if err != nil {
		return err
	}
	res, err := s.tableCommand(r, c, "void-propose", request, body)
	if err != nil {
		return err
	}
	d, ev, err := recordedData[events.VoidProposed](res, events.TypeVoidProposed)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, projections.VoidProposal{ID: d.Proposal, EventID: d.EventID, Reason: d.Reason,
		Session: d.Session, Character: d.Character, Roller: d.Roller, By: d.By, Created: ev.Time, Event: ev.ID})
}

// consentBody is a roller's signed void.consent.
type consentBody struct {
	Signed    string `json:"signed"`
	Signature string `json:"signature"`
}

func (s *Server) consentVoid(w http.ResponseWriter, r *http.Request) error {
	c, _, err := campaignOf(r)
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	request, body, err := tableBody(w, r)
	if err != nil {
		return err
	}
	var req consentBody
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	var p projections.VoidProposal
	if err := s.withCampaign(r, func(camp *projections.Campaign) error {
		open := camp.OpenVoidProposal(id)
		if open == nil {
			return notFound("no open void proposal %s in campaign %s", clip.Text(id), c)
		}
		p = *open
		return nil
	}); err != nil {
		return err
	}
	cmd, err := json.Marshal(command.VoidConsent{Character: p.Character, Proposal: p.ID,
		SignedMessage: command.SignedMessage{Signed: req.Signed, Signature: req.Signature}})
	if err != nil {
		return err
	}
	res, err := s.tableCommand(r, c, "void-consent", request, cmd)
	if err != nil {
		return err
	}
	d, _, err := recordedData[events.VoidConsented](res, events.TypeVoidConsented)
	if err != nil {
		return err
	}
	p.ConsentSigned, p.ConsentSignature = d.Signed, d.Signature
	return writeJSON(w, http.StatusOK, p)
}
