package command

import (
	"context"
	"crypto/sha256"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Idempotent commands: a client names a command with a request id of its
// choosing (Call.RequestID), so that a command retried after an unknown
// outcome (a timeout: the append may or may not have been stored) is
// recorded once, and the retry returns what the first attempt recorded.
//
//   - The events of a command with a request id carry it (the envelope's
//     requestid) and have ids derived from the campaign, the request id,
//     the actor and what the command is (Call.What and Call.Args) by
//     events.RequestEventID: the same command retried has the same event
//     ids, which are also the Nats-Msg-Id, so that JetStream's duplicate
//     window stores a racing retry once.
//   - The window alone is not enough (a retry may come later, and a
//     retry decides afresh and would draw other dice): before deciding,
//     the command looks up the request id in the campaign's fold (each
//     cached campaign indexes the request ids of its events) and, when
//     the request was recorded, returns its events (Result.Repeated)
//     without deciding or recording anything. The same request id for
//     another command is refused (ErrRequestReused). Request ids are
//     scoped by campaign and actor: two users' ids never meet.
//   - After an append under a request id, the result is read back from
//     the stream (the store reports events already stored as a success,
//     and those may be another attempt's, with other dice).

// ErrRequestReused marks a request id already used in the campaign by
// the same actor for another command. It wraps ErrInvalid.
var ErrRequestReused = msgerr.Errorf("%w: request id already used for another command", ErrInvalid)

// requested is where a request's events are in the stream: from first
// to last (one atomic append, so no other event of the campaign between
// them), and the id of the first (16 bytes: about 48 bytes an entry with
// its key, for every command recorded under a request id).
type requested struct {
	first, last uint64
	id          uuid.UUID
}

// requestKey identifies a request id of an actor: the first 16 bytes of
// SHA-256(actor 0x00 request).
type requestKey [16]byte

func keyOf(actor, request string) requestKey {
	h := sha256.Sum256([]byte(actor + "\x00" + request))
	return requestKey(h[:16])
}

// note indexes r when it was recorded under a request id.
func (s *campaignState) note(r events.Recorded) {
	s.noteLast(r) // the chain's previous event (chain.go)
	if r.Event.RequestID == "" {
		return
	}
	if s.requests == nil {
		s.requests = map[requestKey]requested{}
	}
	k := keyOf(r.Event.Actor, r.Event.RequestID)
	if s.catching && k == s.catch {
		s.caught = append(s.caught, r)
	}
	q, ok := s.requests[k]
	if !ok {
		id, _ := uuid.Parse(r.Event.ID) // canonical: the codec checked it
		s.requests[k] = requested{first: r.Seq, last: r.Seq, id: id}
		return
	}
	q.last = r.Seq
	s.requests[k] = q
}

// requestIDs returns the ids of the view's command's events.
func (j *Handler) requestIDs(campaign string) *events.RequestIDs {
	return &events.RequestIDs{Campaign: campaign, Request: j.request, Command: j.actor + "\x00" + j.command}
}

// repeated returns what the view's request recorded in the campaign, if
// its fold s holds it: ok and the events as recorded, or ErrRequestReused
// when the request id recorded another command. s must be locked.
func (j *Handler) repeated(ctx context.Context, campaign string, s *campaignState) (Result, bool, error) {
	q, ok := s.requests[keyOf(j.actor, j.request)]
	if !ok {
		return Result{}, false, nil
	}
	if want := events.RequestEventID(campaign, j.request, j.actor+"\x00"+j.command, 0); q.id.String() != want {
		return Result{}, false, msgerr.Errorf("%w: %q recorded event %s (seq %d) for another command", ErrRequestReused, clip.Text(j.request), q.id, q.first)
	}
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return Result{}, false, invalid("campaign %q: %v", clip.Text(campaign), err)
	}
	res := Result{Campaign: s.c, Repeated: true}
	err = j.store.Read(ctx, events.Query{Subject: filter, From: q.first, To: q.last}, func(r events.Recorded) error {
		if r.Event.RequestID == j.request && r.Event.Actor == j.actor {
			res.Events = append(res.Events, r)
		}
		return nil
	})
	if err != nil {
		return Result{}, false, err
	}
	if len(res.Events) == 0 {
		return Result{}, false, msgerr.Errorf("request %q: its events (seq %d to %d) were not found", clip.Text(j.request), q.first, q.last)
	}
	return res, true, nil
}

// recorded returns what the view's request recorded, read back from the
// stream after its append: the store reports an event already stored (a
// duplicate id) as a success, and what is stored may be another
// attempt's. s must be locked.
func (j *Handler) recorded(ctx context.Context, campaign string, s *campaignState) (Result, error) {
	s.catch, s.catching, s.caught = keyOf(j.actor, j.request), true, nil
	c, err := j.catchUp(ctx, campaign, s) // reads what the append stored, and collects it
	caught := s.caught
	s.catching, s.caught = false, nil
	if err != nil {
		return Result{}, err
	}
	if len(caught) > 0 && caught[0].Event.ID == events.RequestEventID(campaign, j.request, j.actor+"\x00"+j.command, 0) {
		return Result{Events: caught, Campaign: c}, nil
	}
	res, ok, err := j.repeated(ctx, campaign, s) // stored before the fold read from (the store found it)
	if err != nil {
		return Result{}, err
	}
	if !ok {
		s.c = nil
		return Result{}, msgerr.New("an appended request is not in the stream")
	}
	res.Campaign, res.Repeated = c, false
	return res, nil
}

// repeatedBefore returns what the view's request already recorded in campaign
// (ok), for commands that check the state before they execute (a session
// start draws and stores its seed first): without a request id, or when
// the request recorded nothing yet, ok is false.
func (j *Handler) repeatedBefore(ctx context.Context, campaign string) (Result, bool, error) {
	if j.request == "" {
		return Result{}, false, nil
	}
	if _, err := events.CampaignFilter(campaign); err != nil {
		return Result{}, false, nil // the command refuses it
	}
	s := j.state(campaign)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := j.catchUp(ctx, campaign, s); err != nil {
		return Result{}, false, err
	}
	return j.repeated(ctx, campaign, s)
}
