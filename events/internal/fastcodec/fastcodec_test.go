package fastcodec

// Tests of the fast codec's parts on their own. That the fast path agrees
// with the general one, on every registered type and on fuzzed documents,
// is tested in package events (fastpath_test.go), where the general
// reader and the strict decoder are.

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// encodedTimes are times with an offset, nanoseconds and year 1.
var encodedTimes = []time.Time{
	time.Date(2025, 3, 14, 15, 9, 26, 535897000, time.UTC),
	time.Date(2025, 3, 14, 15, 9, 26, 0, time.FixedZone("", 5*3600+30*60)),
	time.Date(1, 1, 1, 0, 0, 0, 1, time.FixedZone("", -90)),
}

// TestSimpleStringEnd compares simpleStringEnd with a byte-by-byte
// reading, wherever the string ends or stops.
func TestSimpleStringEnd(t *testing.T) {
	naive := func(s string, i int) int {
		for ; i < len(s); i++ {
			switch c := s[i]; {
			case c == '"':
				return i
			case c < ' ' || c == '\\':
				return -1
			}
		}
		return -1
	}
	body := "abcdefghijklmnopqrstuvwxyzé日🎲\x7f\xff"
	for _, stop := range []string{`"`, `\`, "\x00", "\x1f", "\n", ""} {
		for n := range len(body) + 1 {
			for _, tail := range []string{"", `"`, "xxxxxxxxxxxxxxxx\""} {
				s := `"` + body[:n] + stop + tail
				if got, want := simpleStringEnd([]byte(s), 1), naive(s, 1); got != want {
					t.Errorf("simpleStringEnd(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
	for c := range 256 {
		s := fmt.Sprintf("%s%c%s\"", "0123456", byte(c), "89abcdef")
		if got, want := simpleStringEnd([]byte(s), 0), naive(s, 0); got != want {
			t.Errorf("byte %#x: simpleStringEnd = %d, want %d", c, got, want)
		}
	}
}

// TestUTCTime compares utcTime with time.Time.UnmarshalJSON: wherever
// utcTime reads a time, UnmarshalJSON reads the same; and utcTime reads
// the times the encoder writes for UTC.
func TestUTCTime(t *testing.T) {
	check := func(s string) bool {
		got, ok := utcTime([]byte(s))
		var want time.Time
		err := want.UnmarshalJSON([]byte(`"` + s + `"`))
		if ok && (err != nil || !reflect.DeepEqual(got, want)) {
			t.Errorf("utcTime(%q) = %v, UnmarshalJSON = %v, %v", s, got, want, err)
		}
		return ok
	}
	for _, y := range []int{0, 1, 4, 100, 1900, 2000, 2024, 2025, 9999} {
		for m := 0; m <= 13; m++ {
			for _, d := range []int{0, 1, 28, 29, 30, 31, 32} {
				check(fmt.Sprintf("%04d-%02d-%02dT12:30:45Z", y, m, d))
			}
		}
	}
	for _, hms := range []string{"00:00:00", "23:59:59", "24:00:00", "23:60:00", "23:59:60", "1:00:00", "aa:00:00"} {
		check("2025-03-14T" + hms + "Z")
	}
	base := "2025-03-14T15:09:26.535897Z"
	for _, s := range []string{base, "2025-03-14T15:09:26Z", "2025-03-14T15:09:26.Z", "2025-03-14T15:09:26.5Z",
		"2025-03-14T15:09:26.123456789Z", "2025-03-14T15:09:26.1234567890Z", "2025-03-14T15:09:26,5Z",
		"2025-03-14t15:09:26Z", "2025-03-14T15:09:26z", "2025-03-14T15:09:26+00:00", "2025-03-14T15:09:26.5+01:00",
		"", "Z", "2025-03-14T15:09:26.-5Z", "+025-03-14T15:09:26Z", "2025-03-14T15:09:26.5ZZ"} {
		check(s)
	}
	for i := range len(base) {
		for c := byte(' '); c <= '~'; c++ {
			check(base[:i] + string(c) + base[i+1:])
		}
	}
	for _, at := range append(encodedTimes, testTimes()...) {
		if s, err := at.UTC().MarshalText(); err == nil && !check(string(s)) {
			t.Errorf("utcTime gave up on %s, which the encoder writes", s)
		}
	}
}

// testTimes returns times with every length of fraction.
func testTimes() []time.Time {
	var out []time.Time
	for ns := 1; ns < 1e9; ns *= 10 {
		out = append(out, time.Date(2024, 2, 29, 23, 59, 59, ns, time.UTC), time.Date(2024, 2, 29, 23, 59, 59, ns*7, time.UTC))
	}
	return out
}

// flat is a struct of every kind of field the fast path decodes.
type flat struct {
	S  string   `json:"s"`
	N  int      `json:"n,omitempty"`
	U  uint64   `json:"u"`
	B  bool     `json:"b"`
	P  *int     `json:"p,omitempty"`
	Is []int    `json:"is"`
	Ss []string `json:"ss"`
}

// flatPointer is flat's field table, as the generator writes it;
// stalePointer is a table of an older flat, without N.
func flatPointer(p any, j int) any {
	v := p.(*flat)
	switch j {
	case 0:
		return &v.S
	case 1:
		return &v.N
	case 2:
		return &v.U
	case 3:
		return &v.B
	case 4:
		return &v.P
	case 5:
		return &v.Is
	case 6:
		return &v.Ss
	}
	return nil
}

func stalePointer(p any, j int) any {
	if j >= 1 {
		j++
	}
	return flatPointer(p, j)
}

// TestStructOfChecksTheTable: a field table is kept only when it is the
// struct's, so that a stale one never decodes a member into another
// field; with or without it, the data decodes the same.
func TestStructOfChecksTheTable(t *testing.T) {
	typ := reflect.TypeFor[*flat]()
	newFlat := func() (any, []int) {
		p := new(struct {
			v    flat
			ints [8]int
		})
		return &p.v, p.ints[:]
	}
	tests := []struct {
		name   string
		fields Fields
		kept   bool
	}{
		{"none", Fields{}, true},
		{"generated", Fields{Pointer: flatPointer, New: newFlat}, true},
		{"stale", Fields{Pointer: stalePointer, New: newFlat}, false},
		{"one past the last", Fields{Pointer: func(p any, j int) any { return flatPointer(p, min(j, 6)) }}, false},
		{"new of another type", Fields{Pointer: flatPointer, New: func() (any, []int) { return new(int), nil }}, false},
	}
	data := []byte(`{"s":"x","n":-3,"u":18446744073709551615,"b":true,"p":0,"is":[1,2],"ss":["a",""]}`)
	zero := 0
	want := flat{S: "x", N: -3, U: 1<<64 - 1, B: true, P: &zero, Is: []int{1, 2}, Ss: []string{"a", ""}}
	for _, tt := range tests {
		fs := StructOf(typ, tt.fields)
		if fs == nil {
			t.Fatalf("%s: flat is not fast", tt.name)
		}
		if kept := fs.Fields().Pointer != nil || tt.fields.Pointer == nil; kept != tt.kept {
			t.Errorf("%s: table kept: %v", tt.name, kept)
		}
		var got flat
		if !DecodeData(data, &got, fs) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded %+v, want %+v", tt.name, got, want)
		}
	}
	if StructOf(reflect.TypeFor[*struct{ M map[string]int }](), Fields{}) != nil {
		t.Error("a struct with a map is fast")
	}
}
