package web

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
)

// apiRoutes is the API: every route, its method and what it does.
func (s *Server) apiRoutes() []Route {
	return []Route{
		{http.MethodGet, "/api/campaigns", "the campaigns, by id", s.listCampaigns},
		{http.MethodPost, "/api/campaigns", "create a campaign (body: command.CreateCampaign)", s.createCampaign},
		{http.MethodGet, "/api/campaigns/{c}", "the campaign's state (?at=SEQ: as of a stream sequence)", s.getCampaign},
		{http.MethodGet, "/api/campaigns/{c}/characters", "the character sheets, in creation order (?at=SEQ); The One Ring's sheets for a tor campaign", s.listCharacters},
		{http.MethodGet, "/api/campaigns/{c}/characters/{ch}", "one character sheet (?at=SEQ)", s.getCharacter},
		{http.MethodGet, "/api/campaigns/{c}/sessions", "the sessions, with commitments and revealed seeds", s.listSessions},
		{http.MethodGet, "/api/campaigns/{c}/combat", "the combat in progress", s.getCombat},
		{http.MethodGet, "/api/campaigns/{c}/transcript", "one line per event (?session=S, ?at=SEQ, ?lang=es|en: the lines' language, Spanish by default, ?tail=N: the last N lines only)", s.getTranscript},
		{http.MethodGet, "/api/campaigns/{c}/events", "the events as JSON (?from=&to=&types=&tail=&limit=), or with Accept: text/event-stream a live feed resumable with Last-Event-ID", s.getEvents},
		{http.MethodGet, "/api/campaigns/{c}/stats", "luck statistics: observed against expected faces, per character (?session=S, ?character=C)", s.getStats},
		{http.MethodGet, "/api/campaigns/{c}/rolls/{id}/explain", "one roll step by step, verified when its seed is revealed", s.explainRoll},
		{http.MethodGet, "/api/commands", "the commands POST /api/campaigns/{c}/commands/{name} accepts", s.listCommands},
		{http.MethodPost, "/api/campaigns/{c}/commands/{name}", "run a command (body: its request as JSON)", s.runCommand},
	}
}

// campaignOf returns the campaign id of the request's path and its subject filter.
func campaignOf(r *http.Request) (string, string, error) {
	id := r.PathValue("c")
	filter, err := events.CampaignFilter(id)
	if err != nil {
		return "", "", badRequest("campaign %q: %v", clip.Text(id), err)
	}
	return id, filter, nil
}

// uintParam reads an optional unsigned query parameter (0 when absent).
func uintParam(r *http.Request, name string) (uint64, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, badRequest("?%s=%s: want a non-negative whole number", name, clip.Text(v))
	}
	return n, nil
}

// at reads ?at=SEQ, which must be positive when given.
func at(r *http.Request) (uint64, error) {
	if !r.URL.Query().Has("at") {
		return 0, nil
	}
	n, err := uintParam(r, "at")
	if err == nil && n == 0 {
		err = badRequest("?at=0: want a stream sequence from 1")
	}
	return n, err
}

// withCampaign calls fn with campaign c's state: as of ?at= by a refold, or
// else the live state once it holds every event of the campaign stored
// when the request arrived (falling back to a refold if the live
// projection does not get there within FreshWait). An unknown campaign is
// a 404.
func (s *Server) withCampaign(r *http.Request, fn func(c *projections.Campaign) error) error {
	ctx := r.Context()
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	upTo, err := at(r)
	if err != nil {
		return err
	}
	last, err := s.campaignLast(ctx, id, filter)
	if err != nil {
		return err
	}
	if upTo == 0 {
		wctx, cancel := context.WithTimeout(ctx, s.opts.FreshWait)
		proj := s.proj.For(id) // a campaign lives in its partition's stream
		err := proj.WaitFor(wctx, last)
		cancel()
		if err == nil {
			err = proj.View(id, fn)
			if !errors.Is(err, events.ErrNotFound) {
				return err
			}
		} else if ctx.Err() != nil {
			return ctx.Err()
		}
		s.opts.Logger.Warn("live projection behind: refolding", "campaign", id, "last", last, "position", s.proj.For(id).Position())
	}
	c, err := s.journal(s.opts.Actor).Load(ctx, id, upTo)
	if err != nil {
		return err
	}
	if c.Events == 0 {
		return notFound("campaign %s has no events up to sequence %d", id, upTo)
	}
	return fn(c)
}

func (s *Server) listCampaigns(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	wctx, cancel := context.WithTimeout(ctx, s.opts.FreshWait)
	defer cancel()
	if s.proj.Partitions() == 1 {
		last, err := s.opts.Store.Last(ctx, events.AllFilter)
		if err != nil {
			return err
		}
		_ = s.proj.Partition(0).WaitFor(wctx, last) // a slightly stale list is still a list
	} else if err := s.proj.CatchUp(wctx); err != nil && ctx.Err() != nil {
		return ctx.Err() // else: a slightly stale list is still a list
	}
	list := s.proj.Campaigns()
	list = slices.DeleteFunc(list, func(c live.Summary) bool { return !s.mayRead(r, c.ID) })
	return writeJSON(w, http.StatusOK, list)
}

func (s *Server) getCampaign(w http.ResponseWriter, r *http.Request) error {
	return s.withCampaign(r, func(c *projections.Campaign) error {
		return writeJSON(w, http.StatusOK, c)
	})
}

func (s *Server) listCharacters(w http.ResponseWriter, r *http.Request) error {
	return s.withCampaign(r, func(c *projections.Campaign) error {
		if c.TOR != nil {
			out := make([]*projections.TORSheet, 0, len(c.TOR.Roster))
			for _, id := range c.TOR.Roster {
				if ch := c.TOR.Characters[id]; ch != nil {
					out = append(out, ch)
				}
			}
			return writeJSON(w, http.StatusOK, out)
		}
		out := make([]*projections.Sheet, 0, len(c.Roster))
		for _, id := range c.Roster {
			if ch := c.Characters[id]; ch != nil {
				out = append(out, ch)
			}
		}
		return writeJSON(w, http.StatusOK, out)
	})
}

func (s *Server) getCharacter(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("ch")
	if err := events.ValidID(id); err != nil {
		return badRequest("character %q: %v", clip.Text(id), err)
	}
	return s.withCampaign(r, func(c *projections.Campaign) error {
		if c.TOR != nil {
			if ch := c.TOR.Characters[id]; ch != nil {
				return writeJSON(w, http.StatusOK, ch)
			}
		}
		ch := c.Characters[id]
		if ch == nil {
			return notFound("no character %s in campaign %s", id, c.ID)
		}
		return writeJSON(w, http.StatusOK, ch)
	})
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) error {
	return s.withCampaign(r, func(c *projections.Campaign) error {
		out := c.Sessions
		if out == nil {
			out = []*projections.Session{}
		}
		return writeJSON(w, http.StatusOK, out)
	})
}

func (s *Server) getCombat(w http.ResponseWriter, r *http.Request) error {
	return s.withCampaign(r, func(c *projections.Campaign) error {
		if c.Combat == nil {
			return notFound("no combat in progress in campaign %s", c.ID)
		}
		return writeJSON(w, http.StatusOK, c.Combat)
	})
}

func (s *Server) getTranscript(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	upTo, err := at(r)
	if err != nil {
		return err
	}
	session := r.URL.Query().Get("session")
	if session != "" {
		if err := events.ValidID(session); err != nil {
			return badRequest("?session=%s: %v", session, err)
		}
	}
	var lang i18n.Lang
	if v := r.URL.Query().Get("lang"); v != "" {
		if lang, err = i18n.Parse(v); err != nil {
			return badRequest("?lang=%s: %v", v, err)
		}
	}
	tail, err := uintParam(r, "tail")
	if err != nil {
		return err
	}
	var lines []projections.Line
	if upTo == 0 { // the server's projection, read on from where it is
		last, err := s.campaignLast(ctx, id, filter)
		if err != nil {
			return err
		}
		e := s.pages.transcript(id, session, lang)
		var n int
		if lines, n, err = e.lines(ctx, s.pageStore(id), filter, last, tail); err != nil {
			return err
		}
		if n == 0 {
			return notFound("campaign %s does not exist", id)
		}
	} else {
		tr := projections.NewTranscript(id, session)
		tr.Lang = lang
		if err := s.opts.Store.Read(ctx, events.Query{Subject: filter, To: upTo}, tr.Apply); err != nil {
			return err
		}
		if tr.Campaign.Events == 0 {
			return notFound("campaign %s does not exist", id)
		}
		lines = tr.Lines
	}
	if tail > 0 && uint64(len(lines)) > tail {
		lines = lines[uint64(len(lines))-tail:]
	}
	if lines == nil {
		lines = []projections.Line{}
	}
	return writeJSON(w, http.StatusOK, lines)
}

// recordJSON is one event of the JSON list.
type recordJSON struct {
	Seq     uint64       `json:"seq"`
	Subject string       `json:"subject"`
	Event   events.Event `json:"event"`
}

// Limits of the JSON event list.
const (
	defaultEventLimit = 1000
	maxEventLimit     = 10000
)

// errEnough stops a read that has what it needs.
var errEnough = msgerr.New("enough")

func (s *Server) getEvents(w http.ResponseWriter, r *http.Request) error {
	if wantsStream(r) {
		return s.streamEvents(w, r)
	}
	ctx := r.Context()
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	q := events.Query{Subject: filter}
	if q.From, err = uintParam(r, "from"); err != nil {
		return err
	}
	if q.To, err = uintParam(r, "to"); err != nil {
		return err
	}
	if q.To != 0 && q.From > q.To {
		return badRequest("?from=%d is after ?to=%d", q.From, q.To)
	}
	if t := r.URL.Query().Get("types"); t != "" {
		q.Types = strings.Split(t, ",")
		if err := q.Validate(); err != nil {
			return badRequest("?types=: %v", err)
		}
	}
	limit, err := uintParam(r, "limit")
	if err != nil {
		return err
	}
	if limit == 0 {
		limit = defaultEventLimit
	}
	limit = min(limit, maxEventLimit)
	tail, err := uintParam(r, "tail")
	if err != nil {
		return err
	}
	last, err := s.campaignLast(ctx, id, filter)
	if err != nil {
		return err
	}
	if tail > 0 { // the newest page, read backwards: not the whole campaign
		if q.To == 0 || q.To > last {
			q.To = last
		}
		out, err := readTail(ctx, s.opts.Store.Read, q, min(tail, maxEventLimit))
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, out)
	}
	out := []recordJSON{}
	err = s.opts.Store.Read(ctx, q, func(rec events.Recorded) error {
		out = append(out, recordJSON{Seq: rec.Seq, Subject: rec.Subject, Event: rec.Event})
		if uint64(len(out)) >= limit {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

func (s *Server) getStats(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	f := replay.LuckFilter{Campaign: id, Session: r.URL.Query().Get("session"), Character: r.URL.Query().Get("character")}
	for name, v := range map[string]string{"session": f.Session, "character": f.Character} {
		if v != "" {
			if err := events.ValidID(v); err != nil {
				return badRequest("?%s=%s: %v", name, v, err)
			}
		}
	}
	last, err := s.campaignLast(ctx, id, filter)
	if err != nil {
		return err
	}
	rep, err := s.pages.statsOf(f).report(ctx, s.pageStore(id), filter, last)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, rep)
}

func (s *Server) explainRoll(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	eventID := r.PathValue("id")
	src := replay.StoreSource(s.opts.Store.Read, events.Query{Subject: filter})
	x, err := replay.ExplainEvent(ctx, src, eventID, nil)
	switch {
	case errors.Is(err, replay.ErrNotFound):
		return notFound("no event %s in campaign %s", clip.Text(eventID), id)
	case errors.Is(err, replay.ErrNotRoll):
		return badRequest("event %s is not a roll", eventID)
	case err != nil:
		return err
	}
	return writeJSON(w, http.StatusOK, x)
}

// campaignLast is the last stream sequence of campaign id (events on
// filter), or a 404 when the campaign has no event.
func (s *Server) campaignLast(ctx context.Context, id, filter string) (uint64, error) {
	last, err := s.opts.Store.Last(ctx, filter)
	if err != nil {
		return 0, err
	}
	if last == 0 {
		return 0, notFound("campaign %s does not exist", id)
	}
	return last, nil
}
