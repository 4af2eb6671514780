package events

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxSize is the largest encoded event, in bytes: 1 MiB less 8 KiB, which
// leaves room for the message headers under NATS's default 1 MiB payload limit.
const MaxSize = 1<<20 - 8<<10

// MaxActorLen is the longest actor attribute, in bytes.
const MaxActorLen = 128

// Encode validates e (trusting data that New or Decode validated and
// that has not changed since, as Validate does) and returns its CloudEvents
// JSON document. The data is written compactly and without HTML escaping.
func Encode(e Event) ([]byte, error) {
	if _, err := e.checked(); err != nil {
		return nil, err
	}
	return encode(e)
}

// encode writes the document of e, which must have been validated (its
// data is valid JSON): byte for byte what encoding/json's Encoder with
// SetEscapeHTML(false) writes for the Event struct, without the newline.
// Decode accepts it and gives e back, but for StreamSubject.
func encode(e Event) ([]byte, error) {
	b, err := appendEvent(make([]byte, 0, encodedSize(e)), e)
	if err != nil {
		return nil, fmt.Errorf("%w: encode %s: %w", ErrInvalidEvent, e.ID, err)
	}
	if len(b) > MaxSize {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than %d", ErrInvalidEvent, e.ID, len(b), MaxSize)
	}
	return b, nil
}

// encodedSize is the size of e's document when no string needs escaping:
// the attributes' names, quotes and time, and their values.
func encodedSize(e Event) int {
	const fixed = len(`{"specversion":"","id":"","source":"","type":"","subject":"","time":"","datacontenttype":"",`+
		`"campaign":"","session":"","actor":"","causationid":"","data":}`) + len(time.RFC3339Nano)
	return fixed + len(e.SpecVersion) + len(e.ID) + len(e.Source) + len(e.Type) + len(e.Subject) +
		len(e.DataContentType) + len(e.Campaign) + len(e.Session) + len(e.Actor) + len(e.CausationID) + len(e.Data)
}

// Decode parses and validates one CloudEvents JSON document. It refuses
// (with an error wrapping ErrInvalidEvent, and also ErrUnknownType or
// ErrInvalidID where they apply) documents over MaxSize, documents that are
// not valid UTF-8, malformed or trailing JSON (nesting deeper than 10000
// levels included), unknown or repeated attributes, attributes other than
// data that are not JSON strings, a wrong specversion or datacontenttype,
// an id that is not a canonical UUID, an unknown type, data that is not an
// object decoding strictly into the type's struct (member names exact and
// known at every depth, none repeated in any object), invalid slugs, and a
// source or subject that disagrees with them. An escaped lone surrogate
// (\ud800) in a string is read as U+FFFD, as encoding/json reads it.
// StreamSubject is left empty. The returned event shares no memory with b.
func Decode(b []byte) (Event, error) {
	if len(b) > MaxSize {
		return Event{}, fmt.Errorf("%w: document is %d bytes, more than %d", ErrInvalidEvent, len(b), MaxSize)
	}
	if !utf8.Valid(b) {
		return Event{}, fmt.Errorf("%w: document is not valid UTF-8", ErrInvalidEvent)
	}
	r := readers.Get().(*reader)
	defer readers.Put(r)
	e, v, err := r.read(b, true)
	if err == errDataRefused {
		e, v, err = r.read(b, false) // to report what is wrong in validate's order
	}
	if err != nil {
		return Event{}, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if err := e.checkEnvelope(); err != nil {
		return Event{}, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if v == nil {
		if v, err = e.checkData(nil); err != nil {
			return Event{}, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
		}
	}
	e.decoded = newDecoded(e, v)
	return e, nil
}

// Validate checks everything Decode checks, and that StreamSubject, when
// set, is an event subject agreeing with the campaign and the aggregate of
// the CloudEvents subject. Data that New or Decode validated, unchanged
// since (the same type, length and CRC-32C), is not decoded again. Errors
// wrap ErrInvalidEvent.
func (e Event) Validate() error {
	_, err := e.checked()
	return err
}

// checked validates e and returns its data decoded into the struct
// registered for its type: the value New or Decode kept when it is still
// e's (see decodedData), otherwise a strict decoding of e.Data afresh.
func (e Event) checked() (any, error) {
	if err := e.checkEnvelope(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if v := e.decoded.of(e); v != nil {
		return v, nil
	}
	v, err := e.checkData(nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	return v, nil
}

// checkEnvelope checks every attribute but the type and data, and
// StreamSubject when it is set.
func (e Event) checkEnvelope() error {
	if e.SpecVersion != SpecVersion {
		return fmt.Errorf("specversion %q, want %q", e.SpecVersion, SpecVersion)
	}
	if err := validUUID(e.ID); err != nil {
		return fmt.Errorf("id: %w", err)
	}
	if err := ValidID(e.Campaign); err != nil {
		return fmt.Errorf("campaign: %w", err)
	}
	if c, ok := strings.CutPrefix(e.Source, "/campaigns/"); !ok || c != e.Campaign {
		return fmt.Errorf("source %q, want %q", e.Source, "/campaigns/"+e.Campaign)
	}
	kind, id, err := e.aggregate()
	if err != nil {
		return err
	}
	if e.Time.IsZero() || e.Time.Year() < 1 || e.Time.Year() > 9999 {
		return fmt.Errorf("time %v is missing or out of range", e.Time)
	}
	if e.DataContentType != ContentType {
		return fmt.Errorf("datacontenttype %q, want %q", e.DataContentType, ContentType)
	}
	if e.Session != "" {
		if err := ValidID(e.Session); err != nil {
			return fmt.Errorf("session: %w", err)
		}
	}
	if err := validActor(e.Actor); err != nil {
		return err
	}
	if e.CausationID != "" {
		if err := validUUID(e.CausationID); err != nil {
			return fmt.Errorf("causationid: %w", err)
		}
	}
	if e.StreamSubject != "" {
		return e.checkStreamSubject(kind, id)
	}
	return nil
}

// checkData checks that the type is registered and that the data is a
// JSON object of valid UTF-8 that decodes strictly (decodeStrictly) into
// the type's struct, and returns the decoded value: v, a fresh value from
// dataFor(e.Type), or such a value made here when v is nil.
func (e Event) checkData(v any) (any, error) {
	if v == nil {
		var ok bool
		if v, ok = dataFor(e.Type); !ok {
			return nil, fmt.Errorf("%w %q", ErrUnknownType, e.Type)
		}
	}
	if len(e.Data) == 0 || e.Data[0] != '{' {
		return nil, errors.New("data is not a JSON object")
	}
	if !utf8.Valid(e.Data) {
		return nil, errors.New("data is not valid UTF-8")
	}
	if err := decodeStrictly(e.Data, v); err != nil {
		return nil, fmt.Errorf("data of %s: %w", e.Type, err)
	}
	return v, nil
}

// checkStreamSubject checks that StreamSubject is an event subject of the
// event's campaign and aggregate.
func (e Event) checkStreamSubject(kind Kind, id string) error {
	a, err := ParseSubject(e.StreamSubject)
	if err != nil {
		return err
	}
	if a.Campaign != e.Campaign || a.Kind != kind || a.ID != id {
		return fmt.Errorf("stream subject %q disagrees with campaign %q and subject %q", e.StreamSubject, e.Campaign, e.Subject)
	}
	return nil
}

// validUUID accepts a UUID in its canonical form (what uuid.UUID.String
// writes: lower-case hex digits, hyphens after the 8th, 12th, 16th and
// 20th), other than the nil and max UUIDs.
func validUUID(s string) error {
	if !canonicalUUID(s) {
		return fmt.Errorf("%q is not a canonical uuid", s)
	}
	return nil
}

func canonicalUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	allZero, allF := true, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
		allZero = allZero && c == '0'
		allF = allF && c == 'f'
	}
	return !allZero && !allF
}

func validActor(s string) error {
	if len(s) > MaxActorLen {
		return fmt.Errorf("actor is longer than %d bytes", MaxActorLen)
	}
	if !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
		return fmt.Errorf("actor %q has invalid or control characters", s)
	}
	return nil
}
