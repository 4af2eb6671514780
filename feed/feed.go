// Package feed fans the events the live projection folds out to any number
// of readers (the HTTP event streams): one reader of the stream, the
// projector, whatever the number of readers, so that readers cost the
// NATS server nothing (no consumer each).
//
// A Hub holds no history. A reader that wants events from before it
// subscribed reads them from the store after subscribing, and drops what
// the subscription then repeats by sequence (Event.Seq): every event
// folded after Subscribe returned comes through the subscription, every
// event folded before is already stored.
//
// Invariants:
//   - Publish never blocks: it offers the event to each subscription of its
//     campaign without waiting, and a subscription whose buffer is full is
//     closed (ErrSlow) instead of waited for.
//   - A subscription receives every event of its campaign published after
//     Subscribe returned, once each, in the order of Publish, with no gap,
//     until it is closed; its channel is then closed and Err says why
//     (ErrSlow, ErrClosed, or the error given to Fail). A closed
//     subscription receives nothing more and is forgotten by the hub.
//   - An Event is shared by every subscription it reaches: nobody may
//     change it.
//   - The hub keeps no state but its subscriptions: no package state, no
//     goroutine, no I/O.
package feed

import (
	"sync"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Why a subscription was closed (Subscription.Err).
var (
	// ErrSlow: the reader let its buffer fill up; it resumes from the store
	// (for an event stream, the client reconnects with Last-Event-ID).
	ErrSlow = msgerr.New("feed: the reader fell behind the live feed")
	// ErrClosed: the reader closed the subscription.
	ErrClosed = msgerr.New("feed: subscription closed")
)

// DefaultBuffer is how many events may wait for one reader before the hub
// closes its subscription (ErrSlow), when NewHub is given no size.
const DefaultBuffer = 256

// Event is one event as the feed carries it: its stream sequence, campaign
// and type, and its CloudEvent document, encoded once for every reader.
type Event struct {
	Seq      uint64
	Campaign string
	Type     string
	// Doc is the CloudEvent (events.Encode): structured JSON on one line.
	Doc []byte
}

// NewEvent encodes a recorded event for the feed.
func NewEvent(rec events.Recorded) (*Event, error) {
	doc, err := events.Encode(rec.Event)
	if err != nil {
		return nil, err
	}
	return &Event{Seq: rec.Seq, Campaign: rec.Event.Campaign, Type: rec.Event.Type, Doc: doc}, nil
}

// Hub fans events out to the subscriptions of their campaign. Use NewHub;
// its methods are safe for concurrent use.
type Hub struct {
	buffer int

	mu   sync.Mutex
	subs map[string]map[*Subscription]struct{} // by campaign
	n    int
}

// NewHub returns a hub whose subscriptions each buffer up to buffer events
// (DefaultBuffer when buffer <= 0).
func NewHub(buffer int) *Hub {
	if buffer <= 0 {
		buffer = DefaultBuffer
	}
	return &Hub{buffer: buffer, subs: map[string]map[*Subscription]struct{}{}}
}

// Subscription is one reader's follow of one campaign. Read Events until
// it is closed, then Err; Close it when done.
type Subscription struct {
	hub      *Hub
	campaign string
	c        chan *Event
	err      error // why it was closed; written under hub.mu before c is closed
}

// Subscribe follows campaign from now on: every event of it published
// after Subscribe returns.
func (h *Hub) Subscribe(campaign string) *Subscription {
	s := &Subscription{hub: h, campaign: campaign, c: make(chan *Event, h.buffer)}
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.subs[campaign]
	if set == nil {
		set = map[*Subscription]struct{}{}
		h.subs[campaign] = set
	}
	set[s] = struct{}{}
	h.n++
	return s
}

// Wants reports whether campaign has a subscription, so that a publisher
// may skip encoding an event nobody reads. An event published after a
// Subscribe that Wants did not see still reaches it.
func (h *Hub) Wants(campaign string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[campaign]) > 0
}

// Subscribers returns the number of open subscriptions.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// Publish offers ev to every subscription of its campaign, without
// waiting, and closes (ErrSlow) those whose buffer is full. It returns how
// many it closed.
func (h *Hub) Publish(ev *Event) (dropped int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[ev.Campaign] {
		select {
		case s.c <- ev:
		default:
			h.end(s, ErrSlow)
			dropped++
		}
	}
	return dropped
}

// Fail closes every subscription of campaign with err: for an event that
// cannot be carried (it does not encode), which its readers must not skip
// silently.
func (h *Hub) Fail(campaign string, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[campaign] {
		h.end(s, err)
	}
}

// end closes s with err; h.mu is held and s is open.
func (h *Hub) end(s *Subscription, err error) {
	set := h.subs[s.campaign]
	delete(set, s)
	if len(set) == 0 {
		delete(h.subs, s.campaign)
	}
	h.n--
	s.err = err
	close(s.c)
}

// Events delivers the subscription's events, in order; it is closed when
// the subscription is (then see Err).
func (s *Subscription) Events() <-chan *Event { return s.c }

// Campaign is the campaign followed.
func (s *Subscription) Campaign() string { return s.campaign }

// Err says why the subscription was closed, nil while it is open.
func (s *Subscription) Err() error {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	return s.err
}

// Close ends the subscription (Err: ErrClosed); closing it again, or after
// the hub closed it, does nothing.
func (s *Subscription) Close() {
	h := s.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, open := h.subs[s.campaign][s]; open {
		h.end(s, ErrClosed)
	}
}
