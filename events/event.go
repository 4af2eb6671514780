// Package events defines the journal's events: the CloudEvents 1.0 envelope,
// the event types and their data, the subjects events are stored under, the
// codec, and the types shared by every event store (Recorded, Query, Expect).
//
// Invariants:
//   - An Event that Encode accepts is exactly what Decode accepts: a
//     CloudEvents 1.0 structured JSON document of at most MaxSize bytes, with
//     a canonical UUID id, a registered type whose data decodes strictly into
//     the registered struct, slugs for campaign, session and aggregate id, and
//     source and subject agreeing with them. Decode(Encode(e)) is e again,
//     except for StreamSubject, which is not part of the document.
//   - Decode never panics and refuses anything else with one error wrapping
//     ErrInvalidEvent.
//   - The package is pure: no I/O, no clock, no global randomness. Times and
//     ids are passed in (see IDs and V7).
package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"
)

// CloudEvents constants of every journal event.
const (
	SpecVersion = "1.0"
	ContentType = "application/json"
)

// Event is one immutable fact, as a CloudEvents 1.0 structured-mode document.
// The JSON field names are the contract of DESIGN.md §2.
type Event struct {
	SpecVersion     string          `json:"specversion"`
	ID              string          `json:"id"`     // UUID (v7), also the Nats-Msg-Id
	Source          string          `json:"source"` // "/campaigns/<campaign>"
	Type            string          `json:"type"`   // e.g. "journal.roll.made.v1"
	Subject         string          `json:"subject"`
	Time            time.Time       `json:"time"` // RFC 3339
	DataContentType string          `json:"datacontenttype"`
	Campaign        string          `json:"campaign"`
	Session         string          `json:"session"`
	Actor           string          `json:"actor"`
	CausationID     string          `json:"causationid"`
	Data            json.RawMessage `json:"data"`

	// StreamSubject is the NATS subject the event is stored under
	// (journal.<campaign>.<kind>.<id>.<name>). It is not part of the
	// CloudEvent: New sets it, stores set it on every event they read, and
	// Decode leaves it empty.
	StreamSubject string `json:"-"`

	// decoded is the data as New or Decode decoded it strictly while
	// validating the event, so that Payload need not decode it again.
	decoded *decodedData
}

// decodedData is an event's data decoded into its type's struct, with
// what it was decoded from: the type, and the length and CRC-32C of the
// data. Payload uses it only while the event still has that type and data
// (an event changed after New or Decode is decoded afresh).
type decodedData struct {
	v   any
	typ string
	n   int
	sum uint32
}

// castagnoli is the CRC-32C table (hardware-accelerated on most CPUs); it
// never changes.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func newDecoded(e Event, v any) *decodedData {
	return &decodedData{v: v, typ: e.Type, n: len(e.Data), sum: crc32.Checksum(e.Data, castagnoli)}
}

// of returns the decoded data if it is the event's, or nil.
func (d *decodedData) of(e Event) any {
	if d == nil || d.typ != e.Type || d.n != len(e.Data) || crc32.Checksum(e.Data, castagnoli) != d.sum {
		return nil
	}
	return d.v
}

// Spec describes an event for New.
type Spec struct {
	Campaign    string // campaign id (slug)
	Kind        Kind   // aggregate kind, e.g. KindCharacter
	AggregateID string // aggregate id (slug), e.g. "lodin"
	Name        string // short event name for the subject, e.g. "roll"
	Type        string // registered event type, e.g. "journal.roll.made.v1"
	Session     string // session id, or empty
	Actor       string // who issued the command
	CausationID string // id of the event that caused this one, or empty
	Data        any    // the type's data struct (or a pointer to it)
}

// New builds and validates an event: a fresh id from ids, the time at
// (stored in UTC), the source, subjects and data derived from s. Data with
// a string that is not valid UTF-8 is refused (encoding/json would replace
// its bytes with U+FFFD: a silent change of what was asked).
func New(s Spec, ids IDs, at time.Time) (Event, error) {
	subject, err := Subject(s.Campaign, s.Kind, s.AggregateID, s.Name)
	if err != nil {
		return Event{}, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if err := validUTF8(reflect.ValueOf(s.Data), 0); err != nil {
		return Event{}, fmt.Errorf("%w: data of %s: %w", ErrInvalidEvent, s.Type, err)
	}
	data, err := marshalData(s.Data)
	if err != nil {
		return Event{}, fmt.Errorf("%w: data of %s: %w", ErrInvalidEvent, s.Type, err)
	}
	id, err := ids.NewID()
	if err != nil {
		return Event{}, err
	}
	e := Event{
		SpecVersion:     SpecVersion,
		ID:              id,
		Source:          "/campaigns/" + s.Campaign,
		Type:            s.Type,
		Subject:         s.Kind.Plural() + "/" + s.AggregateID,
		Time:            at.UTC(),
		DataContentType: ContentType,
		Campaign:        s.Campaign,
		Session:         s.Session,
		Actor:           s.Actor,
		CausationID:     s.CausationID,
		Data:            data,
		StreamSubject:   subject,
	}
	v, err := e.validated()
	if err != nil {
		return Event{}, err
	}
	e.decoded = newDecoded(e, v)
	return e, nil
}

// Aggregate returns the aggregate the event belongs to, from its CloudEvents
// subject ("characters/lodin" is KindCharacter, "lodin"). The error wraps
// ErrInvalidEvent.
func (e Event) Aggregate() (Kind, string, error) {
	kind, id, err := e.aggregate()
	if err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	return kind, id, nil
}

func (e Event) aggregate() (Kind, string, error) {
	plural, id, ok := strings.Cut(e.Subject, "/")
	if !ok {
		return "", "", fmt.Errorf("subject %q is not <kind>/<id>", e.Subject)
	}
	kind, ok := kindOfPlural(plural)
	if !ok {
		return "", "", fmt.Errorf("subject %q has no valid aggregate kind", e.Subject)
	}
	if err := ValidID(id); err != nil {
		return "", "", fmt.Errorf("subject %q: %w", e.Subject, err)
	}
	return kind, id, nil
}

// DecodeData decodes the event's data strictly (unknown fields refused) into v.
func (e Event) DecodeData(v any) error {
	if err := decodeStrict(e.Data, v); err != nil {
		return fmt.Errorf("%w: data of %s %s: %w", ErrInvalidEvent, e.Type, e.ID, err)
	}
	return nil
}

// Payload returns the event's data decoded into a value of the struct
// registered for its type: a pointer such as *CampaignCreated. For an
// event made by New or Decode, and not changed since, it is the value they
// decoded while validating the event, the same on every call: callers
// read it and must not modify it.
func (e Event) Payload() (any, error) {
	if v := e.decoded.of(e); v != nil {
		return v, nil
	}
	v, ok := dataFor(e.Type)
	if !ok {
		return nil, fmt.Errorf("%w: %w %q", ErrInvalidEvent, ErrUnknownType, e.Type)
	}
	if err := e.DecodeData(v); err != nil {
		return nil, err
	}
	return v, nil
}

// marshalData encodes v compactly without HTML escaping.
func marshalData(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// decodeStrict decodes one JSON value into v, refusing unknown fields and
// anything after the value.
func decodeStrict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if len(bytes.TrimLeft(data[d.InputOffset():], " \t\r\n")) != 0 {
		return fmt.Errorf("data after the JSON value")
	}
	return nil
}

// validUTF8 reports the first string in v (struct fields, elements, map
// keys and values, through pointers and interfaces) that is not valid
// UTF-8. depth bounds the walk on cyclic values.
func validUTF8(v reflect.Value, depth int) error {
	if depth > 64 || !v.IsValid() {
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		if !utf8.ValidString(v.String()) {
			return fmt.Errorf("%q is not valid UTF-8", v.String())
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return validUTF8(v.Elem(), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				if err := validUTF8(v.Field(i), depth+1); err != nil {
					return err
				}
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // bytes, encoded as base64
		}
		for i := range v.Len() {
			if err := validUTF8(v.Index(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if err := validUTF8(it.Key(), depth+1); err != nil {
				return err
			}
			if err := validUTF8(it.Value(), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
