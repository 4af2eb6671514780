package web

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/signed"
)

// Receipts at the table (docs/design.md §3.3, "Receipts"): the page's device
// keeps what it signs (IndexedDB, receipts.js) and, on every load, checks
// that the journal still holds every head it signed after seeing. This
// route gives it the event at a sequence: its id, the hash of its stored
// bytes and the bytes themselves, read as the campaign's other reads are
// authorized. It tells a device what the journal holds; the device
// decides whether that is what it saw.

// receiptRoutes are the routes of this file (added to tableRoutes).
func (s *Server) receiptRoutes() []Route {
	return []Route{
		{http.MethodGet, "/api/campaigns/{c}/events/{seq}/hash", "the campaign's event at a stream sequence as stored: its id, the hex SHA-256 of its stored bytes and those bytes (base64), for a device to check what it signed after seeing", s.eventHash},
	}
}

// eventHashJSON is an event of the campaign at a sequence, as stored.
type eventHashJSON struct {
	Campaign string `json:"campaign"`
	Seq      uint64 `json:"seq"`
	Event    string `json:"event"`
	// Hash is hex(SHA-256(stored bytes)), as a message's seen.hash names it.
	Hash string `json:"hash"`
	// Stored is the event's stored bytes, standard base64.
	Stored string `json:"stored"`
}

func (s *Server) eventHash(w http.ResponseWriter, r *http.Request) error {
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	seq, err := strconv.ParseUint(r.PathValue("seq"), 10, 64)
	if err != nil || seq == 0 {
		return badRequest("sequence %q: want a stream sequence of at least 1", clip.Text(r.PathValue("seq")))
	}
	var out *eventHashJSON
	errFound := msgerr.New("found")
	err = s.opts.Store.Read(r.Context(), events.Query{Subject: filter, From: seq, To: seq}, func(rec events.Recorded) error {
		if rec.Seq != seq {
			return nil
		}
		b, err := storedBytes(r.Context(), s.opts.Store, rec)
		if err != nil {
			return err
		}
		out = &eventHashJSON{Campaign: id, Seq: seq, Event: rec.Event.ID, Hash: signed.SeenOf(seq, b).Hash.String(), Stored: base64.StdEncoding.EncodeToString(b)}
		return errFound
	})
	if err != nil && !errors.Is(err, errFound) {
		return err
	}
	if out == nil {
		return msgerr.Errorf("%w: campaign %s has no event at sequence %d", events.ErrNotFound, id, seq)
	}
	return writeJSON(w, http.StatusOK, out)
}
