package projections

import "github.com/campaign-journal/journal/events"

// endV2 keeps where a v2 session's co-signatures find what they sign: the
// session-ended event's id and stream sequence (the command layer hashes
// its stored bytes).
func (s *Session) endV2(rec events.Recorded) {
	if !s.V2() {
		return
	}
	s.EndedEvent, s.EndedSeq = rec.Event.ID, rec.Seq
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
