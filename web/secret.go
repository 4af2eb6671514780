package web

// The GM's secret rolls (docs/design.md §3.4): their outcome is in no
// event until revealed, so the only route that shows it is the GM's.

import (
	"net/http"
)

// secretRoutes are the routes of the GM's secret rolls.
func (s *Server) secretRoutes() []Route {
	return []Route{
		{http.MethodGet, "/api/campaigns/{c}/secret-rolls", "the GM's secret rolls with their outcome, revealed or not (the GM's only: no event holds an unrevealed outcome)", s.secretRolls},
	}
}

func (s *Server) secretRolls(w http.ResponseWriter, r *http.Request) error {
	c, _, err := campaignOf(r)
	if err != nil {
		return err
	}
	if err := s.requireGM(r, c, "read the secret rolls"); err != nil {
		return err
	}
	actor, err := s.actor(r)
	if err != nil {
		return err
	}
	rolls, err := s.journal(actor).SecretRolls(r.Context(), c)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, rolls)
}
