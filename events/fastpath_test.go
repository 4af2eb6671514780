package events

// The fast paths (readFast, decodeFast) against the general ones
// (readGeneral, decodeStrictly): wherever a fast path handles an input, the
// general path accepts it too and gives the same result
// (TestFastDataMatchesStrict, FuzzFastDataMatchesStrict,
// TestFastReadMatchesGeneral, FuzzFastReadMatchesGeneral); and the fast
// paths do handle what the journal writes (TestFastPathHandlesJournalDocuments).

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/campaign-journal/journal/events/internal/fastcodec"
)

// notFast are the registered types whose data the fast path never decodes
// (their structs hold maps or nested structs).
var notFast = map[string]bool{TypeCharacterCreated: true, TypeCombatStarted: true, TypeTORCharacterCreated: true,
	TypeTORFellowshipPhase: true, TypeRollProved: true}

// fastNumbers are the numbers filled into the data of the seeds: zero
// (left out where omitempty), small, negative, and the ends of the ranges.
var fastNumbers = []int{0, 1, 7, -1, -10, 1 << 53, math.MaxInt64, math.MinInt64}

// dataAgrees reports how decodeFast and decodeStrictly disagree on data
// (valid UTF-8) for type typ, or "": where decodeFast handles data,
// decodeStrictly accepts it and decodes the same value; where it does not,
// it leaves its value zero.
func dataAgrees(typ string, data []byte) string {
	if !utf8.Valid(data) {
		return ""
	}
	fast, _ := dataFor(typ)
	if !decodeFast(typ, data, fast) {
		if !reflect.ValueOf(fast).Elem().IsZero() {
			return fmt.Sprintf("decodeFast gave up on %s but left %+v", data, fast)
		}
		return ""
	}
	strict, _ := dataFor(typ)
	if err := decodeStrictly(data, strict); err != nil {
		return fmt.Sprintf("decodeFast decoded %s, which decodeStrictly refuses: %v", data, err)
	}
	if !reflect.DeepEqual(fast, strict) {
		return fmt.Sprintf("decodeFast decoded %s as %#v, decodeStrictly as %#v", data, fast, strict)
	}
	return ""
}

// readAgrees reports how readFast and readGeneral disagree on doc (valid
// UTF-8), or "": where readFast handles doc, readGeneral accepts it and
// reads the same event and data.
func readAgrees(doc []byte) string {
	if !utf8.Valid(doc) {
		return ""
	}
	fast, fastData, ok := readFast(doc, false)
	if !ok {
		return ""
	}
	general, generalData, err := readGeneral(doc)
	if err == nil && generalData == nil {
		generalData, err = general.checkData(nil)
	}
	if err != nil {
		return fmt.Sprintf("readFast read %s, which readGeneral refuses: %v", doc, err)
	}
	if !reflect.DeepEqual(fast, general) || !reflect.DeepEqual(fastData, generalData) {
		return fmt.Sprintf("readFast read %s as %#v with %#v, readGeneral as %#v with %#v", doc, fast, fastData,
			general, generalData)
	}
	return ""
}

// fastDataSeeds returns the data of every registered type, filled with
// each tricky string and number, as New would write it, keyed by type.
func fastDataSeeds(t testing.TB) map[string][][]byte {
	seeds := map[string][][]byte{}
	for _, typ := range registeredTypes {
		for i, s := range trickyStrings {
			for _, n := range []int{i, fastNumbers[i%len(fastNumbers)]} {
				data, err := marshalData(filled(t, typ, s, n))
				if err != nil {
					t.Fatal(err)
				}
				seeds[typ] = append(seeds[typ], data)
			}
		}
	}
	return seeds
}

// dataEdits are changes to data that move it out of the fast path's
// subset or into its corners: other numbers, null, whitespace, escapes,
// names in other forms, repeated or unknown members, empty arrays.
var dataEdits = []struct{ from, to string }{
	{`":1`, `":-0`}, {`":1`, `":01`}, {`":1`, `":1.0`}, {`":1`, `":1e2`}, {`":1`, `":1E+2`}, {`":1`, `":-`},
	{`":1`, `":null`}, {`":1`, `": 1`}, {`":1`, `":"1"`}, {`":1`, `":true`}, {`":1`, `":18446744073709551615`},
	{`":1`, `":18446744073709551616`}, {`":1`, `":9223372036854775808`}, {`":1`, `":-9223372036854775808`},
	{`":1`, `":-9223372036854775809`}, {`":1`, `":99999999999999999999`}, {`":1`, `":1,"x":1`},
	{`":true`, `":false`}, {`":true`, `":null`}, {`":true`, `":tru`}, {`":true`, `":1`},
	{`":"`, `":null,"x":"`}, {`":"`, `" :"`}, {`":"`, `":"\u0041`}, {`":"`, `":"\n`}, {`":"`, "\":\"\x7f"},
	{`":"`, `":["`}, {`":"`, `":{"a":"`},
	{`":[`, `":[]`}, {`":[`, `":[],"x":[`}, {`":[`, `":[ `}, {`":[`, `":null`}, {`":[`, `":[null,`},
	{`":[`, `":[[],`}, {`],`, `,],`}, {`[`, `[,`},
	{`{"`, `{"\u0061`}, {`{"`, `{ "`}, {`{"`, `{"A`}, {`{"`, `{"x":1,"`}, {`{"`, `{"":1,"`},
	{`,"`, `,"a`}, {`,"`, `, "`}, {`,"`, `,,"`},
	{`}`, `} `}, {`}`, `}}`}, {`}`, `,}`}, {`}`, `}x`}, {`{`, ` {`}, {`{`, `[{`},
}

// editsOf returns data with each of dataEdits made at each place it can
// be, and with the first member repeated.
func editsOf(data []byte) [][]byte {
	var out [][]byte
	s := string(data)
	for _, ed := range dataEdits {
		for i := 0; ; {
			k := strings.Index(s[i:], ed.from)
			if k < 0 {
				break
			}
			out = append(out, []byte(s[:i+k]+ed.to+s[i+k+len(ed.from):]))
			i += k + 1
		}
	}
	if first, _, ok := strings.Cut(strings.TrimPrefix(s, "{"), `,"`); ok {
		out = append(out, []byte("{"+first+","+s[1:]))
	}
	return out
}

func TestFastDataMatchesStrict(t *testing.T) {
	for typ, seeds := range fastDataSeeds(t) {
		for _, data := range seeds {
			for _, d := range append([][]byte{data}, editsOf(data)...) {
				if msg := dataAgrees(typ, d); msg != "" {
					t.Errorf("%s: %s", typ, msg)
				}
			}
		}
	}
}

// FuzzFastDataMatchesStrict checks that the fast data decoder decodes what
// decodeStrictly decodes, wherever it does not give up:
//
//	go test -run '^$' -fuzz FuzzFastDataMatchesStrict -fuzztime 60s ./events/
func FuzzFastDataMatchesStrict(f *testing.F) {
	seeds := fastDataSeeds(f)
	for i, typ := range registeredTypes {
		for _, data := range seeds[typ][:4] {
			f.Add(uint8(i), data)
			edits := editsOf(data)
			for _, d := range edits[:min(8, len(edits))] {
				f.Add(uint8(i), d)
			}
		}
	}
	f.Fuzz(func(t *testing.T, typ uint8, data []byte) {
		if msg := dataAgrees(registeredTypes[int(typ)%len(registeredTypes)], data); msg != "" {
			t.Fatal(msg)
		}
	})
}

// fastDocSeeds returns documents of every registered type with tricky
// strings in every attribute (valid or not: readFast and readGeneral read
// before validation) and in the data, and the reference seeds.
func fastDocSeeds(t testing.TB) [][]byte {
	var out [][]byte
	seeds := fastDataSeeds(t)
	for _, typ := range registeredTypes {
		for i, data := range seeds[typ] {
			e := everyAttr(trickyStrings[i/2], typ, data, trickyTimes[i%len(trickyTimes)])
			if i%4 != 0 {
				e.SpecVersion, e.DataContentType = SpecVersion, ContentType
			}
			if doc, err := appendEvent(nil, e); err == nil {
				out = append(out, doc)
			}
		}
	}
	return append(out, referenceSeeds(t)...)
}

// docEdits are changes to a document that move it out of the fast
// path's subset: whitespace, escapes, attributes left out, reordered,
// repeated or unknown, values that are not strings, data not an object.
var docEdits = []struct{ from, to string }{
	{`{"specversion"`, ` {"specversion"`}, {`{"specversion"`, `{ "specversion"`}, {`"id":"`, `"id": "`},
	{`"id":"`, `"id":"\u0030`}, {`"source":"`, `"source":"\/`}, {`"actor":"`, `"actor":"\t`},
	{`,"session":""`, ``}, {`"session"`, `"Session"`}, {`"type"`, `"typ\u0065"`},
	{`"campaign":"`, `"campaign":"x","campaign":"`}, {`"causationid":"`, `"x":"","causationid":"`},
	{`"causationid":""`, `"causationid":null`}, {`"actor":"gm"`, `"actor":7`},
	{`"time":"`, `"time":"x`}, {`"time":"2`, `"time":"\u0032`}, {`"time":"`, `"time": "`},
	{`"data":{`, `"data": {`}, {`"data":{`, `"data":null,"x":{`}, {`"data":{`, `"data":[{`},
	{`"data":{`, `"data":{"a":{}},"data":{`}, {`"data":{`, `"data":{}, "x":{`},
	{`}}`, `} }`}, {`}}`, `}}}`}, {`}}`, `}} `}, {`}}`, "}}\n"}, {`}}`, `}`},
	{`"type":"journal.`, `"type":"journal.x`},
	{`,"requestid":"`, `,"requestid": "`}, {`,"requestid":"`, `,"requestid":"\u0030`},
	{`,"requestid":"`, `,"requestid":7,"x":"`}, {`,"requestid":"`, `,"requestid":"","requestid":"`},
	{`,"command":"`, `,"command": "`}, {`,"command":"`, `,"command":"\u0061`},
	{`,"command":"`, `,"command":7,"x":"`}, {`,"command":"`, `,"command":"","command":"`},
}

func TestFastReadMatchesGeneral(t *testing.T) {
	for _, doc := range fastDocSeeds(t) {
		docs := [][]byte{doc}
		for _, ed := range docEdits {
			docs = append(docs, bytes.Replace(doc, []byte(ed.from), []byte(ed.to), 1))
		}
		if envelope, data, ok := bytes.Cut(doc, []byte(`"data":`)); ok {
			for _, d := range editsOf(data[:len(data)-1]) {
				docs = append(docs, append(append(bytes.Clone(envelope), `"data":`...), append(d, '}')...))
			}
		}
		for _, d := range docs {
			if msg := readAgrees(d); msg != "" {
				t.Error(msg)
			}
		}
	}
}

// FuzzFastReadMatchesGeneral checks that the fast document reader reads
// what the general one reads, wherever it does not give up:
//
//	go test -run '^$' -fuzz FuzzFastReadMatchesGeneral -fuzztime 60s ./events/
func FuzzFastReadMatchesGeneral(f *testing.F) {
	fuzzDocuments(f, fastDocSeeds(f), readAgrees)
}

// TestFastPathHandlesJournalDocuments: what New and Encode write for the
// data of every type but notFast's (with strings that need no escapes) is
// decoded the fast way, data and document alike; and the commonest event,
// a roll, always.
func TestFastPathHandlesJournalDocuments(t *testing.T) {
	ids := IDFunc(func() (string, error) { return "0195952e-6d7f-7000-8000-0000000000ee", nil })
	ten := 10
	roll := RollMade{System: "ryf", Kind: "skill", Character: "lodin", Skill: "Sigilo", Attribute: "D",
		AttributeValue: 9, Rank: 3, Base: 12, Level: "normal", LevelReasons: []string{"specialization"},
		Difficulty: &ten, DifficultyName: "fácil", Specialization: true, Dice: "1o3d10",
		Nonce: 41, Entropy: "my own words 🎲", Faces: []int{3, 7, 9}, Kept: []int{7}, Total: 19, Outcome: "success"}
	specs := []Spec{{Type: TypeRollMade, Data: roll}, {Type: TypeRollMade, Data: &roll}}
	for _, typ := range registeredTypes {
		for i, s := range trickyStrings {
			if !notFast[typ] && utf8.ValidString(s) && !strings.ContainsFunc(s, needsEscape) {
				specs = append(specs, Spec{Type: typ, Data: clearOpaque(filled(t, typ, s, fastNumbers[i%len(fastNumbers)]))})
			}
		}
	}
	for _, s := range specs {
		s.Campaign, s.Kind, s.AggregateID, s.Name, s.Session, s.Actor = "mordor", KindCharacter, "lodin", "x", "s1", "gm"
		e, err := New(s, ids, time.Date(2025, 3, 14, 15, 9, 26, 535897000, time.UTC))
		if err != nil {
			t.Fatalf("New(%+v): %v", s.Data, err)
		}
		v, _ := dataFor(s.Type)
		if !decodeFast(s.Type, e.Data, v) {
			t.Errorf("decodeFast gave up on %s", e.Data)
		}
		doc, err := Encode(e)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := readFast(doc, false); !ok {
			t.Errorf("readFast gave up on %s", doc)
		}
	}
}

// needsEscape reports whether encoding/json escapes r in a string.
func needsEscape(r rune) bool {
	return r < ' ' || r == '"' || r == '\\' || r == '\u2028' || r == '\u2029'
}

// TestFastStructs: the fast path decodes every registered type but
// notFast's, and reaches the fields of each without reflection: its
// generated table (fastfields.go, the generator's rule agreeing with
// fastcodec.StructOf's) gives field j at Pointer(j), and New, for a
// struct with int slices or pointers only, a zero value with room for
// ints.
func TestFastStructs(t *testing.T) {
	for _, info := range registry {
		v := info.NewData()
		pt := reflect.TypeOf(v)
		fields, generated := fastFields[pt]
		if fast := info.fast != nil; fast == notFast[info.Type] || generated != fast ||
			(fastcodec.StructOf(pt, fastcodec.Fields{}) != nil) != fast {
			t.Errorf("%s: the fast path decodes it: %v, it has a generated table: %v", info.Type, fast, generated)
			continue
		}
		if !generated {
			continue
		}
		if info.fast.Fields().Pointer == nil {
			t.Errorf("%s: the registry's fast struct has no field table", info.Type)
		}
		rv := reflect.ValueOf(v).Elem()
		hasInts := false
		for j := range rv.NumField() {
			p := reflect.ValueOf(fields.Pointer(v, j))
			if want := rv.Field(j).Addr(); !p.IsValid() || p.Type() != want.Type() || p.Pointer() != want.Pointer() {
				t.Errorf("%T: Pointer(%d) is not a pointer to field %s", v, j, rv.Type().Field(j).Name)
			}
			k := rv.Field(j).Kind()
			hasInts = hasInts || k == reflect.Pointer || k == reflect.Slice && rv.Field(j).Type().Elem().Kind() == reflect.Int
		}
		if p := fields.Pointer(v, rv.NumField()); p != nil {
			t.Errorf("%T: Pointer past the last field = %v", v, p)
		}
		if (fields.New != nil) != hasInts {
			t.Errorf("%T: New is set: %v, the struct has int slices or pointers: %v", v, fields.New != nil, hasInts)
		}
		if fields.New != nil {
			nv, ints := fields.New()
			if reflect.TypeOf(nv) != pt || !reflect.ValueOf(nv).Elem().IsZero() || len(ints) == 0 {
				t.Errorf("%T: New() = %#v with %d ints", v, nv, len(ints))
			}
		}
	}
}

// TestFastTypeIndex: the generated switch finds every registered type at
// its place in the registry, and no other type.
func TestFastTypeIndex(t *testing.T) {
	for i, info := range registry {
		if got := fastTypeIndex(info.Type); got != i {
			t.Errorf("fastTypeIndex(%s) = %d, want %d", info.Type, got, i)
		}
	}
	for _, typ := range []string{"", "journal.nothing.v1", TypeRollMade + "x", strings.ToUpper(TypeRollMade)} {
		if got := fastTypeIndex(typ); got != -1 {
			t.Errorf("fastTypeIndex(%q) = %d", typ, got)
		}
	}
}

// decodeFast is fastcodec.DecodeData with the registry's fast struct of
// typ.
func decodeFast(typ string, data []byte, v any) bool {
	return fastcodec.DecodeData(data, v, byType[typ].fast)
}

// TestCanonicalUUID compares canonicalUUID with a byte-by-byte reading of
// the canonical form, on every byte value at every place of a UUID.
func TestCanonicalUUID(t *testing.T) {
	naive := func(s string) bool {
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
	for _, base := range []string{"0195952e-6d7f-7000-8000-000000000001", "00000000-0000-0000-0000-000000000000",
		"ffffffff-ffff-ffff-ffff-ffffffffffff", "abcdef01-2345-6789-abcd-ef0123456789"} {
		for i := range len(base) {
			for c := range 256 {
				s := base[:i] + string([]byte{byte(c)}) + base[i+1:]
				if got, want := canonicalUUID(s), naive(s); got != want {
					t.Errorf("canonicalUUID(%q) = %v, want %v", s, got, want)
				}
			}
		}
		for _, s := range []string{base[1:], base + "0", strings.ToUpper(base), strings.ReplaceAll(base, "-", "_")} {
			if got, want := canonicalUUID(s), naive(s); got != want {
				t.Errorf("canonicalUUID(%q) = %v, want %v", s, got, want)
			}
		}
	}
}
