package projections

import "github.com/campaign-journal/journal/events"

// endV2 keeps what a v2 session's co-signatures are checked against: the
// session-ended event's id and its hash (events.EventHash: SHA-256 of the
// bytes the journal stores for it).
func (s *Session) endV2(ev events.Event) {
	if !s.V2() {
		return
	}
	s.EndedEvent = ev.ID
	if h, err := events.EventHash(ev); err == nil {
		s.EndedHash = h
	}
}

// cosign records a user's co-signature of the session's end.
func (s *Session) cosign(ev events.Event, d *events.SessionCosigned) {
	if s.Cosigned == nil {
		s.Cosigned = map[string]string{}
	}
	if _, done := s.Cosigned[d.User]; !done {
		s.Cosigned[d.User] = ev.ID
	}
}
