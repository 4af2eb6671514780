package command

import (
	"context"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
)

// The campaign's chain (events/chain.go; docs/design.md §3.3 "One chain per
// campaign, from its first event"): every event the journal appends to a
// campaign, but the campaign's first (its creation), carries prevhash, the
// hash of the stored bytes of the campaign's previous event, whatever the
// session's dice. Every append is conditional on the campaign's last
// sequence, so the previous event is the one the draft was decided on;
// its stored bytes are those the fold read (events.Recorded.Raw), or, for
// an event this journal just appended, Encode's output, which is what the
// store stored.
//
// A campaign created before the journal chained every event (its fold
// counts unchained events: projections.Campaign.NeedsAnchor) is anchored
// by the first command that appends to it: before the command's own
// events, as an append of its own conditional on the same last sequence,
// the journal records one journal.chain.anchored.v1 event covering every
// earlier event of the campaign (events.ChainAnchored), itself chained to
// the last of them. The command's events then chain to the anchor. The
// anchor is recorded once: a refused append (another writer came first)
// is decided again on fresh state, which holds the other writer's anchor.

// anchorActor is the actor of the anchor: the journal itself, not whoever
// issued the command that made it.
const anchorActor = "journal"

// errNoStoredBytes: the store gave an event without its stored bytes,
// which the chain needs.
var errNoStoredBytes = msgerr.New("the store gave no stored bytes")

// noteLast remembers r as the campaign's last event, the next event's
// previous one.
func (s *campaignState) noteLast(r events.Recorded) {
	s.hasLast, s.lastRaw, s.lastHash = true, r.Raw, ""
	s.lastEventID = r.Event.ID
}

// prevHash is the prevhash of the campaign's next event: the hash of its
// last event's stored bytes, "" when it has no event yet.
func (s *campaignState) prevHash() (string, error) {
	switch {
	case !s.hasLast:
		return "", nil
	case s.lastHash != "":
		return s.lastHash, nil
	case s.lastRaw == nil:
		return "", msgerr.Errorf("chain: %w of the campaign's last event %s", errNoStoredBytes, s.lastEventID)
	}
	s.lastHash = events.ChainHash(s.lastRaw)
	return s.lastHash, nil
}

// chain sets prevhash on the drafted events, in order, and returns the
// hash of the last one as it will be stored.
func (s *campaignState) chain(evs []events.Event) (string, error) {
	prev, err := s.prevHash()
	if err != nil {
		return "", err
	}
	for i := range evs {
		evs[i].PrevHash = prev
		if prev, err = events.EventHash(evs[i]); err != nil {
			return "", msgerr.Errorf("chain: event %s: %w", evs[i].ID, err)
		}
	}
	return prev, nil
}

// appended remembers the last event of an append that stored it as the
// campaign's last event, with its hash (from chain).
func (s *campaignState) appended(ev events.Event, hash string) {
	s.hasLast, s.lastRaw, s.lastHash, s.lastEventID = true, nil, hash, ev.ID
}

// anchor records the chain anchor of campaign c (c.NeedsAnchor), folded
// up to c.LastSeq, as an append of its own conditional on that sequence,
// and folds it into c. It reads the campaign's events up to there once
// for their stored bytes. An error wrapping events.ErrConcurrency means
// another writer appended first: decide again on fresh state.
func (j *Handler) anchor(ctx context.Context, s *campaignState, c *projections.Campaign, now time.Time) error {
	h := events.NewAnchorHash()
	var last []byte
	q := events.Query{Subject: s.filter, To: c.LastSeq}
	err := j.store.Read(ctx, q, func(r events.Recorded) error {
		if r.Raw == nil {
			return msgerr.Errorf("anchor: %w of event %s", errNoStoredBytes, r.Event.ID)
		}
		h.Add(r.Raw)
		last = r.Raw
		return nil
	})
	if err != nil {
		return msgerr.Errorf("anchor the campaign's chain: %w", err)
	}
	if h.Events() != c.Events {
		return msgerr.Errorf("anchor the campaign's chain: the stream holds %d events up to sequence %d, the campaign's fold %d", h.Events(), c.LastSeq, c.Events)
	}
	ev, err := events.New(events.Spec{
		Campaign: c.ID, Kind: events.KindCampaign, AggregateID: c.ID, Name: events.Name(events.TypeChainAnchored),
		Type: events.TypeChainAnchored, Actor: anchorActor, Data: h.Anchor(),
	}, j.ids, now)
	if err != nil {
		return err
	}
	ev.PrevHash = events.ChainHash(last)
	hash, err := events.EventHash(ev)
	if err != nil {
		return err
	}
	seqs, err := j.store.Append(ctx, events.ExpectLast(s.filter, c.LastSeq), ev)
	if err != nil {
		return err
	}
	rec := events.Recorded{Seq: seqs[0], Subject: ev.StreamSubject, Event: ev}
	s.appended(ev, hash)
	s.lastSeq, s.lastID = rec.Seq, ev.ID
	s.msgs++
	return c.Apply(rec)
}
