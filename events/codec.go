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
// ErrInvalidID where they apply) documents over MaxSize, malformed or
// trailing JSON, unknown or repeated attributes, a wrong specversion or
// datacontenttype, an id that is not a canonical UUID, an unknown type, data
// that does not decode strictly into the type's struct, invalid slugs, and a
// source or subject that disagrees with them. StreamSubject is left empty.
func Decode(b []byte) (Event, error) {
	if len(b) > MaxSize {
		return Event{}, fmt.Errorf("%w: document is %d bytes, more than %d", ErrInvalidEvent, len(b), MaxSize)
	}
	e, err := parseEnvelope(b)
	if err != nil {
		return Event{}, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if err := e.Validate(); err != nil {
		return Event{}, err
	}
	return e, nil
}

// envelopeAttrs reports whether an attribute is required and whether it is known.
func envelopeAttrs(name string) (required, known bool) {
	switch name {
	case "specversion", "id", "source", "type", "subject", "time", "datacontenttype", "campaign", "data":
		return true, true
	case "session", "actor", "causationid":
		return false, true
	}
	return false, false
}

// parseEnvelope reads the top-level object attribute by attribute, so that
// attribute names match exactly (encoding/json alone matches them without
// regard to case) and none is repeated.
func parseEnvelope(b []byte) (Event, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	if tok, err := d.Token(); err != nil {
		return Event{}, fmt.Errorf("malformed json: %w", err)
	} else if tok != json.Delim('{') {
		return Event{}, errors.New("document is not a JSON object")
	}
	var e Event
	seen := make(map[string]bool, 12)
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return Event{}, fmt.Errorf("malformed json: %w", err)
		}
		name, _ := tok.(string)
		if _, known := envelopeAttrs(name); !known {
			return Event{}, fmt.Errorf("unknown attribute %q", name)
		}
		if seen[name] {
			return Event{}, fmt.Errorf("attribute %q repeated", name)
		}
		seen[name] = true
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			return Event{}, fmt.Errorf("malformed json in %q: %w", name, err)
		}
		if err := setAttr(&e, name, raw); err != nil {
			return Event{}, err
		}
	}
	if _, err := d.Token(); err != nil { // the closing brace
		return Event{}, fmt.Errorf("malformed json: %w", err)
	}
	if len(bytes.TrimLeft(b[d.InputOffset():], " \t\r\n")) != 0 {
		return Event{}, errors.New("data after the JSON object")
	}
	for _, name := range []string{"specversion", "id", "source", "type", "subject", "time", "datacontenttype", "campaign", "data"} {
		if !seen[name] {
			return Event{}, fmt.Errorf("missing attribute %q", name)
		}
	}
	return e, nil
}

func setAttr(e *Event, name string, raw json.RawMessage) error {
	if name == "data" {
		if len(raw) == 0 || raw[0] != '{' {
			return errors.New("data is not a JSON object")
		}
		e.Data = raw
		return nil
	}
	if len(raw) == 0 || raw[0] != '"' {
		return fmt.Errorf("attribute %q is not a string", name)
	}
	if name == "time" {
		if err := json.Unmarshal(raw, &e.Time); err != nil {
			return fmt.Errorf("time: %w", err)
		}
		return nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
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
	if err := e.validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	return nil
}

func (e Event) validate() error {
	if e.SpecVersion != SpecVersion {
		return fmt.Errorf("specversion %q, want %q", e.SpecVersion, SpecVersion)
	}
	if err := validUUID(e.ID); err != nil {
		return fmt.Errorf("id: %w", err)
	}
	if err := ValidID(e.Campaign); err != nil {
		return fmt.Errorf("campaign: %w", err)
	}
	if want := "/campaigns/" + e.Campaign; e.Source != want {
		return fmt.Errorf("source %q, want %q", e.Source, want)
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
	v, ok := dataFor(e.Type)
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownType, e.Type)
	}
	if len(e.Data) == 0 || e.Data[0] != '{' {
		return errors.New("data is not a JSON object")
	}
	if err := decodeStrict(e.Data, v); err != nil {
		return fmt.Errorf("data of %s: %w", e.Type, err)
	}
	if err := exactKeys(e.Data, reflect.TypeOf(v)); err != nil {
		return fmt.Errorf("data of %s: %w", e.Type, err)
	}
	if e.StreamSubject != "" {
		return e.checkStreamSubject(kind, id)
	}
	return nil
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

// exactKeys checks that every object key in data names a field of t exactly
// (encoding/json matches field names without regard to case, so that
// "Nonce" would otherwise pass for "nonce").
func exactKeys(data []byte, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil // its own rules
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
			return nil // null, or shape errors already reported by decodeStrict
		}
		fields := jsonFields(t)
		for k, v := range obj {
			ft, ok := fields[k]
			if !ok {
				return fmt.Errorf("unknown field %q", k)
			}
			if err := exactKeys(v, ft); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
	case reflect.Slice, reflect.Array:
		var arr []json.RawMessage
		if err := json.Unmarshal(data, &arr); err != nil {
			return nil
		}
		for i, v := range arr {
			if err := exactKeys(v, t.Elem()); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
	case reflect.Map:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil
		}
		for k, v := range obj {
			if err := exactKeys(v, t.Elem()); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
	}
	return nil
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// jsonFields maps the JSON names of t's exported fields (including promoted
// fields of embedded structs) to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := make(map[string]reflect.Type)
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			continue // its fields are visible on their own
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
