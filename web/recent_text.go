package web

import (
	"net/http"
	"slices"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

// describeLate adds the lines of recs, events the live projection folded
// before serve restarted (it keeps the texts of what it folded since: a
// restored checkpoint holds the state, not the lines), described with the
// campaign's state now, in the page's language, to lines, in sequence
// order. The state now names characters as they are named now; every
// other word of a line is the event's own. An event that cannot be read
// has no line, as in the projection.
func (s *Server) describeLate(r *http.Request, campaign string, recs []events.Recorded, lines []recentLine) []recentLine {
	lang := s.PageLang(r)
	_ = s.viewCampaign(r.Context(), campaign, func(c *projections.Campaign) error {
		for _, rec := range recs {
			data, err := rec.Event.Payload()
			if err != nil {
				continue
			}
			if text := projections.DescribeIn(lang, c, rec.Event, data); text != "" {
				lines = append(lines, recentLine{Seq: rec.Seq, Text: text})
			}
		}
		return nil
	})
	slices.SortFunc(lines, func(a, b recentLine) int {
		switch {
		case a.Seq < b.Seq:
			return -1
		case a.Seq > b.Seq:
			return 1
		}
		return 0
	})
	return lines
}
