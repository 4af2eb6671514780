package command

// A suppressed roll can be proved (docs/design.md §3.3): a requester's device
// whose roll.reveal was not recorded (a host that read r on its way, did
// not like the roll, dropped the reveal and cancelled the request) sends
// the same signed reveal again, and the journal records what the roll
// would have been.
//
// Invariants:
//   - ProveRoll takes only the requester's own signed roll.reveal, under
//     the key registered for it, opening the request's commitment.
//   - A pending request of the open session is revealed as RevealRoll
//     reveals it (the roll is made); a request cancelled, or left
//     unrevealed when its session ended, gets one journal.roll.proved.v1
//     and nothing else: its faces, totals and outcomes are the ones the
//     request's own path (v2Paths' draw) draws on the campaign's state just
//     before the cancellation (or the session's end), in a scratch draft
//     whose events are read and dropped, so no consequence (damage, XP,
//     state) is applied and there is no second copy of any roll's rules.
//   - A request is proved once; a request whose roll was made is refused.
//   - The session's seed need not be revealed: the journal holds it.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// ProveRoll records the actor's signed roll.reveal for its request: made
// if the request is pending in the open session, proved (RollProved) if it
// was cancelled or left unrevealed at its session's end.
func (j *Handler) ProveRoll(ctx context.Context, campaign string, in RollRevealSigned) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		m, err := signed.Parse(in.Signed)
		if err != nil {
			return invalid("signed message of %s: %v", j.actor, err)
		}
		if _, ok := m.(*signed.Reveal); !ok {
			return invalid("signed message is a %s, not a %s", m.Kind(), signed.TypeReveal)
		}
		s := d.campaign.Session(m.Head().Session)
		if s == nil {
			return notFound("no session %s in campaign %s", m.Head().Session, d.campaign.ID)
		}
		if !s.V2() {
			return invalid("session %s uses %s, not journal-dice-v2", s.ID, s.Algorithm)
		}
		rev, err := signedAs[*signed.Reveal](d, j.actor, in.SignedMessage, s.ID, signed.TypeReveal)
		if err != nil {
			return err
		}
		p := s.Requests[rev.Request]
		if p == nil {
			return notFound("no roll request %s in session %s", rev.Request, s.ID)
		}
		if p.Requested.User != j.actor {
			return invalid("request %s is %s's: only its requester proves it", rev.Request, p.Requested.User)
		}
		if in.Character != "" && !slices.Contains(requestCharacters(p.Requested), in.Character) {
			return invalid("request %s is for %s, not %s", rev.Request, strings.Join(requestCharacters(p.Requested), " and "), in.Character)
		}
		var at uint64 // the state the roll would have been drawn on ends before at
		switch {
		case p.State == projections.RequestMade:
			return invalid("request %s was already made: its roll is recorded, there is nothing to prove", rev.Request)
		case p.Proved != "":
			return invalid("request %s is already proved (event %s): a request is proved once", rev.Request, p.Proved)
		case p.State == projections.RequestPending && !s.Ended:
			return j.reveal(ctx, d, in) // not suppressed (yet): the roll is made
		case p.State == projections.RequestPending:
			at = s.EndedSeq
		default:
			at = p.CancelledSeq
		}
		if at < 2 {
			return msgerr.Errorf("request %s: the journal does not know where it was cancelled", rev.Request)
		}
		req, err := signed.Parse(p.Requested.Signed)
		if err != nil {
			return msgerr.Errorf("recorded request %s: %w", rev.Request, err)
		}
		if err := signed.CheckReveal(req.(*signed.Request), rev); err != nil {
			return invalid("%v", err)
		}
		rolls, err := j.wouldRoll(ctx, d, s.ID, at-1, rev, in.SignedMessage)
		if err != nil {
			return err
		}
		if len(rolls) == 0 {
			return msgerr.Errorf("request %s: its path drew no roll", rev.Request)
		}
		first := rolls[0]
		d.addIn(s.ID, events.KindCharacter, freeAggregate(p.Requested.Character), events.TypeRollProved, events.RollProved{
			User: j.actor, Character: p.Requested.Character, Signed: in.Signed, Signature: in.Signature,
			Request: rev.Request, Reveal: rev.R.String(), Nonce: p.Requested.Nonce, Nonces: p.Requested.Nonces,
			CancelledBy: p.CancelledBy, Cancel: p.CancelEvent,
			Draws: first.Draws, Faces: first.Faces, Total: first.Total, Outcome: first.Outcome, Rolls: rolls,
		})
		return nil
	})
}

// wouldRoll draws the request of rev on the campaign's state at sequence
// upTo (just before its cancellation or its session's end) through the
// request's own path, in a scratch draft, and returns the rolls drawn;
// every other event the path drafts (its consequences) is dropped.
func (j *Handler) wouldRoll(ctx context.Context, d *draft, session string, upTo uint64, rev *signed.Reveal, msg SignedMessage) ([]events.ProvedRoll, error) {
	before, err := j.Load(ctx, d.campaign.ID, upTo)
	if err != nil {
		return nil, err
	}
	s := before.Session(session)
	if s == nil || before.OpenSession() != s || s.Requests[rev.Request] == nil || s.Requests[rev.Request].State != projections.RequestPending {
		return nil, msgerr.Errorf("request %s is not pending in session %s at sequence %d", rev.Request, session, upTo)
	}
	key, err := j.sessionKeyV2(ctx, before, s)
	if err != nil {
		return nil, err
	}
	n := 0
	scratch := &draft{ctx: ctx, j: j, campaign: before, now: d.now, ids: events.IDFunc(func() (string, error) {
		n++
		return fmt.Sprintf("00000000-0000-7000-8000-%012d", n), nil
	})}
	src := v2Source{R: [32]byte(rev.R), User: j.actor, Signed: msg.Signed, Signature: msg.Signature}
	err = scratch.drawV2(s, key, s.Requests[rev.Request].Requested, src)
	if err == nil {
		err = scratch.err
	}
	if err != nil {
		return nil, invalid("request %s: its roll cannot be drawn on the state before its cancellation: %v", rev.Request, err)
	}
	var out []events.ProvedRoll
	for _, ev := range scratch.evs {
		if ev.Type != events.TypeRollMade {
			continue
		}
		data, err := ev.Payload()
		if err != nil {
			return nil, err
		}
		r := data.(*events.RollMade)
		out = append(out, events.ProvedRoll{Character: r.Character, Kind: r.Kind, Nonce: r.Nonce,
			Draws: r.Draws, Faces: r.Faces, Total: r.Total, Outcome: r.Outcome})
	}
	return out, nil
}
