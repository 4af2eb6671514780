package command

// Co-signed session ends (docs/design.md §3.2, "Chain"): after a v2 session
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
	"errors"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/signed"
)

// CosignSigned is a signed session.cosign of the session it names;
// Character is a character of the campaign whose player sends it, for the
// permissions (as ContributeSigned's).
type CosignSigned struct {
	Character string `json:"character" help:"a character you play, for the permissions (default: yours, or an NPC)"`
	SignedMessage
}

// Cosign records the actor's signed session.cosign of an ended v2 session.
func (j *Handler) Cosign(ctx context.Context, campaign string, in CosignSigned) (Result, error) {
	msg := in.SignedMessage
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if in.Character != "" {
			if err := characterExists(d.campaign, in.Character); err != nil {
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
		hash, err := j.endedHash(ctx, d.campaign.ID, s.EndedSeq, s.EndedEvent)
		if err != nil {
			return err
		}
		if c.Ended.String() != hash {
			return invalid("the co-signature names hash %s, session %s's session-ended event %s hashes to %s", c.Ended, s.ID, s.EndedEvent, hash)
		}
		d.addIn(s.ID, events.KindSession, s.ID, events.TypeSessionCosigned, events.SessionCosigned{
			User: j.actor, Character: in.Character, Signed: msg.Signed, Signature: msg.Signature,
			Ended: hash, EndedEvent: s.EndedEvent,
		})
		return nil
	})
}

// errStop ends a read once its event is found.
var errStop = msgerr.New("stop")

// endedHash is hex(SHA-256) of the stored bytes of the session-ended event
// id at seq of campaign, as the store gives them (events.Recorded.Raw).
func (j *Handler) endedHash(ctx context.Context, campaign string, seq uint64, id string) (string, error) {
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return "", err
	}
	if seq == 0 {
		return "", msgerr.Errorf("session-ended event %s: no stream sequence", id)
	}
	var hash string
	err = j.store.Read(ctx, events.Query{Subject: filter, From: seq, To: seq}, func(r events.Recorded) error {
		if r.Event.ID != id {
			return msgerr.Errorf("the stream holds event %s at seq %d, not the session-ended event %s", r.Event.ID, seq, id)
		}
		if r.Raw == nil {
			return msgerr.Errorf("session-ended event %s: %w", id, errNoStoredBytes)
		}
		hash = events.ChainHash(r.Raw)
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return "", err
	}
	if hash == "" {
		return "", msgerr.Errorf("session-ended event %s is not at seq %d", id, seq)
	}
	return hash, nil
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
