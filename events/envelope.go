package events

import (
	"bytes"
	"sync"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The envelope: the top-level object of a document, read and written by
// hand so that attribute names match exactly, none is repeated, every
// attribute but data is a JSON string, and an event is encoded without
// reflection, byte for byte as encoding/json encoded the Event struct.

// Attributes, in the order encode writes them (the order of Event's fields).
const (
	attrSpecVersion = iota
	attrID
	attrSource
	attrType
	attrSubject
	attrTime
	attrDataContentType
	attrCampaign
	attrSession
	attrActor
	attrCausationID
	attrRequestID
	attrCommand
	attrPrevHash
	attrData
	numAttrs
)

// attrNames are the attributes' JSON names, by index.
var attrNames = [numAttrs]string{"specversion", "id", "source", "type", "subject", "time", "datacontenttype",
	"campaign", "session", "actor", "causationid", "requestid", "command", "prevhash", "data"}

// optionalAttr reports whether a document may leave attribute k out.
func optionalAttr(k int) bool {
	return k == attrSession || k == attrActor || k == attrCausationID || k == attrRequestID || k == attrCommand || k == attrPrevHash
}

// attrIndex returns the index of the attribute named name, or -1.
func attrIndex(name []byte) int {
	for k, n := range attrNames {
		if string(name) == n {
			return k
		}
	}
	return -1
}

// readOptions configure every reader. Invalid UTF-8 passes the syntax
// check because Decode has checked that the whole document is valid UTF-8
// first: what the option still lets through is an escaped lone surrogate
// (\ud800), which decodes to U+FFFD as encoding/json decodes it. The
// reader finds repeated attributes itself (cheaper than the decoder's
// general check); data is decoded with dataOptions.
var readOptions = []jsontext.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}

// dataOptions decode data strictly: exact member names (the default), no
// repeated names in any object, no unknown members at any depth, and
// escaped lone surrogates as U+FFFD (callers check that the bytes are
// valid UTF-8).
var dataOptions = []jsonv2.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(false),
	jsonv2.RejectUnknownMembers(true)}

// decodeStrictly decodes data, one JSON value and nothing after it, into v
// with dataOptions.
func decodeStrictly(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, dataOptions...)
}

// A reader parses documents. Readers are pooled; each serves one Decode at
// a time and keeps no reference to a document once read returns.
type reader struct {
	in   bytes.Buffer // the document, which dec reads in place
	dec  jsontext.Decoder
	text []byte // the envelope's strings, unquoted, end to end
}

var readers = sync.Pool{New: func() any { return new(reader) }}

// errDataRefused is returned by read when the data decoded inline was
// refused: Decode reads the document again without decoding inline, so
// that what is wrong is reported in the order validate checks it.
var errDataRefused = msgerr.New("data refused")

// maxKeptText bounds the string buffer a pooled reader keeps.
const maxKeptText = 4 << 10

// read parses the document b, which must be valid UTF-8, into an event:
// the top-level object with exact attribute names, none repeated, the
// required ones present, every attribute a JSON string but data, an
// object, and nothing after the object. Data is copied out of b. When
// inline is set and a registered type comes before data (as encode writes
// it), the data is decoded strictly while it is read and returned as v
// (errDataRefused if it does not decode); otherwise v is nil. The strings
// of the envelope share one allocation.
func (r *reader) read(b []byte, inline bool) (e Event, v any, err error) {
	r.in = *bytes.NewBuffer(b)
	r.dec.Reset(&r.in, readOptions...)
	defer r.release()
	if err := r.open(); err != nil {
		return Event{}, nil, err
	}
	var seen [numAttrs]bool
	var spans [numAttrs][2]int
	for r.dec.PeekKind() != '}' {
		k, err := r.attrName()
		if err != nil {
			return Event{}, nil, err
		}
		if seen[k] {
			return Event{}, nil, msgerr.Errorf("attribute %q repeated", attrNames[k])
		}
		seen[k] = true
		switch k {
		case attrData:
			if inline && seen[attrType] {
				v, _ = dataFor(string(r.text[spans[attrType][0]:spans[attrType][1]]))
			}
			e.Data, err = r.data(b, v)
		case attrTime:
			e.Time, err = r.readTime()
		default:
			start := len(r.text)
			err = r.str(k)
			spans[k] = [2]int{start, len(r.text)}
		}
		if err != nil {
			return Event{}, nil, err
		}
	}
	if err := r.close(b); err != nil {
		return Event{}, nil, err
	}
	for k, ok := range seen {
		if !ok && !optionalAttr(k) {
			return Event{}, nil, msgerr.Errorf("missing attribute %q", attrNames[k])
		}
	}
	setStrings(&e, string(r.text), &spans)
	return e, v, nil
}

// release drops the reader's reference to the document.
func (r *reader) release() {
	r.in = bytes.Buffer{}
	r.dec.Reset(&r.in)
	r.text = r.text[:0]
	if cap(r.text) > maxKeptText {
		r.text = nil
	}
}

// setStrings gives each string attribute k of e its part of text,
// text[spans[k][0]:spans[k][1]], so that they share one allocation.
func setStrings(e *Event, text string, spans *[numAttrs][2]int) {
	part := func(k int) string { return text[spans[k][0]:spans[k][1]] }
	e.SpecVersion, e.ID, e.Source, e.Type = part(attrSpecVersion), part(attrID), part(attrSource), part(attrType)
	e.Subject, e.DataContentType, e.Campaign = part(attrSubject), part(attrDataContentType), part(attrCampaign)
	e.Session, e.Actor, e.CausationID = part(attrSession), part(attrActor), part(attrCausationID)
	e.RequestID, e.Command, e.PrevHash = part(attrRequestID), part(attrCommand), part(attrPrevHash)
}

// open reads the '{' that starts the document.
func (r *reader) open() error {
	tok, err := r.dec.ReadToken()
	if err != nil {
		return msgerr.Errorf("malformed json: %w", err)
	}
	if tok.Kind() != '{' {
		return msgerr.New("document is not a JSON object")
	}
	return nil
}

// close reads the '}' that ends the document and checks that only
// whitespace follows it.
func (r *reader) close(b []byte) error {
	if _, err := r.dec.ReadToken(); err != nil {
		return msgerr.Errorf("malformed json: %w", err)
	}
	if len(bytes.TrimLeft(b[r.dec.InputOffset():], " \t\r\n")) != 0 {
		return msgerr.New("data after the JSON object")
	}
	return nil
}

// attrName reads a member name and returns its attribute index.
func (r *reader) attrName() (int, error) {
	raw, err := r.dec.ReadValue()
	if err != nil {
		return 0, msgerr.Errorf("malformed json: %w", err)
	}
	name := raw[1 : len(raw)-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		var buf [32]byte
		name, _ = jsontext.AppendUnquote(buf[:0], raw) // valid: the decoder read it
	}
	k := attrIndex(name)
	if k < 0 {
		return 0, msgerr.Errorf("unknown attribute %q", clip.Text(name))
	}
	return k, nil
}

// value reads the value of attribute k, which must be of the given kind.
func (r *reader) value(k int, kind jsontext.Kind, what string) (jsontext.Value, error) {
	if got := r.dec.PeekKind(); got != kind && got != jsontext.KindInvalid {
		return nil, msgerr.Errorf("attribute %q is not %s", attrNames[k], what)
	}
	raw, err := r.dec.ReadValue()
	if err != nil {
		return nil, msgerr.Errorf("malformed json in %q: %w", attrNames[k], err)
	}
	return raw, nil
}

// str appends the text of string attribute k to r.text, unquoted as
// encoding/json unquotes it (an escaped lone surrogate is U+FFFD).
func (r *reader) str(k int) error {
	raw, err := r.value(k, '"', "a string")
	if err != nil {
		return err
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		r.text = append(r.text, inner...)
		return nil
	}
	// The decoder has checked the escapes: the only error left is a lone
	// surrogate, already replaced with U+FFFD.
	r.text, _ = jsontext.AppendUnquote(r.text, raw)
	return nil
}

// readTime reads the time attribute as encoding/json does: time.Time's
// UnmarshalJSON of the raw string (RFC 3339, no escapes).
func (r *reader) readTime() (t time.Time, err error) {
	raw, err := r.value(attrTime, '"', "a string")
	if err != nil {
		return t, err
	}
	if err := t.UnmarshalJSON(raw); err != nil {
		return t, msgerr.Errorf("time: %w", err)
	}
	return t, nil
}

// data reads the data attribute, an object, and returns a copy of its
// bytes as they are in b. With v set it decodes the data strictly into v
// as it reads it (errDataRefused if that fails).
func (r *reader) data(b []byte, v any) ([]byte, error) {
	if v == nil {
		raw, err := r.value(attrData, '{', "a JSON object")
		if err != nil {
			return nil, err
		}
		return bytes.Clone(raw), nil
	}
	if r.dec.PeekKind() != '{' {
		return nil, errDataRefused
	}
	start := r.dec.InputOffset() // just after the name
	if err := jsonv2.UnmarshalDecode(&r.dec, v, dataOptions...); err != nil {
		return nil, errDataRefused
	}
	raw := bytes.TrimLeft(b[start:r.dec.InputOffset()], " \t\r\n:")
	return bytes.Clone(raw), nil
}

// appendEvent appends the document of e as encoding/json (with
// SetEscapeHTML(false)) encodes the Event struct: the attributes in
// field order, session, actor and causationid always present, requestid
// and command only when set, the time as
// time.Time.MarshalJSON writes it, and data compact. e.Data must be valid
// JSON (it has been validated).
func appendEvent(dst []byte, e Event) ([]byte, error) {
	dst = appendAttr(dst, `{"specversion":`, e.SpecVersion)
	dst = appendAttr(dst, `,"id":`, e.ID)
	dst = appendAttr(dst, `,"source":`, e.Source)
	dst = appendAttr(dst, `,"type":`, e.Type)
	dst = appendAttr(dst, `,"subject":`, e.Subject)
	dst = append(dst, `,"time":"`...)
	dst, err := e.Time.AppendText(dst) // what MarshalJSON writes between its quotes
	if err != nil {
		return nil, err
	}
	dst = appendAttr(dst, `","datacontenttype":`, e.DataContentType)
	dst = appendAttr(dst, `,"campaign":`, e.Campaign)
	dst = appendAttr(dst, `,"session":`, e.Session)
	dst = appendAttr(dst, `,"actor":`, e.Actor)
	dst = appendAttr(dst, `,"causationid":`, e.CausationID)
	if e.RequestID != "" { // omitempty, as the Event struct says
		dst = appendAttr(dst, `,"requestid":`, e.RequestID)
	}
	if e.Command != "" { // omitempty, as the Event struct says
		dst = appendAttr(dst, `,"command":`, e.Command)
	}
	if e.PrevHash != "" { // omitempty, as the Event struct says
		dst = appendAttr(dst, `,"prevhash":`, e.PrevHash)
	}
	dst = append(dst, `,"data":`...)
	if e.Data == nil {
		dst = append(dst, "null"...)
	} else {
		dst = appendCompact(dst, e.Data)
	}
	return append(dst, '}'), nil
}

// appendAttr appends the JSON text before an attribute's value, then the
// value as a JSON string.
func appendAttr(dst []byte, before, s string) []byte {
	return appendString(append(dst, before...), s)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string exactly as encoding/json writes
// it without HTML escaping: '"' and '\\' escaped, control characters as
// \b \f \n \r \t or \u00XX, U+2028 and U+2029 escaped, each byte of
// invalid UTF-8 as \ufffd, everything else as it is.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendASCIIEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendASCIIEscape appends the escape of an ASCII byte that encoding/json
// does not write as it is.
func appendASCIIEscape(dst []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// appendCompact appends the valid JSON value data without the whitespace
// between its tokens, as encoding/json's Compact does.
func appendCompact(dst, data []byte) []byte {
	start := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			i = stringEnd(data, i) - 1
		case ' ', '\t', '\r', '\n':
			dst = append(dst, data[start:i]...)
			start = i + 1
		}
	}
	return append(dst, data[start:]...)
}

// stringEnd returns the index just after the JSON string that starts at
// data[i] ('"'), or len(data) if it does not end.
func stringEnd(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++ // the escaped byte
		case '"':
			return i + 1
		}
	}
	return len(data)
}

// MaxCommandLen bounds the command attribute of an event.
const MaxCommandLen = 64

// ErrInvalidCommand marks a command attribute that ValidCommand refuses.
var ErrInvalidCommand = msgerr.New("invalid command name")

// ValidCommand checks the optional command attribute of an event: the
// name, in the command catalogue (package command/catalog), of the
// command that recorded it: 1 to MaxCommandLen lower-case letters, digits
// and '-', starting with a letter. Events recorded before the attribute,
// or by no catalogued command, have none.
func ValidCommand(name string) error {
	if name == "" || len(name) > MaxCommandLen {
		return msgerr.Errorf("%w: %q: 1 to %d bytes", ErrInvalidCommand, clip.Text(name), MaxCommandLen)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return msgerr.Errorf("%w: %q has %q at byte %d: use lower-case letters, digits and '-', starting with a letter", ErrInvalidCommand, clip.Text(name), c, i)
		}
	}
	return nil
}

// MediaType is the media type of a stored event as a message's
// Content-Type (the store's messages, serve's live feed): a CloudEvent in
// structured mode, JSON. (ContentType is the datacontenttype of its data.)
const MediaType = "application/cloudevents+json"
