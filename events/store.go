package events

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The store contract, shared by every store (events/jetstore,
// events/memstore); the interfaces live with their users.
//
//   - Append(ctx, expect, evs...) stores evs atomically, in order, each once:
//     all of them or none. It checks every event with Prepare first. If
//     expect is set and the last sequence on expect.Subject (a literal
//     campaign subject, which every event of the append is stored under)
//     is not expect.LastSeq, nothing is stored and the error wraps
//     ErrConcurrency.
//     A retried append is not applied twice: a retry of an append that was
//     stored, with the same expectation, stores nothing and returns the
//     original sequences, at any age (the store finds them after the
//     expected sequence); an append without an expectation whose events
//     are all already stored by appends without one (same ids, within the
//     store's deduplication window, at least two minutes) likewise. An
//     append some but not all of whose events are stored is refused whole
//     (ErrInvalidEvent). It returns one sequence per event. (The JetStream
//     store sends a message id only without an expectation: DESIGN §2,
//     turn 3.)
//   - Read(ctx, q, fn) calls fn for each stored event matching q, in stream
//     order, up to the last sequence present when the read started (or q.To).
//     A message on the filter that does not decode as a journal event of its
//     subject (a foreign or corrupt message: published into the stream by
//     something other than a store's Append) never ends a read: it is never
//     passed to fn, and it is reported to q.OnForeign (whatever q.Types),
//     in its place in stream order, when set. Only OnForeign's or fn's
//     error ends the read. Last counts the message (it is the last sequence
//     on its subject), so an Expect built from a read must take the
//     sequences reported to OnForeign into account.
//   - Last(ctx, filter) is the last sequence on the filter, 0 when none.
//   - Follow(ctx, q, fn) is Read that then waits for new events until ctx
//     ends (returning ctx.Err()) or q.To is delivered (returning nil).
//   - PutSecret(ctx, key, value) stores a secret once; a second put of the
//     same key fails with ErrExists. GetSecret returns ErrNotFound when absent.

// Follower is a store that follows a query live: Follow delivers the
// events matching q in stream order, as Read does, then waits for new ones
// until ctx ends (returning ctx.Err()) or q.To is delivered (returning
// nil). The stores (jetstore, memstore) implement it; the readers that
// follow (the live projection, the HTTP feed, log --follow, bench) ask
// for it by this one interface.
type Follower interface {
	Follow(ctx context.Context, q Query, fn func(Recorded) error) error
}

// Secrets keeps the sessions' secrets (their seeds) apart from the
// events: PutSecret stores a value once under key (a second put of the key
// fails with ErrExists), GetSecret returns it or ErrNotFound. The stores
// implement it next to the events (jetstore in a key-value bucket only the
// journal's role may reach), but nothing that reads or verifies events
// needs it: the command layer takes it as its own option.
type Secrets interface {
	PutSecret(ctx context.Context, key string, value []byte) error
	GetSecret(ctx context.Context, key string) ([]byte, error)
}

// MaxBatch is the most events one atomic Append may hold (nats-server's
// default limit on an atomic batch).
const MaxBatch = 1000

// Recorded is an event as stored: its stream sequence and NATS subject (its
// campaign's, CampaignSubject). Event.StreamSubject equals Subject.
type Recorded struct {
	Seq     uint64
	Subject string
	Event   Event
	// Raw is the message body as stored: the exact bytes Event was decoded
	// from, which an export writes verbatim and the campaign's chain hashes
	// (chain.go). Every store's Read, Follow and ReadLast fill it
	// (DecodeRecorded, DecodeRecordedOwned); it is nil for an event not
	// yet stored (one a command drafts or returns). Readers must not
	// change it: it may be shared with the event's Data.
	Raw []byte
}

// Query selects stored events.
type Query struct {
	// Subject is a subject filter (wildcards allowed); empty means AllFilter.
	Subject string
	// From and To bound the stream sequences, both included; 0 leaves that
	// end open.
	From, To uint64
	// Types keeps only events of these types; empty keeps every type.
	Types []string
	// OnForeign, when set, is called for each message on the filter and in
	// the range that is not a journal event of its subject (see Foreign),
	// whatever Types, in stream order with the events; its error ends the
	// read as fn's does. Nil: such messages are skipped unreported.
	OnForeign func(Foreign) error
}

// Foreign is a stored message that is not a journal event of the subject
// it is stored under: its document does not decode, or its envelope names
// another campaign, or the subject is not a campaign subject. Only something that publishes into the
// stream directly, past a store's Append (which stores only documents the
// codec accepts), can put one there. Reads skip it and report it
// (Query.OnForeign); DecodeRecorded returns it as its error.
type Foreign struct {
	Seq     uint64
	Subject string
	// Err says why the message is not an event; it wraps ErrInvalidEvent.
	Err error
}

// Error describes the message: its sequence, subject and why.
func (f Foreign) Error() string {
	return fmt.Sprintf("sequence %d (%s): not a journal event: %v", f.Seq, f.Subject, f.Err)
}

// Unwrap returns why the message is not an event.
func (f Foreign) Unwrap() error { return f.Err }

// ReportForeign reports a message that failed to decode (err from
// DecodeRecorded or DecodeRecordedOwned) to q.OnForeign, if set, and
// returns its error; an error that is not a Foreign is returned as is.
// Stores call it for every message they skip.
func (q Query) ReportForeign(err error) error {
	var f Foreign
	if !errors.As(err, &f) {
		return err
	}
	if q.OnForeign == nil {
		return nil
	}
	return q.OnForeign(f)
}

// Filter returns the query's subject filter, AllFilter when empty.
func (q Query) Filter() string {
	if q.Subject == "" {
		return AllFilter
	}
	return q.Subject
}

// Validate checks the filter and that every type is registered.
func (q Query) Validate() error {
	if err := ValidFilter(q.Filter()); err != nil {
		return err
	}
	for _, t := range q.Types {
		if _, ok := dataFor(t); !ok {
			return msgerr.Errorf("query: %w %q", ErrUnknownType, clip.Text(t))
		}
	}
	return nil
}

// WantsType reports whether the query keeps events of type t.
func (q Query) WantsType(t string) bool {
	return len(q.Types) == 0 || slices.Contains(q.Types, t)
}

// Expect is an optimistic-concurrency condition on an append: the last
// sequence stored on the literal subject Subject (a campaign's,
// CampaignSubject, the subject every event of the append is stored under)
// must still be LastSeq, the last one the writer saw (0: nothing there
// yet). The server checks it on the subject itself, at a cost that does not
// grow with the campaign. The zero Expect expects nothing.
type Expect struct {
	Subject string
	LastSeq uint64
}

// ExpectLast returns the condition "the last sequence on subject is seq";
// subject is a campaign's (CampaignFilter, CampaignSubject), literal.
func ExpectLast(subject string, seq uint64) Expect {
	return Expect{Subject: subject, LastSeq: seq}
}

// IsSet reports whether e expects anything: whether Subject is set.
func (e Expect) IsSet() bool { return e.Subject != "" }

// Validate checks that a set Expect names a campaign subject (literal: no
// wildcard). The error wraps ErrInvalidID.
func (e Expect) Validate() error {
	if !e.IsSet() {
		if e.LastSeq != 0 {
			return msgerr.Errorf("%w: expectation of sequence %d without a subject", ErrInvalidID, e.LastSeq)
		}
		return nil
	}
	if _, err := ParseSubject(e.Subject); err != nil {
		return msgerr.Errorf("expectation: %w", err)
	}
	return nil
}

// Prepare checks an append before anything is stored: the expectation is
// well formed, there are 1..MaxBatch events with distinct ids, each event
// validates (Validate) with a stream subject agreeing with it, and with an
// expectation every event is stored on the expected subject (what the
// server checks is then what the writer read). It
// returns the documents to store, one per event, which Decode accepts.
//
// The data of an event that New or Decode validated, unchanged since (the
// same type, and data of the same length and CRC-32C: see decodedData),
// is not decoded again; every other event, built by hand or changed, is
// validated in full. The envelope and the stream subject are always
// checked. That is enough for the documents to decode: encode writes
// validated attributes and data as Decode reads them back.
func Prepare(expect Expect, evs []Event) ([][]byte, error) {
	if err := expect.Validate(); err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		return nil, msgerr.Errorf("%w: nothing to append", ErrInvalidEvent)
	}
	if len(evs) > MaxBatch {
		return nil, msgerr.Errorf("%w: %d events in one append, at most %d", ErrInvalidEvent, len(evs), MaxBatch)
	}
	docs := make([][]byte, len(evs))
	var seen map[string]bool // ids of the events before this one (none for the first)
	if len(evs) > 1 {
		seen = make(map[string]bool, len(evs))
	}
	for i, e := range evs {
		if e.StreamSubject == "" {
			return nil, msgerr.Errorf("%w: event %s has no stream subject", ErrInvalidEvent, e.ID)
		}
		if expect.IsSet() && e.StreamSubject != expect.Subject {
			return nil, msgerr.Errorf("%w: event %s is stored on %s, the append expects %s", ErrInvalidEvent, e.ID, e.StreamSubject, expect.Subject)
		}
		if seen[e.ID] {
			return nil, msgerr.Errorf("%w: event %s appears twice in one append", ErrInvalidEvent, e.ID)
		}
		if seen != nil {
			seen[e.ID] = true
		}
		if _, err := e.checked(); err != nil {
			return nil, err
		}
		b, err := encode(e)
		if err != nil {
			return nil, err
		}
		docs[i] = b
	}
	return docs, nil
}

// DecodeRecorded decodes a stored message into a Recorded, checking that the
// envelope agrees with the subject it was stored under; its Raw is a copy
// of data. The event shares no memory with data. A message that is not an
// event of its subject returns an error of type Foreign (wrapping
// ErrInvalidEvent).
func DecodeRecorded(seq uint64, subject string, data []byte) (Recorded, error) {
	return decodeRecorded(seq, subject, data, false)
}

// DecodeRecordedOwned is DecodeRecorded taking data over: Raw is data
// itself, and the event's Data may be a part of it, so the caller must not
// change data afterwards (a message payload read from the store for this
// event alone, for example). It saves copying every event of a long read.
func DecodeRecordedOwned(seq uint64, subject string, data []byte) (Recorded, error) {
	return decodeRecorded(seq, subject, data, true)
}

func decodeRecorded(seq uint64, subject string, data []byte, owned bool) (Recorded, error) {
	e, err := decode(data, owned)
	if err != nil {
		return Recorded{}, Foreign{Seq: seq, Subject: subject, Err: err}
	}
	e.StreamSubject = subject
	if err := e.checkStreamSubject(); err != nil {
		return Recorded{}, Foreign{Seq: seq, Subject: subject, Err: msgerr.Errorf("%w: %w", ErrInvalidEvent, err)}
	}
	raw := data
	if !owned {
		raw = bytes.Clone(data)
	}
	return Recorded{Seq: seq, Subject: subject, Event: e, Raw: raw}, nil
}

// SecretKey joins slugs into a secret key, for example
// SecretKey("mordor", "s1") = "mordor.s1". Each part must be a slug, so
// that different parts never make the same key ("a.b", "c" is refused
// rather than taken for "a", "b.c").
func SecretKey(parts ...string) (string, error) {
	for _, p := range parts {
		if err := ValidID(p); err != nil {
			return "", msgerr.Errorf("secret key part %q: %w", clip.Text(p), err)
		}
	}
	key := strings.Join(parts, ".")
	if err := ValidSecretKey(key); err != nil {
		return "", err
	}
	return key, nil
}

// ValidSecretKey checks a secret key: one to eight slugs joined by dots.
// The error wraps ErrInvalidID.
func ValidSecretKey(key string) error {
	parts := strings.Split(key, ".")
	if len(parts) > 8 {
		return msgerr.Errorf("%w: secret key %q has more than 8 parts", ErrInvalidID, clip.Text(key))
	}
	for _, p := range parts {
		if err := ValidID(p); err != nil {
			return msgerr.Errorf("secret key %q: %w", clip.Text(key), err)
		}
	}
	return nil
}
