package events

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
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
		return nil, msgerr.Errorf("%w: encode %s: %w", ErrInvalidEvent, e.ID, err)
	}
	if len(b) > MaxSize {
		return nil, msgerr.Errorf("%w: %s is %d bytes, more than %d", ErrInvalidEvent, e.ID, len(b), MaxSize)
	}
	return b, nil
}

// encodedSize is the size of e's document when no string needs escaping:
// the attributes' names, quotes and time, and their values.
func encodedSize(e Event) int {
	const fixed = len(`{"specversion":"","id":"","source":"","type":"","subject":"","time":"","datacontenttype":"",`+
		`"campaign":"","session":"","actor":"","causationid":"","data":}`) + len(time.RFC3339Nano)
	return fixed + len(e.SpecVersion) + len(e.ID) + len(e.Source) + len(e.Type) + len(e.Subject) +
		len(e.DataContentType) + len(e.Campaign) + len(e.Session) + len(e.Actor) + len(e.CausationID) + len(e.Data) +
		len(`,"requestid":""`) + len(e.RequestID) + len(`,"command":""`) + len(e.Command)
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
	return decode(b, false)
}

// DecodeOwned is Decode taking b over: the event's Data may be a part of
// b, which the caller must not change afterwards (a line of an export read
// for this event alone). It saves copying every event of a long read.
func DecodeOwned(b []byte) (Event, error) {
	return decode(b, true)
}

// decode is Decode; when owned, the event's Data may share b's memory.
func decode(b []byte, owned bool) (Event, error) {
	if len(b) > MaxSize {
		return Event{}, msgerr.Errorf("%w: document is %d bytes, more than %d", ErrInvalidEvent, len(b), MaxSize)
	}
	if !utf8.Valid(b) {
		return Event{}, msgerr.Errorf("%w: document is not valid UTF-8", ErrInvalidEvent)
	}
	// The documents the journal writes go the fast way, with the result
	// readGeneral would give; readFast gives up on anything else.
	e, v, ok := readFast(b, owned)
	if !ok {
		var err error
		if e, v, err = readGeneral(b); err != nil {
			return Event{}, msgerr.Errorf("%w: %w", ErrInvalidEvent, err)
		}
	}
	if err := e.checkEnvelope(); err != nil {
		return Event{}, msgerr.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if v == nil {
		var err error
		if v, err = e.checkData(nil); err != nil {
			return Event{}, msgerr.Errorf("%w: %w", ErrInvalidEvent, err)
		}
	}
	e.decoded = newDecoded(e, v)
	return e, nil
}

// readGeneral parses b, any valid UTF-8 document, with a pooled reader
// into an event and, when its type came before its data and the data
// decoded, the data decoded strictly (otherwise nil, for checkData to
// decide).
func readGeneral(b []byte) (Event, any, error) {
	r := readers.Get().(*reader)
	defer readers.Put(r)
	e, v, err := r.read(b, true)
	if err == errDataRefused {
		e, v, err = r.read(b, false) // to report what is wrong in validate's order
	}
	return e, v, err
}

// Validate checks everything Decode checks, and that StreamSubject, when
// set, is the subject of the event's campaign. Data that New or Decode validated, unchanged
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
		return nil, msgerr.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if v := e.decoded.of(e); v != nil {
		return v, nil
	}
	v, err := e.checkData(nil)
	if err != nil {
		return nil, msgerr.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	return v, nil
}

// checkEnvelope checks every attribute but the type and data, and
// StreamSubject when it is set.
func (e Event) checkEnvelope() error {
	if e.SpecVersion != SpecVersion {
		return msgerr.Errorf("specversion %q, want %q", clip.Text(e.SpecVersion), SpecVersion)
	}
	if err := validUUID(e.ID); err != nil {
		return msgerr.Errorf("id: %w", err)
	}
	if err := ValidID(e.Campaign); err != nil {
		return msgerr.Errorf("campaign: %w", err)
	}
	if c, ok := strings.CutPrefix(e.Source, "/campaigns/"); !ok || c != e.Campaign {
		return msgerr.Errorf("source %q, want %q", clip.Text(e.Source), "/campaigns/"+e.Campaign)
	}
	if _, _, err := e.aggregate(); err != nil {
		return err
	}
	if y := e.Time.Year(); e.Time.IsZero() || y < 1 || y > 9999 {
		return msgerr.Errorf("time %v is missing or out of range", e.Time)
	}
	if e.DataContentType != ContentType {
		return msgerr.Errorf("datacontenttype %q, want %q", clip.Text(e.DataContentType), ContentType)
	}
	if e.Session != "" {
		if err := ValidID(e.Session); err != nil {
			return msgerr.Errorf("session: %w", err)
		}
	}
	if err := validActor(e.Actor); err != nil {
		return err
	}
	if e.CausationID != "" {
		if err := validUUID(e.CausationID); err != nil {
			return msgerr.Errorf("causationid: %w", err)
		}
	}
	if e.RequestID != "" {
		if err := ValidRequestID(e.RequestID); err != nil {
			return msgerr.Errorf("requestid: %w", err)
		}
	}
	if e.Command != "" {
		if err := ValidCommand(e.Command); err != nil {
			return msgerr.Errorf("command: %w", err)
		}
	}
	if e.PrevHash != "" {
		if err := ValidPrevHash(e.PrevHash); err != nil {
			return msgerr.Errorf("prevhash: %w", err)
		}
	}
	if e.StreamSubject != "" {
		return e.checkStreamSubject()
	}
	return nil
}

// checkData checks that the type is registered and that the data is a
// JSON object of valid UTF-8 that decodes strictly (decodeData) into
// the type's struct, and returns the decoded value: v (what dataFor gave
// for e.Type, or nil), or such a value made here when v is nil.
func (e Event) checkData(v any) (any, error) {
	t := byType[e.Type]
	if t == nil {
		return nil, msgerr.Errorf("%w %q", ErrUnknownType, clip.Text(e.Type))
	}
	if v == nil {
		v = t.data()
	}
	if len(e.Data) == 0 || e.Data[0] != '{' {
		return nil, msgerr.New("data is not a JSON object")
	}
	if !utf8.Valid(e.Data) {
		return nil, msgerr.New("data is not valid UTF-8")
	}
	if err := decodeData(e.Data, v, t); err != nil {
		return nil, msgerr.Errorf("data of %s: %w", e.Type, err)
	}
	return v, nil
}

// checkStreamSubject checks that StreamSubject is the subject of the
// event's campaign (CampaignSubject). The aggregate is the CloudEvents
// subject's alone: it is not part of the stream subject.
func (e Event) checkStreamSubject() error {
	campaign, err := ParseSubject(e.StreamSubject)
	if err != nil {
		return err
	}
	if campaign != e.Campaign {
		return msgerr.Errorf("stream subject %q disagrees with campaign %q", clip.Text(e.StreamSubject), clip.Text(e.Campaign))
	}
	return nil
}

// validUUID accepts a UUID in its canonical form (what uuid.UUID.String
// writes: lower-case hex digits, hyphens after the 8th, 12th, 16th and
// 20th), other than the nil and max UUIDs.
func validUUID(s string) error {
	if !canonicalUUID(s) {
		return msgerr.Errorf("%q is not a canonical uuid", clip.Text(s))
	}
	return nil
}

// word returns the 8 bytes w as a little-endian word.
func word(w string) uint64 {
	_ = w[7]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// canonicalUUID is validUUID's test, 8 bytes at a time: the words at 0,
// 8, 16, 24 and 28 cover the 36 bytes, with the hyphens at bytes 0 and 5
// of the second word and 2 and 7 of the third.
func canonicalUUID(s string) bool {
	if len(s) != 36 || s == "00000000-0000-0000-0000-000000000000" || s == "ffffffff-ffff-ffff-ffff-ffffffffffff" {
		return false
	}
	return uuidWord(word(s[0:8]), 0) && uuidWord(word(s[8:16]), 0x80|0x80<<40) &&
		uuidWord(word(s[16:24]), 0x80<<16|0x80<<56) && uuidWord(word(s[24:32]), 0) && uuidWord(word(s[28:36]), 0)
}

// uuidWord reports whether the 8 bytes of x (a little-endian word) are
// lower-case hex digits, but hyphens at the bytes whose high bits are set
// in hyphens. Each test is a byte-wise comparison of bytes below 0x80,
// where no addition carries from a byte into the next.
func uuidWord(x, hyphens uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	atLeast := func(c uint64) uint64 { return (x + (0x80-c)*ones) & highs } // bytes >= c
	above := func(c uint64) uint64 { return (x + (0x7f-c)*ones) & highs }   // bytes > c
	dash := ^((x ^ '-'*ones) + 0x7f*ones) & highs                           // bytes == '-'
	hex := atLeast('0')&^above('9') | atLeast('a')&^above('f')
	return x&highs == 0 && hex|hyphens == highs && dash&hyphens == hyphens
}

func validActor(s string) error {
	if len(s) > MaxActorLen {
		return msgerr.Errorf("actor is longer than %d bytes", MaxActorLen)
	}
	if !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
		return msgerr.Errorf("actor %q has invalid or control characters", clip.Text(s))
	}
	return nil
}
