package web

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// readBody reads a request body of at most MaxBody bytes.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return nil, &httpError{status: http.StatusUnsupportedMediaType, msg: msgerr.Errorf("Content-Type %q: send application/json", clip.Text(ct))}
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
}

// IdempotencyKey is the header that carries a command's request id (or
// the body's request_id): a command retried with the same one is recorded
// once, and the retry gets the original events (see command.Call.RequestID).
const IdempotencyKey = "Idempotency-Key"

// recordedJSON is one event a command recorded.
type recordedJSON struct {
	Seq   uint64       `json:"seq"`
	Text  string       `json:"text,omitempty"`
	Event events.Event `json:"event"`
}

// resultJSON is the response to a command.
type resultJSON struct {
	Command  string         `json:"command"`
	Campaign string         `json:"campaign"`
	Recorded []recordedJSON `json:"recorded"`
	// LastSeq is the sequence of the last event recorded: the live views
	// include it once the response is sent.
	LastSeq uint64 `json:"last_seq,omitempty"`
	// Repeated: the request id had recorded these events already; this
	// request recorded nothing.
	Repeated bool `json:"repeated,omitempty"`
	// Secret is the outcome of the GM's secret rolls the command recorded:
	// the GM's answer only, in no event (command.Result.Secret).
	Secret []command.SecretRoll `json:"secret,omitempty"`
}

// commandJSON is one command of GET /api/commands: its name, what it
// does, an example body (its request at its zero value: members left out
// when empty), its required members (always a list) and its body's JSON
// Schema (catalog.Spec.Schema: every member, request_id, no others).
type commandJSON struct {
	Name     string          `json:"name"`
	Doc      string          `json:"doc"`
	Body     any             `json:"body"`
	Required []string        `json:"required"`
	Schema   *catalog.Schema `json:"schema"`
}

func (s *Server) listCommands(w http.ResponseWriter, r *http.Request) error {
	// The command that creates a campaign is taken on POST /api/campaigns.
	cmds := slices.DeleteFunc(catalog.All(), func(s catalog.Spec) bool { return s.Creates })
	out := make([]commandJSON, len(cmds))
	for i, c := range cmds {
		out[i] = commandJSON{Name: c.Name, Doc: c.Doc, Body: c.Body, Required: append([]string{}, c.Required...), Schema: c.Schema()}
	}
	return writeJSON(w, http.StatusOK, out)
}

func (s *Server) createCampaign(w http.ResponseWriter, r *http.Request) error {
	body, err := readBody(w, r)
	if err != nil {
		return err
	}
	request, body, err := catalog.RequestID(r.Header.Get(IdempotencyKey), body)
	if err != nil {
		return err
	}
	var req command.CreateCampaign
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	if err := catalog.RequireFields(req, []string{"id", "system"}); err != nil {
		return err
	}
	if err := s.authorizeCommand(r, req.ID, "campaign-create", body); err != nil {
		return err
	}
	return s.execute(w, r, "campaign-create", req.ID, func(ctx context.Context, j *command.Handler, call command.Call) (command.Result, error) {
		call.RequestID = request
		create, _ := catalog.Lookup("campaign-create")
		return create.Run(ctx, j, call, req.ID, body)
	})
}

func (s *Server) runCommand(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("name")
	cmd, ok := catalog.Lookup(name)
	if !ok || cmd.Creates {
		return notFound("no command %q (see GET /api/commands)", clip.Text(name))
	}
	campaign, _, err := campaignOf(r)
	if err != nil {
		return err
	}
	body, err := readBody(w, r)
	if err != nil {
		return err
	}
	request, body, err := catalog.RequestID(r.Header.Get(IdempotencyKey), body)
	if err != nil {
		return err
	}
	// A body that does not decode is a 400 for whoever may issue the
	// command; it is forbidden only for what it asks (access.AuthorizeCommand).
	if err := s.authorizeCommand(r, campaign, name, body); err != nil {
		return err
	}
	return s.execute(w, r, name, campaign, func(ctx context.Context, j *command.Handler, call command.Call) (command.Result, error) {
		call.RequestID = request
		return cmd.Run(ctx, j, call, campaign, body)
	})
}

// execute runs a command, timing it and counting what it appended, waits
// until the live projection holds its events, and writes what it recorded
// (201 for a campaign or a character created, 200 otherwise).
func (s *Server) execute(w http.ResponseWriter, r *http.Request, name, campaign string, run func(ctx context.Context, j *command.Handler, call command.Call) (command.Result, error)) error {
	status := http.StatusOK
	if name == "campaign-create" || name == "character-create" {
		status = http.StatusCreated
	}
	res, err := s.record(r, name, campaign, status, run)
	if err != nil {
		return err
	}
	out := resultJSON{Command: name, Campaign: campaign, Recorded: make([]recordedJSON, len(res.Events)), Repeated: res.Repeated, Secret: res.Secret}
	proj := s.proj.For(campaign)
	if len(res.Events) > 0 {
		proj = s.proj.For(res.Events[0].Event.Campaign)
	}
	for i, rec := range res.Events {
		out.Recorded[i] = recordedJSON{Seq: rec.Seq, Event: rec.Event}
		out.Recorded[i].Text, _ = proj.TextIn(rec.Seq, s.PageLang(r))
		out.LastSeq = max(out.LastSeq, rec.Seq)
	}
	return writeJSON(w, status, out)
}

// record runs a command as r's actor: run gets the command handlers and
// the call of r's actor and access role (the campaign's GM by its access
// role may roll in secret: command.Call.GM), to complete with its request
// id and run (command.Handler.For, catalog.Spec.Run). It times the command
// as name with status on success, counts what it appended, and waits (at
// most FreshWait) until the live projection holds its events: what every
// route that records does, the commands route and the table's own.
func (s *Server) record(r *http.Request, name, campaign string, status int, run func(ctx context.Context, j *command.Handler, call command.Call) (command.Result, error)) (command.Result, error) {
	actor, err := s.actor(r)
	if err != nil {
		return command.Result{}, err
	}
	ctx := r.Context()
	begin := time.Now()
	call := command.Call{Actor: actor}
	if p, ok := principal(r); s.opts.Access == nil || ok && (p.Role == access.RoleGM || p.Role == access.RoleJournal) {
		call.GM = true // the campaign's GM by its access role (without access control, the server's own actor): it may roll in secret
	} else if ok && p.Role == access.RolePlayer {
		call.Player = true // never the GM, whatever it registers
	}
	res, err := run(ctx, s.commands, call)
	if err != nil {
		s.metrics.command(name, Status(err), time.Since(begin))
		return res, err
	}
	s.metrics.command(name, status, time.Since(begin))
	if !res.Repeated { // recorded before, and counted then
		for _, rec := range res.Events {
			s.metrics.appended(rec.Event.Type)
		}
	}
	if len(res.Events) > 0 {
		// The events are the campaign's, sequences of its partition's stream.
		campaign = res.Events[0].Event.Campaign
	}
	s.await(ctx, campaign, res) // recorded either way; only the texts need it
	return res, nil
}
