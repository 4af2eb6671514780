package events

// The encoder writes, byte for byte, what encoding/json's Encoder without
// HTML escaping wrote for the Event struct (referenceEncode):
// TestEncodeMatchesReference goes through every registered type with
// strings that need escaping, FuzzEncodeMatchesReference through arbitrary
// strings, times and data layouts. Both also check that what Prepare
// writes for an event made by New is that encoding, and that Decode reads
// it back as the same event.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// trickyStrings need escaping, are not ASCII, or are not valid UTF-8.
var trickyStrings = []string{
	"", "plain", `say "hi"`, `back\slash`, "\x00\x01\x1f", "\b\f\n\r\t", "\x7f", "line\u2028para\u2029",
	"ünïcødé 日本 🎲", "\xff\xfeinvalid\xc3", "<&>", `\u2028 \ufffd`, "\ufffd", "/slash", `"\"\\`, "tab\there",
}

// trickyTimes include times with an offset, nanoseconds, year 1, and the
// years and offsets time.Time.MarshalJSON refuses.
var trickyTimes = []time.Time{
	time.Date(2025, 3, 14, 15, 9, 26, 535897000, time.UTC),
	time.Date(2025, 3, 14, 15, 9, 26, 0, time.FixedZone("", 5*3600+30*60)),
	time.Date(1, 1, 1, 0, 0, 0, 1, time.FixedZone("", -90)),
	time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
	time.Date(2025, 3, 14, 0, 0, 0, 0, time.FixedZone("", 24*3600)),
}

// filled returns a value of the struct registered for typ with every
// field set: strings to s, numbers to n, booleans to whether n is odd,
// slices and maps to one such element (keyed s), pointers to such values.
func filled(t testing.TB, typ string, s string, n int) any {
	v, ok := dataFor(typ)
	if !ok {
		t.Fatalf("%s is not registered", typ)
	}
	fill(reflect.ValueOf(v).Elem(), s, n)
	return v
}

func fill(v reflect.Value, s string, n int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(n))
	case reflect.Uint64:
		v.SetUint(uint64(n))
	case reflect.Bool:
		v.SetBool(n%2 != 0)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), s, n)
		v.Set(p)
	case reflect.Slice:
		sl := reflect.MakeSlice(v.Type(), 1, 1)
		fill(sl.Index(0), s, n)
		v.Set(sl)
	case reflect.Map:
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, s, n)
		fill(e, s, n)
		m := reflect.MakeMap(v.Type())
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), s, n)
			}
		}
	}
}

// everyAttr returns an event (not a valid one) with s in every string
// attribute.
func everyAttr(s, typ string, data []byte, at time.Time) Event {
	return Event{SpecVersion: s, ID: s, Source: "/campaigns/" + s, Type: typ, Subject: "characters/" + s, Time: at,
		DataContentType: s, Campaign: s, Session: s, Actor: s, CausationID: s, RequestID: s, Command: s, Data: data}
}

// spread returns data with whitespace between every token, as json.Indent
// writes it.
func spread(t testing.TB, data []byte, indent string) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, data, " \r\n", indent); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// encodeAgrees reports how appendEvent and referenceEncode disagree on e
// (valid JSON data), or "" when they write the same bytes or both fail.
func encodeAgrees(e Event) string {
	got, err := appendEvent(nil, e)
	want, refErr := referenceEncode(e)
	if (err == nil) != (refErr == nil) {
		return fmt.Sprintf("appendEvent error %v, reference error %v", err, refErr)
	}
	if err == nil && !bytes.Equal(got, want) {
		return fmt.Sprintf("appendEvent wrote\n%s\nreference wrote\n%s", got, want)
	}
	return ""
}

// appendAgrees makes an event of type typ with New (actor and data
// strings s, numbers n) and checks that New refuses it exactly when a
// string in the data is not valid UTF-8, and otherwise that Prepare writes
// its reference encoding and Decode reads that as the same event.
func appendAgrees(t testing.TB, typ, s string, n int) string {
	actor := "gm"
	if validActor(s) == nil {
		actor = s
	}
	ids := IDFunc(func() (string, error) { return "0195952e-6d7f-7000-8000-0000000000ee", nil })
	data := filled(t, typ, s, n)
	invalid := validUTF8(reflect.ValueOf(data), 0) != nil
	e, err := New(Spec{Campaign: "mordor", Kind: KindCharacter, AggregateID: "lodin", Name: "x", Type: typ,
		Actor: actor, Session: "s1", Data: data}, ids, trickyTimes[0])
	if (err != nil) != invalid {
		return fmt.Sprintf("New error %v, with a string not valid UTF-8 in the data: %v", err, invalid)
	}
	if err != nil {
		return ""
	}
	docs, err := Prepare(Expect{}, []Event{e})
	if err != nil {
		return fmt.Sprintf("Prepare: %v", err)
	}
	if want, err := referenceEncode(e); err != nil || !bytes.Equal(docs[0], want) {
		return fmt.Sprintf("Prepare wrote\n%s\nreference wrote\n%s (%v)", docs[0], want, err)
	}
	back, err := Decode(docs[0])
	if err != nil {
		return fmt.Sprintf("Decode of %s: %v", docs[0], err)
	}
	back.StreamSubject = e.StreamSubject
	if !reflect.DeepEqual(back, e) {
		return fmt.Sprintf("Decode = %+v, New made %+v", back, e)
	}
	return ""
}

func TestEncodeMatchesReference(t *testing.T) {
	for _, typ := range registeredTypes {
		for n, s := range trickyStrings {
			data, err := marshalData(filled(t, typ, s, n))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range [][]byte{data, spread(t, data, "\t"), spread(t, data, "  ")} {
				for _, at := range trickyTimes {
					if msg := encodeAgrees(everyAttr(s, typ, d, at)); msg != "" {
						t.Errorf("%s, %q: %s", typ, s, msg)
					}
				}
			}
			if msg := appendAgrees(t, typ, s, n); msg != "" {
				t.Errorf("%s, %q: %s", typ, s, msg)
			}
		}
	}
}

// FuzzEncodeMatchesReference checks that the encoder writes what
// encoding/json wrote, whatever the strings, time and data layout:
//
//	go test -run '^$' -fuzz FuzzEncodeMatchesReference -fuzztime 60s ./events/
func FuzzEncodeMatchesReference(f *testing.F) {
	for i := range registeredTypes { // every registered type, with each tricky string in turn
		n := i % len(trickyStrings)
		s := trickyStrings[n]
		f.Add(s, s+"x", uint8(i), n, int64(1741964966+n), int64(n*1000), int16(n*37), n%2 == 0)
	}
	f.Fuzz(func(t *testing.T, attr, dataStr string, typ uint8, n int, sec, nsec int64, offset int16, spaced bool) {
		eventType := registeredTypes[int(typ)%len(registeredTypes)]
		data, err := marshalData(filled(t, eventType, dataStr, n))
		if err != nil {
			t.Fatal(err)
		}
		if spaced {
			data = spread(t, data, " \t")
		}
		at := time.Unix(sec, nsec).In(time.FixedZone("", int(offset)*60))
		if msg := encodeAgrees(everyAttr(attr, eventType, data, at)); msg != "" {
			t.Fatal(msg)
		}
		if msg := appendAgrees(t, eventType, dataStr, n); msg != "" {
			t.Fatal(msg)
		}
	})
}
