// Package events defines the journal's events: the CloudEvents 1.0 envelope,
// the event types and their data, the subjects events are stored under, the
// codec, and the types shared by every event store (Recorded, Query, Expect).
//
// Invariants:
//   - An Event that Encode accepts is exactly what Decode accepts: a
//     CloudEvents 1.0 structured JSON document of at most MaxSize bytes, with
//     a canonical UUID id, a registered type whose data decodes strictly into
//     the registered struct (member names exact and known at every depth,
//     none repeated), slugs for campaign, session and aggregate id, and
//     source and subject agreeing with them. Decode(Encode(e)) is e again,
//     except for StreamSubject, which is not part of the document. Encode
//     writes the bytes encoding/json wrote for the Event struct.
//   - Decode never panics and refuses anything else with one error wrapping
//     ErrInvalidEvent.
//   - The documents and data the journal writes are read the fast way
//     (readFast, decodeData: the codec in internal/fastcodec, with the
//     field tables generated into fastfields.go), tried first by Decode and
//     New: where a fast path handles an input it gives exactly what the
//     general way gives (readGeneral, decodeStrictly), and on anything else
//     it gives up, and the general way decides.
//   - Data is validated once. New and Decode keep the data decoded, with
//     the type, length and CRC-32C of what they validated (decodedData);
//     Validate, Encode, Prepare and Payload trust it while the event still
//     has that type and data, and validate anything else afresh.
//   - The package is pure: no I/O, no clock, no global randomness. Times and
//     ids are passed in (see IDs and V7).
package events

import (
	"bytes"
	"encoding/json"
	"hash/crc32"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// CloudEvents constants of every journal event.
const (
	SpecVersion = "1.0"
	ContentType = "application/json"
)

// Event is one immutable fact, as a CloudEvents 1.0 structured-mode document.
// The JSON field names are the contract of docs/design.md §2.
type Event struct {
	SpecVersion     string          `json:"specversion"`
	ID              string          `json:"id"`     // UUID (v7, or v8 derived from a request id: RequestEventID), also the Nats-Msg-Id
	Source          string          `json:"source"` // "/campaigns/<campaign>"
	Type            string          `json:"type"`   // e.g. "journal.roll.made.v1"
	Subject         string          `json:"subject"`
	Time            time.Time       `json:"time"` // RFC 3339
	DataContentType string          `json:"datacontenttype"`
	Campaign        string          `json:"campaign"`
	Session         string          `json:"session"`
	Actor           string          `json:"actor"`
	CausationID     string          `json:"causationid"`
	RequestID       string          `json:"requestid,omitempty"` // the client's id of the command (ValidRequestID), or empty; optional: older events have none
	Command         string          `json:"command,omitempty"`   // the catalogue name of the command that recorded it (ValidCommand), or empty; optional: older events have none
	PrevHash        string          `json:"prevhash,omitempty"`  // journal-dice-v2's chain: hex(SHA-256(the campaign's previous event's stored bytes)), or empty (see chain.go)
	Data            json.RawMessage `json:"data"`

	// StreamSubject is the NATS subject the event is stored under: its
	// campaign's, journal.<campaign> (CampaignSubject). It is not part of the
	// CloudEvent: New sets it, stores set it on every event they read, and
	// Decode leaves it empty.
	StreamSubject string `json:"-"`

	// decoded is the data as New or Decode decoded it strictly while
	// validating the event, so that Payload need not decode it again, and
	// Validate, Encode and Prepare need not validate it again.
	decoded *decodedData
}

// decodedData is an event's data decoded into its type's struct, with
// what it was decoded from: the type, and the length and CRC-32C of the
// data. Only New and Decode make one, after validating the data strictly
// (checkData). It is used only while the event still has that type and
// data of that length and checksum: an event whose type or data changed
// after New or Decode (or that was built by hand) is decoded and validated
// afresh. A change of the data that kept its length and CRC-32C would go
// unseen; the checksum guards against accidents (an edit in place, a
// copied event given other data), not against an adversary in the process.
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
	Name        string // short event name, e.g. "roll" (no longer part of the stream subject; may be empty)
	Type        string // registered event type, e.g. "journal.roll.made.v1"
	Session     string // session id, or empty
	Actor       string // who issued the command
	CausationID string // id of the event that caused this one, or empty
	RequestID   string // the client's id of the command, or empty
	Command     string // the catalogue name of the command, or empty
	Data        any    // the type's data struct (or a pointer to it)
}

// New builds and validates an event: a fresh id from ids, the time at
// (stored in UTC), the source, subjects and data derived from s. Data with
// a string that is not valid UTF-8 is refused (encoding/json would replace
// its bytes with U+FFFD: a silent change of what was asked). The data is
// marshalled and validated once: the event keeps it decoded (see
// decodedData), so that Payload, Encode and Prepare need not decode it
// again while it is unchanged.
func New(s Spec, ids IDs, at time.Time) (Event, error) {
	subject, err := CampaignSubject(s.Campaign)
	if err != nil {
		return Event{}, msgerr.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if err := ValidID(string(s.Kind)); err != nil {
		return Event{}, msgerr.Errorf("%w: aggregate kind: %w", ErrInvalidEvent, err)
	}
	if err := ValidID(s.AggregateID); err != nil {
		return Event{}, msgerr.Errorf("%w: aggregate id: %w", ErrInvalidEvent, err)
	}
	if s.Name != "" {
		if err := ValidID(s.Name); err != nil {
			return Event{}, msgerr.Errorf("%w: event name: %w", ErrInvalidEvent, err)
		}
	}
	// The fast way (newDataFast) gives the data encoded and decoded back,
	// as the general way below does.
	data, v, fast := newDataFast(s.Data, byType[s.Type])
	if !fast {
		v, _ = dataFor(s.Type) // nil for an unknown type, refused below
		var err error
		data, err = marshalData(s.Data)
		if err == nil {
			err = dataUTF8(s.Data, v, data)
		}
		if err != nil {
			return Event{}, msgerr.Errorf("%w: data of %s: %w", ErrInvalidEvent, s.Type, err)
		}
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
		RequestID:       s.RequestID,
		Command:         s.Command,
		Data:            data,
		StreamSubject:   subject,
	}
	if err := e.checkEnvelope(); err != nil {
		return Event{}, msgerr.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if !fast {
		if v, err = e.checkData(v); err != nil {
			return Event{}, msgerr.Errorf("%w: %w", ErrInvalidEvent, err)
		}
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
		return "", "", msgerr.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	return kind, id, nil
}

func (e Event) aggregate() (Kind, string, error) {
	plural, id, ok := strings.Cut(e.Subject, "/")
	if !ok {
		return "", "", msgerr.Errorf("subject %q is not <kind>/<id>", clip.Text(e.Subject))
	}
	kind, ok := kindOfPlural(plural)
	if !ok {
		return "", "", msgerr.Errorf("subject %q has no valid aggregate kind", clip.Text(e.Subject))
	}
	if err := ValidID(id); err != nil {
		return "", "", msgerr.Errorf("subject %q: %w", clip.Text(e.Subject), err)
	}
	return kind, id, nil
}

// DecodeData decodes the event's data strictly (unknown fields refused) into v.
func (e Event) DecodeData(v any) error {
	if err := decodeStrict(e.Data, v); err != nil {
		return msgerr.Errorf("%w: data of %s %s: %w", ErrInvalidEvent, e.Type, e.ID, err)
	}
	return nil
}

// Payload returns the event's data decoded into a value of the struct
// registered for its type: a pointer such as *CampaignCreated. For an
// event made by New or Decode, and not changed since, it is the value they
// decoded while validating the event, the same on every call: callers
// read it and must not modify it. Otherwise the data is decoded afresh, as
// strictly as Decode decodes it.
func (e Event) Payload() (any, error) {
	if v := e.decoded.of(e); v != nil {
		return v, nil
	}
	v, ok := dataFor(e.Type)
	if !ok {
		return nil, msgerr.Errorf("%w: %w %q", ErrInvalidEvent, ErrUnknownType, clip.Text(e.Type))
	}
	if err := decodeStrictly(e.Data, v); err != nil {
		return nil, msgerr.Errorf("%w: data of %s %s: %w", ErrInvalidEvent, e.Type, e.ID, err)
	}
	return v, nil
}

// A marshaller is a pooled encoding/json Encoder writing into its own
// buffer, without HTML escaping.
type marshaller struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var marshallers = sync.Pool{New: func() any {
	m := new(marshaller)
	m.enc = json.NewEncoder(&m.buf)
	m.enc.SetEscapeHTML(false)
	return m
}}

// maxKeptMarshal bounds the buffer a pooled marshaller keeps.
const maxKeptMarshal = 64 << 10

// marshalData encodes v compactly without HTML escaping, as encoding/json
// does: the bytes Encode writes for data are these, whatever New's
// caller passed.
func marshalData(v any) (json.RawMessage, error) {
	m := marshallers.Get().(*marshaller)
	defer func() {
		if m.buf.Cap() <= maxKeptMarshal {
			marshallers.Put(m)
		}
	}()
	m.buf.Reset()
	if err := m.enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.Clone(bytes.TrimSuffix(m.buf.Bytes(), []byte("\n"))), nil
}

// dataUTF8 reports a string in v, New's data, that is not valid UTF-8.
// enc is v as marshalData encoded it; registered is what dataFor gave for
// the event's type (nil for an unknown one). When v is of the registered
// struct (or a pointer to it), every string in it is written to enc as a
// JSON string, and
// encoding/json writes the escape \ufffd for each byte of invalid UTF-8
// and for nothing else: enc tells (and the walk validUTF8 then names the
// string). Any other value is walked, since it may hold strings that are
// not written as they are (json:"-" fields, ",string" options, its own
// MarshalJSON).
func dataUTF8(v, registered any, enc []byte) error {
	t := reflect.TypeOf(v)
	if registered == nil || t == nil || (t != reflect.TypeOf(registered) && t != reflect.TypeOf(registered).Elem()) {
		return validUTF8(reflect.ValueOf(v), 0)
	}
	if !hasReplacementEscape(enc) {
		return nil
	}
	if err := validUTF8(reflect.ValueOf(v), 0); err != nil {
		return err // names the string
	}
	return msgerr.New("a string is not valid UTF-8")
}

// hasReplacementEscape reports whether the JSON text enc holds the escape
// \ufffd (and not merely a backslash followed by "ufffd").
func hasReplacementEscape(enc []byte) bool {
	for {
		i := bytes.IndexByte(enc, '\\')
		if i < 0 || i+1 >= len(enc) {
			return false
		}
		if enc[i+1] == 'u' && bytes.HasPrefix(enc[i+2:], []byte("fffd")) {
			return true
		}
		enc = enc[i+2:] // past the escaped character
	}
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
		return msgerr.Errorf("data after the JSON value")
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
			return msgerr.Errorf("%q is not valid UTF-8", clip.Text(v.String()))
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
