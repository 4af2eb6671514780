// Package memstore is an event store held in memory, with the semantics of
// the JetStream store (events/jetstore): stream sequences from 1 with no
// gaps, one subject per campaign (journal.<campaign>), NATS subject filters
// with "*" and ">", expected-last-sequence on a campaign's literal subject,
// atomic multi-event appends, deduplication by event id, create-only
// secrets, and Follow woken by appends. It is for fast tests and for
// reproducing a session into a fresh journal.
//
// Invariants: the stored documents are those events.Prepare returned (every
// read decodes them again, as the JetStream store does), and the messages
// PublishRaw stored as they were given, as a client publishing into the
// JetStream stream directly could; a sequence, once given, always holds the
// same message; a Store is safe for concurrent use.
package memstore

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Options configures a Store.
type Options struct {
	// Now is the clock that ages the deduplication window. Nil keeps every
	// id forever, so a repeated append is always recognized.
	Now func() time.Time
	// Window is how long an event id is remembered when Now is set;
	// 0 means two minutes, the JetStream store's default.
	Window time.Duration
}

// DefaultWindow is the deduplication window when Options.Window is 0.
const DefaultWindow = 2 * time.Minute

// Store is an in-memory event store. Use New.
type Store struct {
	opts Options

	mu      sync.Mutex
	msgs    []message // msgs[i] has sequence i+1; never modified once appended
	ids     map[string]idEntry
	secrets map[string][]byte
	changed chan struct{} // closed and replaced on every append
}

type message struct {
	subject string
	doc     []byte
}

type idEntry struct {
	seq uint64
	at  time.Time
}

// New returns an empty store.
func New(opts Options) *Store {
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	return &Store{
		opts:    opts,
		ids:     make(map[string]idEntry),
		secrets: make(map[string][]byte),
		changed: make(chan struct{}),
	}
}

// Append stores evs atomically under their stream subjects (see the contract
// in package events). It returns the sequence of each event.
func (s *Store) Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	docs, err := events.Prepare(expect, evs)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()

	var now time.Time
	if s.opts.Now != nil {
		now = s.opts.Now()
	}
	seqs := make([]uint64, len(evs))
	dups := 0
	for i, e := range evs {
		if seq, ok := s.storedLocked(e.ID, now); ok {
			seqs[i] = seq
			dups++
		}
	}
	switch {
	case dups == len(evs):
		return seqs, nil
	case dups > 0:
		return nil, msgerr.Errorf("%w: %d of %d events of the append are already stored", events.ErrInvalidEvent, dups, len(evs))
	}
	if expect.IsSet() {
		if last := s.lastLocked(expect.Subject); last != expect.LastSeq {
			return nil, msgerr.Errorf("%w: last sequence on %s is %d, expected %d", events.ErrConcurrency, expect.Subject, last, expect.LastSeq)
		}
	}
	for i, e := range evs {
		s.msgs = append(s.msgs, message{subject: e.StreamSubject, doc: docs[i]})
		seqs[i] = uint64(len(s.msgs))
		s.ids[e.ID] = idEntry{seq: seqs[i], at: now}
	}
	close(s.changed)
	s.changed = make(chan struct{})
	return seqs, nil
}

// PublishRaw stores data under subject as it is, unchecked, and returns its
// sequence: what a client with the right to publish into the JetStream
// stream directly (the journal's own connection) can store. It is for
// tests of what reads do with a message that is not an event; Append is
// the way to store events.
func (s *Store) PublishRaw(ctx context.Context, subject string, data []byte) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	// What the stream takes (events.StreamSubjects): journal.<one token>.
	tok, ok := strings.CutPrefix(subject, events.Prefix+".")
	if !ok || tok == "" || strings.ContainsAny(tok, ".*> \t\r\n") {
		return 0, msgerr.Errorf("%w: subject %q is not a literal subject %s", events.ErrInvalidID, clip.Text(subject), events.StreamSubjects)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, message{subject: subject, doc: append([]byte(nil), data...)})
	close(s.changed)
	s.changed = make(chan struct{})
	return uint64(len(s.msgs)), nil
}

// storedLocked reports the sequence of an event id within the window.
func (s *Store) storedLocked(id string, now time.Time) (uint64, bool) {
	e, ok := s.ids[id]
	if !ok {
		return 0, false
	}
	if s.opts.Now != nil && now.Sub(e.at) >= s.opts.Window {
		delete(s.ids, id)
		return 0, false
	}
	return e.seq, true
}

func (s *Store) lastLocked(filter string) uint64 {
	for i := len(s.msgs) - 1; i >= 0; i-- {
		if events.Match(filter, s.msgs[i].subject) {
			return uint64(i + 1)
		}
	}
	return 0
}

// Last returns the last sequence stored on a subject filter, 0 when none.
func (s *Store) Last(ctx context.Context, filter string) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := events.ValidFilter(filter); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastLocked(filter), nil
}

// snapshot returns the messages stored so far and the channel closed by the
// next append. The slice is safe to read without the lock: stored messages
// are never modified.
func (s *Store) snapshot() ([]message, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.msgs, s.changed
}

// Read calls fn for each event matching q in sequence order, up to the last
// sequence present when Read was called (or q.To). A message that is not
// an event (see PublishRaw) goes to q.OnForeign instead. It stops at the
// first error, from fn or q.OnForeign, and returns it.
func (s *Store) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	if err := q.Validate(); err != nil {
		return err
	}
	msgs, _ := s.snapshot()
	_, err := deliver(ctx, msgs, q, max(q.From, 1), fn)
	return err
}

// Follow is Read that goes on delivering new events as they are appended,
// until ctx ends (it returns ctx.Err()) or the event at q.To has been passed
// (it returns nil).
func (s *Store) Follow(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	if err := q.Validate(); err != nil {
		return err
	}
	next := max(q.From, 1)
	for {
		msgs, changed := s.snapshot()
		var err error
		if next, err = deliver(ctx, msgs, q, next, fn); err != nil {
			return err
		}
		if q.To != 0 && next > q.To {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		}
	}
}

// deliver calls fn for the messages from sequence next on that match q and
// returns the sequence after the last one looked at.
func deliver(ctx context.Context, msgs []message, q events.Query, next uint64, fn func(events.Recorded) error) (uint64, error) {
	end := uint64(len(msgs))
	if q.To != 0 && q.To < end {
		end = q.To
	}
	filter := q.Filter()
	for ; next <= end; next++ {
		if err := ctx.Err(); err != nil {
			return next, err
		}
		m := msgs[next-1]
		if !events.Match(filter, m.subject) {
			continue
		}
		rec, err := events.DecodeRecorded(next, m.subject, m.doc)
		if err != nil {
			if err := q.ReportForeign(err); err != nil {
				return next, err
			}
			continue
		}
		if !q.WantsType(rec.Event.Type) {
			continue
		}
		if err := fn(rec); err != nil {
			return next, err
		}
	}
	return next, nil
}

// PutSecret stores value under key once; a second put fails with
// events.ErrExists and leaves the first value. The key is one or more slugs
// joined by dots (see events.ValidSecretKey).
func (s *Store) PutSecret(ctx context.Context, key string, value []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := events.ValidSecretKey(key); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.secrets[key]; ok {
		return msgerr.Errorf("secret %s: %w", key, events.ErrExists)
	}
	s.secrets[key] = append([]byte(nil), value...)
	return nil
}

// GetSecret returns the value stored under key, or an error wrapping
// events.ErrNotFound.
func (s *Store) GetSecret(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := events.ValidSecretKey(key); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.secrets[key]
	if !ok {
		return nil, msgerr.Errorf("secret %s: %w", key, events.ErrNotFound)
	}
	return append([]byte(nil), v...), nil
}
