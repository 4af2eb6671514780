package events

// The codec as it was before the fast decoder made it faster (commit 246cfbb): kept,
// renamed, as the reference the codec must agree with
// (FuzzDecodeMatchesReference, TestDecodeMatchesReference, and for the
// encoder FuzzEncodeMatchesReference, TestEncodeMatchesReference).
//
// Decode never accepts a document that referenceDecode refuses, or that is
// not valid UTF-8; where both accept, they decode the same event. Decode
// accepts every valid UTF-8 document that referenceDecode accepts, with
// one exception, which referenceAgrees asserts explicitly:
//
//   - an object inside data that repeats a member name (after unescaping),
//     such as {"nonce":3,"nonce":4} or "attributes":{"F":8,"F":9}:
//     encoding/json kept the last value; Decode (go-json-experiment/json,
//     the upstream of encoding/json/v2) refuses the document with
//     jsontext.ErrDuplicateName. Repeated envelope attributes were already
//     refused.
//
// Nothing else differs: the differential fuzzing found no other document
// (member names matched exactly and unknown ones refused at every depth,
// numbers, nulls, escaped lone surrogates read as U+FFFD, times parsed by
// time.Time.UnmarshalJSON in both).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/uuid"
)

// referenceEncode is encode as it was, without the size check:
// encoding/json's Encoder without HTML escaping, and without the newline.
func referenceEncode(e Event) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// referenceDecode is Decode as it was.
func referenceDecode(b []byte) (Event, error) {
	if len(b) > MaxSize {
		return Event{}, fmt.Errorf("%w: document is %d bytes, more than %d", ErrInvalidEvent, len(b), MaxSize)
	}
	e, err := refParseEnvelope(b)
	if err != nil {
		return Event{}, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	if err := e.refValidate(); err != nil {
		return Event{}, fmt.Errorf("%w: %w", ErrInvalidEvent, err)
	}
	return e, nil
}

// refDecodeStrict is decodeStrict as it was.
func refDecodeStrict(data []byte, v any) error {
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

// refEnvelopeAttrs reports whether an attribute is required and whether it is known.
func refEnvelopeAttrs(name string) (required, known bool) {
	switch name {
	case "specversion", "id", "source", "type", "subject", "time", "datacontenttype", "campaign", "data":
		return true, true
	case "session", "actor", "causationid", "requestid", "command": // requestid: added with request ids; command: with the catalogue
		return false, true
	}
	return false, false
}

// refParseEnvelope reads the top-level object attribute by attribute, so that
// attribute names match exactly (encoding/json alone matches them without
// regard to case) and none is repeated.
func refParseEnvelope(b []byte) (Event, error) {
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
		if _, known := refEnvelopeAttrs(name); !known {
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
		if err := refSetAttr(&e, name, raw); err != nil {
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

func refSetAttr(e *Event, name string, raw json.RawMessage) error {
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
	case "requestid":
		e.RequestID = s
	case "command":
		e.Command = s
	}
	return nil
}

func (e Event) refValidate() error {
	if e.SpecVersion != SpecVersion {
		return fmt.Errorf("specversion %q, want %q", e.SpecVersion, SpecVersion)
	}
	if err := refValidUUID(e.ID); err != nil {
		return fmt.Errorf("id: %w", err)
	}
	if err := ValidID(e.Campaign); err != nil {
		return fmt.Errorf("campaign: %w", err)
	}
	if want := "/campaigns/" + e.Campaign; e.Source != want {
		return fmt.Errorf("source %q, want %q", e.Source, want)
	}
	_, _, err := e.aggregate()
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
		if err := refValidUUID(e.CausationID); err != nil {
			return fmt.Errorf("causationid: %w", err)
		}
	}
	if e.RequestID != "" {
		if err := ValidRequestID(e.RequestID); err != nil {
			return fmt.Errorf("requestid: %w", err)
		}
	}
	if e.Command != "" {
		if err := ValidCommand(e.Command); err != nil {
			return fmt.Errorf("command: %w", err)
		}
	}
	v, ok := dataFor(e.Type)
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownType, e.Type)
	}
	if len(e.Data) == 0 || e.Data[0] != '{' {
		return errors.New("data is not a JSON object")
	}
	if err := refDecodeStrict(e.Data, v); err != nil {
		return fmt.Errorf("data of %s: %w", e.Type, err)
	}
	if err := refExactKeys(e.Data, reflect.TypeOf(v)); err != nil {
		return fmt.Errorf("data of %s: %w", e.Type, err)
	}
	if e.StreamSubject != "" {
		return e.checkStreamSubject()
	}
	return nil
}

// refExactKeys checks that every object key in data names a field of t exactly
// (encoding/json matches field names without regard to case, so that
// "Nonce" would otherwise pass for "nonce").
func refExactKeys(data []byte, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(refUnmarshalerType) {
		return nil // its own rules
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
			return nil // null, or shape errors already reported by decodeStrict
		}
		fields := refJSONFields(t)
		for k, v := range obj {
			ft, ok := fields[k]
			if !ok {
				return fmt.Errorf("unknown field %q", k)
			}
			if err := refExactKeys(v, ft); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
	case reflect.Slice, reflect.Array:
		var arr []json.RawMessage
		if err := json.Unmarshal(data, &arr); err != nil {
			return nil
		}
		for i, v := range arr {
			if err := refExactKeys(v, t.Elem()); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
	case reflect.Map:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil
		}
		for k, v := range obj {
			if err := refExactKeys(v, t.Elem()); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
	}
	return nil
}

// refValidUUID is validUUID as it was.
func refValidUUID(s string) error {
	u, err := uuid.Parse(s)
	if err != nil || u.String() != s || u == uuid.Nil || u == uuid.Max {
		return fmt.Errorf("%q is not a canonical uuid", s)
	}
	return nil
}

var refUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// refJSONFields maps the JSON names of t's exported fields (including promoted
// fields of embedded structs) to their types.
func refJSONFields(t reflect.Type) map[string]reflect.Type {
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

// referenceAgrees reports how Decode and referenceDecode disagree on doc,
// or "" when they agree: the same verdict (the reference also refusing
// invalid UTF-8) and, when both accept, the same event. The one allowed
// difference is a document whose data repeats a member name: the
// reference accepts it, Decode refuses it for that reason.
func referenceAgrees(doc []byte) string {
	got, err := Decode(doc)
	want, refErr := referenceDecode(doc)
	if refErr == nil && !utf8.Valid(doc) {
		refErr = errors.New("not valid UTF-8")
	}
	if refErr == nil && err != nil && repeatsName(want.Data) {
		if !errors.Is(err, jsontext.ErrDuplicateName) || !errors.Is(err, ErrInvalidEvent) {
			return fmt.Sprintf("data repeats a name, but Decode error %v is not about that", err)
		}
		return ""
	}
	if (err == nil) != (refErr == nil) {
		return fmt.Sprintf("Decode error %v, reference error %v", err, refErr)
	}
	if err != nil {
		return ""
	}
	// The data Decode decoded while validating is what Payload gives.
	kept := got.decoded.of(got)
	got.decoded = nil
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("Decode = %+v, reference = %+v", got, want)
	}
	if v, perr := want.Payload(); perr != nil || kept == nil || !reflect.DeepEqual(kept, v) {
		return fmt.Sprintf("Decode kept data %+v, Payload of the reference gives %+v (%v)", kept, v, perr)
	}
	return ""
}

// repeatsName reports whether an object anywhere in the JSON value data
// has two members of the same name, as encoding/json unescapes names.
func repeatsName(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 {
		return false
	}
	switch data[0] {
	case '{':
		var members []struct {
			name  string
			value json.RawMessage
		}
		d := json.NewDecoder(bytes.NewReader(data))
		if _, err := d.Token(); err != nil {
			return false
		}
		for d.More() {
			tok, err := d.Token()
			name, _ := tok.(string)
			var value json.RawMessage
			if err != nil || d.Decode(&value) != nil {
				return false
			}
			members = append(members, struct {
				name  string
				value json.RawMessage
			}{name, value})
		}
		seen := map[string]bool{}
		for _, m := range members {
			if seen[m.name] || repeatsName(m.value) {
				return true
			}
			seen[m.name] = true
		}
	case '[':
		var elems []json.RawMessage
		if json.Unmarshal(data, &elems) != nil {
			return false
		}
		for _, e := range elems {
			if repeatsName(e) {
				return true
			}
		}
	}
	return false
}

// referenceSeeds are documents that reach every branch of the codec.
func referenceSeeds(t testing.TB) [][]byte {
	valid := `{"specversion":"1.0","id":"0195952e-6d7f-7000-8000-000000000001","source":"/campaigns/mordor",` +
		`"type":"journal.roll.made.v1","subject":"characters/lodin","time":"2025-03-14T15:09:26.5Z",` +
		`"datacontenttype":"application/json","campaign":"mordor","session":"s1","actor":"gm","causationid":"",` +
		`"data":{"system":"ryf","kind":"skill","character":"lodin","level_reasons":["spec"],"difficulty":10,` +
		`"dice":"1o3d10","nonce":3,"entropy":"","faces":[3,7,9],"kept":[7],"total":19,"outcome":"success"}}`
	char := `{"specversion":"1.0","id":"0195952e-6d7f-7000-8000-000000000002","source":"/campaigns/mordor",` +
		`"type":"journal.character.created.v1","subject":"characters/lodin","time":"2025-03-14T15:09:26Z",` +
		`"datacontenttype":"application/json","campaign":"mordor",` +
		`"data":{"name":"Lodin","player":"Ana","attributes":{"F":8},"skills":{"Pelea":5},"max_hp":20}}`
	edits := []struct{ from, to string }{
		{"", ""},
		{`"nonce":3`, `"Nonce":3`},
		{`"nonce":3`, `"n\u006fnce":3`},
		{`"specversion"`, `"sp\u0065cversion"`},
		{`"actor":"gm"`, `"actor":"g\u00e9m"`},
		{`"actor":"gm"`, `"actor":"g\nm"`},
		{`"actor":"gm"`, "\"actor\":\"g\xffm\""},
		{`"entropy":""`, `"entropy":"\ud800"`},
		{`"faces":[3,7,9]`, `"faces":[3,7,9.5]`},
		{`"faces":[3,7,9]`, `"faces":null`},
		{`"difficulty":10`, `"difficulty":null`},
		{`"level_reasons":["spec"]`, `"level_reasons":[{"a":1}]`},
		{`"time":"2025-03-14T15:09:26.5Z"`, `"time":"2025-03-14T15:09:26.5\u005a"`},
		{`"campaign":"mordor"`, `"campaign":"mordor","campaign":"mordor"`},
		{`{"specversion"`, ` { "specversion"`},
		{`"outcome":"success"}}`, `"outcome":"success"} } `},
		{`"outcome":"success"}}`, `"outcome":"success"}}x`},
		{`"subject":"characters/lodin"`, `"subject":"characters/lo.din"`},
		{`"subject":"characters/lodin"`, `"subject":"characters/>"`},
		{`"session":"s1"`, `"session":"s*"`},
		{`"nonce":3`, `"nonce":3,"nonce":4`},
		{`"nonce":3`, `"nonce":3,"n\u006fnce":4`},
		{`"kept":[7]`, `"kept":[7],"faces":[1]`},
		{`"attributes":{"F":8}`, `"attributes":{"F":8,"F":9}`},
		{`"attributes":{"F":8}`, `"attributes":{"F":null,"G":1}`},
		{`"attributes":{"F":8}`, `"attributes":{}`},
		{`"faces":[3,7,9]`, `"faces":[]`},
		{`"faces":[3,7,9]`, `"faces":[3,null,-0]`},
		{`"nonce":3`, `"nonce":-0`},
		{`"nonce":3`, `"nonce":1e2`},
		{`"nonce":3`, `"nonce":18446744073709551615`},
		{`"total":19`, `"total":19.0`},
		{`"entropy":""`, `"entropy":"\ud800\u0041\udc00x\ud83c\udfb2\ud800"`},
		{`"actor":"gm"`, `"actor":"\ud83c\udfb2\udc00"`},
		{`"time":"2025-03-14T15:09:26.5Z"`, `"time":"2025-03-14T15:09:26.5+01:00"`},
		{`"time":"2025-03-14T15:09:26.5Z"`, `"time":"2025-03-14 15:09:26.5Z"`},
		{`"time":"2025-03-14T15:09:26.5Z"`, `"time":"2025-03-14T15:09:26,5Z"`},
		{`"time":"2025-03-14T15:09:26.5Z"`, `"time":"2025-03-14T25:09:26.5Z"`},
		{`"time":"2025-03-14T15:09:26.5Z"`, `"time":null`},
		{`"data":{`, `"data" : { `},
		{`"data":{`, `"data":{"system":"ryf",`},
	}
	var out [][]byte
	for _, doc := range []string{valid, char} {
		for _, ed := range edits {
			out = append(out, []byte(strings.Replace(doc, ed.from, ed.to, 1)))
		}
	}
	for _, doc := range []string{
		char[:len(char)-1] + `,"x":{"attributes":{"F":{"G":1}}}}`,
		strings.Replace(char, `"attributes":{"F":8}`, `"attributes":{"F":8,"f":9}`, 1),
		strings.Replace(char, `"attributes":{"F":8}`, `"attributes":{"F":{"x":1}}`, 1),
		`{}`, `null`, `[]`, `"x"`, `{"data":{}}`, ``, `{`, `{"specversion":"1.0",}`,
	} {
		out = append(out, []byte(doc))
	}
	return out
}

func TestDecodeMatchesReference(t *testing.T) {
	for i, doc := range referenceSeeds(t) {
		if msg := referenceAgrees(doc); msg != "" {
			t.Errorf("seed %d %q: %s", i, doc, msg)
		}
	}
}

// FuzzDecodeMatchesReference checks that the faster codec accepts exactly
// what the codec before it accepted (plus the UTF-8 rule), and decodes the
// same event:
//
//	go test -run '^$' -fuzz FuzzDecodeMatchesReference -fuzztime 60s ./events/
func FuzzDecodeMatchesReference(f *testing.F) {
	fuzzDocuments(f, referenceSeeds(f), referenceAgrees)
}

// fuzzDocuments fuzzes documents grown from seeds, failing on the first
// one on which agrees reports a disagreement.
func fuzzDocuments(f *testing.F, seeds [][]byte, agrees func(doc []byte) string) {
	for _, doc := range seeds {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if msg := agrees(doc); msg != "" {
			t.Fatal(msg)
		}
	})
}

// BenchmarkDecodeReference decodes with the codec as it was, for a
// comparison in the same run with BenchmarkDecode/roll:
//
//	go test -run '^$' -bench 'Decode' -benchmem ./events/
func BenchmarkDecodeReference(b *testing.B) {
	doc := []byte(referenceSeeds(b)[0])
	if _, err := referenceDecode(doc); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := referenceDecode(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSeed decodes the same document with the codec.
func BenchmarkDecodeSeed(b *testing.B) {
	doc := []byte(referenceSeeds(b)[0])
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(doc); err != nil {
			b.Fatal(err)
		}
	}
}
