package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// MaxSize is the largest encoded event, in bytes: 1 MiB less 8 KiB, which
// leaves room for the message headers under NATS's default 1 MiB payload limit.
const MaxSize = 1<<20 - 8<<10

// MaxActorLen is the longest actor attribute, in bytes.
const MaxActorLen = 128

// Encode validates e and returns its CloudEvents JSON document. The data is
// written compactly and without HTML escaping.
func Encode(e Event) ([]byte, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	return encode(e)
}

// encode marshals e without validating it.
func encode(e Event) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, fmt.Errorf("%w: encode %s: %w", ErrInvalidEvent, e.ID, err)
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(b) > MaxSize {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than %d", ErrInvalidEvent, e.ID, len(b), MaxSize)
	}
	return b, nil
}

// Decode parses and validates one CloudEvents JSON document. It refuses
// (with an error wrapping ErrInvalidEvent, and also ErrUnknownType or
// ErrInvalidID where they apply) documents over MaxSize, documents that are
// not valid UTF-8, malformed or trailing JSON (nesting deeper than
// encoding/json allows included), unknown or repeated attributes, a wrong
// specversion or datacontenttype, an id that is not a canonical UUID, an
// unknown type, data that does not decode strictly into the type's struct,
// invalid slugs, and a source or subject that disagrees with them.
// StreamSubject is left empty. The returned event shares no memory with b.
func Decode(b []byte) (Event, error) {
	if len(b) > MaxSize {
		return Event{}, fmt.Errorf("%w: document is %d bytes, more than %d", ErrInvalidEvent, len(b), MaxSize)
	}
	if !utf8.Valid(b) {
		return Event{}, fmt.Errorf("%w: document is not valid UTF-8", ErrInvalidEvent)
	}
	e, err := parseEnvelope(b)
	if err != nil {
		return Event{}, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	v, err := e.validated()
	if err != nil {
		return Event{}, err
	}
	e.decoded = newDecoded(e, v)
	return e, nil
}

// envelope attributes, in the order Encode writes them; the first
// requiredAttrs of them are required.
var envelopeNames = [...]string{"specversion", "id", "source", "type", "subject", "time", "datacontenttype",
	"campaign", "data", "session", "actor", "causationid"}

const requiredAttrs = 9

// envelopeIndex returns the index of an attribute in envelopeNames, or -1.
func envelopeIndex(name []byte) int {
	for i, n := range envelopeNames {
		if string(name) == n {
			return i
		}
	}
	return -1
}

// parseEnvelope reads the top-level object attribute by attribute, so that
// attribute names match exactly (encoding/json alone matches them without
// regard to case) and none is repeated. The document is first checked to be
// one well-formed JSON value (json.Valid), then scanned by hand.
func parseEnvelope(b []byte) (Event, error) {
	if !json.Valid(b) {
		// Let encoding/json say what is wrong.
		var v any
		err := json.Unmarshal(b, &v)
		if err == nil {
			err = errors.New("invalid json")
		}
		return Event{}, fmt.Errorf("malformed json: %w", err)
	}
	i := skipSpace(b, 0)
	if b[i] != '{' {
		return Event{}, errors.New("document is not a JSON object")
	}
	var e Event
	var seen [len(envelopeNames)]bool
	err := eachMember(b[i:], func(key, raw []byte) error {
		name, err := memberName(key)
		if err != nil {
			return err
		}
		k := envelopeIndex(name)
		if k < 0 {
			return fmt.Errorf("unknown attribute %q", name)
		}
		if seen[k] {
			return fmt.Errorf("attribute %q repeated", name)
		}
		seen[k] = true
		return setAttr(&e, envelopeNames[k], raw)
	})
	if err != nil {
		return Event{}, err
	}
	for k, name := range envelopeNames[:requiredAttrs] {
		if !seen[k] {
			return Event{}, fmt.Errorf("missing attribute %q", name)
		}
	}
	return e, nil
}

func setAttr(e *Event, name string, raw []byte) error {
	if name == "data" {
		if len(raw) == 0 || raw[0] != '{' {
			return errors.New("data is not a JSON object")
		}
		e.Data = bytes.Clone(raw)
		return nil
	}
	if len(raw) == 0 || raw[0] != '"' {
		return fmt.Errorf("attribute %q is not a string", name)
	}
	if name == "time" {
		// What json.Unmarshal does for a type with its own UnmarshalJSON.
		if err := e.Time.UnmarshalJSON(raw); err != nil {
			return fmt.Errorf("time: %w", err)
		}
		return nil
	}
	s, err := jsonString(raw)
	if err != nil {
		return fmt.Errorf("attribute %q: %w", name, err)
	}
	switch name {
	case "specversion":
		e.SpecVersion = s
	case "id":
		e.ID = s
	case "source":
		e.Source = s
	case "type":
		e.Type = s
	case "subject":
		e.Subject = s
	case "datacontenttype":
		e.DataContentType = s
	case "campaign":
		e.Campaign = s
	case "session":
		e.Session = s
	case "actor":
		e.Actor = s
	case "causationid":
		e.CausationID = s
	}
	return nil
}

// Validate checks everything Decode checks, and that StreamSubject, when
// set, is an event subject agreeing with the campaign and the aggregate of
// the CloudEvents subject. Errors wrap ErrInvalidEvent.
func (e Event) Validate() error {
	_, err := e.validated()
	return err
}

// validated validates e and returns its data, decoded strictly into the
// struct registered for its type.
func (e Event) validated() (any, error) {
	v, err := e.validate()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	return v, nil
}

func (e Event) validate() (any, error) {
	if e.SpecVersion != SpecVersion {
		return nil, fmt.Errorf("specversion %q, want %q", e.SpecVersion, SpecVersion)
	}
	if err := validUUID(e.ID); err != nil {
		return nil, fmt.Errorf("id: %w", err)
	}
	if err := ValidID(e.Campaign); err != nil {
		return nil, fmt.Errorf("campaign: %w", err)
	}
	if want := "/campaigns/" + e.Campaign; e.Source != want {
		return nil, fmt.Errorf("source %q, want %q", e.Source, want)
	}
	kind, id, err := e.aggregate()
	if err != nil {
		return nil, err
	}
	if e.Time.IsZero() || e.Time.Year() < 1 || e.Time.Year() > 9999 {
		return nil, fmt.Errorf("time %v is missing or out of range", e.Time)
	}
	if e.DataContentType != ContentType {
		return nil, fmt.Errorf("datacontenttype %q, want %q", e.DataContentType, ContentType)
	}
	if e.Session != "" {
		if err := ValidID(e.Session); err != nil {
			return nil, fmt.Errorf("session: %w", err)
		}
	}
	if err := validActor(e.Actor); err != nil {
		return nil, err
	}
	if e.CausationID != "" {
		if err := validUUID(e.CausationID); err != nil {
			return nil, fmt.Errorf("causationid: %w", err)
		}
	}
	v, ok := dataFor(e.Type)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownType, e.Type)
	}
	if len(e.Data) == 0 || e.Data[0] != '{' {
		return nil, errors.New("data is not a JSON object")
	}
	if !utf8.Valid(e.Data) {
		return nil, errors.New("data is not valid UTF-8")
	}
	if err := checkData(e.Data, v); err != nil {
		return nil, fmt.Errorf("data of %s: %w", e.Type, err)
	}
	if e.StreamSubject != "" {
		if err := e.checkStreamSubject(kind, id); err != nil {
			return nil, err
		}
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

// validUUID accepts a UUID in its canonical lower-case form, other than the
// nil and max UUIDs.
func validUUID(s string) error {
	u, err := uuid.Parse(s)
	if err != nil || u.String() != s || u == uuid.Nil || u == uuid.Max {
		return fmt.Errorf("%q is not a canonical uuid", s)
	}
	return nil
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

// checkData decodes data into v (a pointer to the type's struct) and
// checks that every object key in it names a field exactly. Together these
// accept what json.Decoder with DisallowUnknownFields followed by an exact
// key check accepted: exact keys imply known fields.
func checkData(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	return exactKeys(data, schemaOf(reflect.TypeOf(v)))
}
