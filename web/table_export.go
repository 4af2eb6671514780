package web

import (
	"bufio"
	"net/http"

	"github.com/campaign-journal/journal/events"
)

// The table's export (docs/design.md §6): the campaign's events as JSON
// Lines, one event a line in stream order, each line the event's stored
// bytes verbatim (the bytes journal-dice-v2's chain hashes), as `journal
// export` writes them; the offline verifier page and `journal replay
// --file` read it. It is read as the campaign's other reads are
// authorized: whoever may read its events may export them.

// exportRoutes are the routes of this file (added to tableRoutes).
func (s *Server) exportRoutes() []Route {
	return []Route{
		{http.MethodGet, "/api/campaigns/{c}/export", "the campaign's events as JSON Lines, each line an event's stored bytes in stream order, as journal export writes them (the input of journal replay --file and of the offline verifier)", s.exportCampaign},
	}
}

func (s *Server) exportCampaign(w http.ResponseWriter, r *http.Request) error {
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	var out *bufio.Writer
	err = s.opts.Store.Read(r.Context(), events.Query{Subject: filter}, func(rec events.Recorded) error {
		b, err := storedBytes(r.Context(), s.opts.Store, rec)
		if err != nil {
			return err
		}
		if out == nil {
			w.Header().Set("Content-Type", "application/jsonl; charset=utf-8")
			w.Header().Set("Content-Disposition", `attachment; filename="`+id+`.jsonl"`)
			out = bufio.NewWriter(w)
		}
		out.Write(b)
		return out.WriteByte('\n')
	})
	if out != nil {
		if ferr := out.Flush(); err == nil {
			err = ferr
		}
		return err
	}
	if err != nil {
		return err
	}
	return notFound("campaign %s has no events", id)
}
