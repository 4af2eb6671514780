package command

// Co-signed session ends (DESIGN.md §3.2, "Chain"): after a v2 session
// ends, each participant's device co-signs its session-ended event with a
// signed session.cosign {ended: hex(SHA-256(the event's stored bytes))}.
//
// Invariants:
//   - A co-signature is recorded only for an ended journal-dice-v2 session
//     of the campaign, under the key registered for the actor, naming the
//     hash of that session's session-ended event as the journal stores it
//     (projections.Session.EndedHash); a user co-signs a session once.
//   - The event's envelope names the co-signed session (not the session in
//     progress, if another has started since), so that its signature's
//     scope is the envelope's, as for every device message.

import (
	"context"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// CosignSigned is a signed session.cosign of the session it names;
// Character is a character of the campaign whose player sends it, for the
// permissions (as ContributeSigned's).
type CosignSigned struct {
	Character string `json:"character"`
	SignedMessage
}

// Cosign records the actor's signed session.cosign of an ended v2 session.
func (j *Journal) Cosign(ctx context.Context, campaign string, in CosignSigned) (Result, error) {
	msg := in.SignedMessage
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if in.Character != "" {
			if _, err := character(d.campaign, in.Character); err != nil {
				return err
			}
		}
		m, err := signed.Parse(msg.Signed)
		if err != nil {
			return invalid("signed message of %s: %v", j.actor, err)
		}
		s := d.campaign.Session(m.Head().Session)
		switch {
		case s == nil:
			return notFound("no session %s in campaign %s", m.Head().Session, d.campaign.ID)
		case !s.V2():
			return invalid("session %s uses %s, not journal-dice-v2: it has no co-signatures", s.ID, s.Algorithm)
		case !s.Ended:
			return invalid("session %s has not ended: co-sign it after 'journal session end'", s.ID)
		}
		c, err := signedAs[*signed.Cosign](d, j.actor, msg, s.ID, signed.TypeCosign)
		if err != nil {
			return err
		}
		if prev, done := s.Cosigned[j.actor]; done {
			return invalid("%s already co-signed the end of session %s (event %s): a user co-signs once", j.actor, s.ID, prev)
		}
		if s.EndedHash == "" {
			return invalid("session %s's end has no hash to co-sign", s.ID)
		}
		if c.Ended.String() != s.EndedHash {
			return invalid("the co-signature names hash %s, session %s's session-ended event %s hashes to %s", c.Ended, s.ID, s.EndedEvent, s.EndedHash)
		}
		d.addIn(s.ID, events.KindSession, s.ID, events.TypeSessionCosigned, events.SessionCosigned{
			User: j.actor, Character: in.Character, Signed: msg.Signed, Signature: msg.Signature,
			Ended: s.EndedHash, EndedEvent: s.EndedEvent,
		})
		return nil
	})
}

// addIn is add for an event of the given session (add names the session
// in progress).
func (d *draft) addIn(session string, kind events.Kind, aggID, typ string, data any) string {
	if d.err != nil {
		return ""
	}
	ev, err := events.New(events.Spec{
		Campaign: d.campaign.ID, Kind: kind, AggregateID: aggID, Name: events.Name(typ), Type: typ,
		Session: session, Actor: d.j.actor, RequestID: d.j.request, Command: d.j.name, Data: data,
	}, d.ids, d.now)
	if err != nil {
		d.err = err
		return ""
	}
	d.evs = append(d.evs, ev)
	return ev.ID
}
