// Package fastcodec is the fast path of the events codec: a reader of the
// documents the journal itself writes (Document) and a decoder of the
// compact JSON that encoding/json writes for a flat data struct
// (DecodeData), both without reflection where a generated field table
// (Fields) reaches the struct's fields. Package events tries them before
// its general reader and strict decoder, and falls back on those whenever
// the fast path gives up.
package fastcodec

import (
	"encoding/binary"
	"math"
	"math/bits"
	"reflect"
	"strings"
)

// The fast path of data decoding: a decoder of the compact JSON that
// encoding/json writes for a flat struct (every field a string, int,
// uint64, bool, *int, []int or []string), tried before the general strict
// decoder (events' decodeStrictly, go-json-experiment/json with unknown
// and repeated members refused).
//
// Invariant: the fast decoder handles a subset of the data the strict
// decoder accepts, and there it decodes exactly what the strict decoder
// decodes (reflect.DeepEqual: nil and empty slices told apart). On
// anything outside the subset it gives up, with no error and the value
// left zero, and the strict decoder decides, as it did before the fast
// path existed. The subset is one object, without whitespace, whose
// members each name a field exactly (in any order, none repeated) and hold
// a value of the field's kind:
//   - a string without a backslash or a control character;
//   - an integer in the field's range without fraction or exponent ("-0"
//     is 0 for a signed field, as the strict decoder reads it; it is given
//     up for an unsigned one, which the strict decoder refuses);
//   - true or false;
//   - an array of such integers or strings (an empty one is an empty
//     slice, not nil).
//
// null, escapes, whitespace, numbers in other forms, nested values,
// unknown or repeated members and anything after the object are given up.
// The strings of a decoded value share one allocation (in a Document, with
// the envelope's), and so do its int slices and pointers (with the value
// itself, when Fields.New makes it).

// Fields is the generated table of one flat struct (see the generator in
// ./gen): the fast path's way to its fields without reflection.
type Fields struct {
	// Pointer returns a pointer to field j of v (a pointer to the
	// struct), in declaration order, or nil past the last.
	Pointer func(v any, j int) any
	// New, when set, returns a pointer to a fresh zero value of the
	// struct with room for the ints of its slices and pointers in the
	// same allocation, and that room (nil: the struct has none).
	New func() (v any, ints []int)
}

// A Struct is what the fast path knows of a flat struct: the text of each
// field's member after the opening quote of its name (the name, a quote
// and a colon), by field index, and its field table (when it has one:
// otherwise its fields are reached by reflection). Every field is
// exported and of a type in fastKinds, and its name is plain (see
// plainName), so that the text matches that member's name exactly.
type Struct struct {
	typ     reflect.Type
	members []memberText
	// omit[j] is whether field j's tag has omitempty.
	omit   []bool
	fields Fields
}

// Type returns the pointer type the struct was described as (StructOf's t).
func (fs *Struct) Type() reflect.Type { return fs.typ }

// NumFields returns the number of the struct's fields.
func (fs *Struct) NumFields() int { return len(fs.members) }

// Member returns the text of field j's member after the opening quote of
// its name (the name, a quote and a colon), and whether its tag has
// omitempty.
func (fs *Struct) Member(j int) (text string, omitempty bool) {
	return fs.members[j].text, fs.omit[j]
}

// fastKinds are the field types the fast path decodes, as pointers to
// them (what dataDecoder.value is given).
var fastKinds = map[reflect.Type]bool{
	reflect.TypeFor[*string](): true, reflect.TypeFor[*int](): true, reflect.TypeFor[*uint64](): true,
	reflect.TypeFor[*bool](): true, reflect.TypeFor[**int](): true, reflect.TypeFor[*[]int](): true,
	reflect.TypeFor[*[]string](): true,
}

// StructOf describes t, a pointer to a struct, for the fast path, with its
// generated field table if the table matches t (otherwise, or with the
// zero Fields, its fields are reached by reflection), or returns nil
// unless every field of the struct is exported, not embedded, of a type in
// fastKinds or tagged omitempty (an opaque field: the fast path gives up
// on data where its member is present, and on a value where it is not
// zero), and named by a json tag with a plain name and no option but
// omitempty (which decoding ignores): fields whose names the strict
// decoder matches exactly as written. A struct of more than 64 fields is
// not described (the decoder keeps the members it has seen in a uint64).
func StructOf(t reflect.Type, fields Fields) *Struct {
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || t.Elem().NumField() > 64 {
		return nil
	}
	st := t.Elem()
	fs := &Struct{typ: t, members: make([]memberText, st.NumField()), omit: make([]bool, st.NumField()), fields: fields}
	for i := range st.NumField() {
		f := st.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || f.Anonymous || !plainName(name) || (opts != "" && opts != "omitempty") ||
			!fastKinds[reflect.PointerTo(f.Type)] && opts != "omitempty" {
			return nil
		}
		fs.members[i] = newMemberText(name)
		fs.omit[i] = opts == "omitempty"
	}
	if !fields.matches(t) {
		fs.fields = Fields{} // a stale table: the fields are reached by reflection
	}
	return fs
}

// matches reports whether the table is t's: Pointer gives a pointer to
// each field of a value of t, in order, and nil past the last, and New
// (when set) a zero value of t. The zero Fields matches every t. A table
// generated from an older version of the struct does not match it, so
// that it can never make the fast path decode a member into the wrong
// field.
func (f Fields) matches(t reflect.Type) bool {
	if f.New != nil {
		if v, _ := f.New(); reflect.TypeOf(v) != t || !reflect.ValueOf(v).Elem().IsZero() {
			return false
		}
	}
	if f.Pointer == nil {
		return f.New == nil
	}
	v := reflect.New(t.Elem())
	for j := range t.Elem().NumField() {
		p := reflect.ValueOf(f.Pointer(v.Interface(), j))
		if want := v.Elem().Field(j).Addr(); !p.IsValid() || p.Type() != want.Type() || p.Pointer() != want.Pointer() {
			return false
		}
	}
	return f.Pointer(v.Interface(), t.Elem().NumField()) == nil
}

// Fields returns the struct's field table.
func (fs *Struct) Fields() Fields { return fs.fields }

// plainName reports whether a json tag name is non-empty and only ASCII
// letters, digits and '_'.
func plainName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return name != ""
}

// A memberText is the text of a member after the opening quote of its
// name: the name, a quote and a colon; with its first 8 bytes (or fewer)
// as firstWord reads them, and a mask of those bytes.
type memberText struct {
	text       string
	head, mask uint64
}

func newMemberText(name string) memberText {
	m := memberText{text: name + `":`}
	m.head = firstWord([]byte(m.text))
	m.mask = math.MaxUint64
	if len(m.text) < 8 {
		m.mask = 1<<(8*len(m.text)) - 1
	}
	return m
}

// matches reports whether b starts with the member's text; head is
// firstWord(b). The text holds no zero byte, so that its head matches
// only where b is at least as long as the text's first 8 bytes.
func (m *memberText) matches(b []byte, head uint64) bool {
	return head&m.mask == m.head && len(b) >= len(m.text) &&
		(len(m.text) <= 8 || string(b[8:len(m.text)]) == m.text[8:])
}

// DecodeData decodes data into v, a pointer to a zero value of the struct
// fs describes, and reports true, when data is in the fast path's subset;
// otherwise it reports false and leaves v zero (for the strict decoder to
// decide). fs nil reports false. data must be valid UTF-8. The strings of
// v share one allocation.
func DecodeData(data []byte, v any, fs *Struct) bool {
	d := dataDecoder{data: data}
	if !d.decode(fs, v) {
		return false
	}
	var text strings.Builder
	text.Grow(d.textLen)
	d.writeText(&text)
	d.setStrings(text.String())
	return true
}

// maxParts is the most string values the fast path decodes in one value:
// it gives up on more.
const maxParts = 32

// A dataDecoder reads data, compact JSON, into a value of a fast struct.
// It keeps the string values as parts of data until setStrings makes them
// strings, all in one allocation.
type dataDecoder struct {
	data    []byte
	ints    []int // what is left of the last allocation of ints (see newInts)
	parts   [maxParts]dataPart
	nparts  int
	textLen int // the length of the string values read
}

// A dataPart is a string value read: data[start:end], for *dst.
type dataPart struct {
	dst        *string
	start, end int
}

// decode reads the data into the struct v points to, which fs describes,
// and reports whether the data is in the fast path's subset; if it is
// not, it leaves v zero and d without parts.
func (d *dataDecoder) decode(fs *Struct, v any) bool {
	if fs == nil {
		return false
	}
	if !d.object(fs, v) {
		reflect.ValueOf(v).Elem().SetZero()
		d.nparts, d.textLen = 0, 0
		return false
	}
	return true
}

// object reads the object, member by member, into v (reaching its fields
// through fs's field table when it has one, by reflection otherwise).
// Members are looked for from the field after the last one read on, then
// from the start, so that members in field order (as encoding/json writes
// them) are found at once.
func (d *dataDecoder) object(fs *Struct, v any) bool {
	pointer := fs.fields.Pointer
	var rv reflect.Value
	if pointer == nil {
		rv = reflect.ValueOf(v).Elem()
	}
	b := d.data
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	if b[1] == '}' {
		return len(b) == 2
	}
	var seen uint64
	i, next := 1, 0
	for {
		if b[i] != '"' {
			return false
		}
		i++
		rest := b[i:]
		head := firstWord(rest)
		j := next
		for j < len(fs.members) && !fs.members[j].matches(rest, head) {
			j++
		}
		if j == len(fs.members) {
			j = fs.field(rest, head, next)
		}
		if j < 0 {
			return false
		}
		bit := uint64(1) << (uint(j) & 63) // j < 64: see StructOf
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		i += len(fs.members[j].text)
		next = j + 1
		var ptr any
		if pointer != nil {
			ptr = pointer(v, j)
		} else {
			ptr = rv.Field(j).Addr().Interface()
		}
		var ok bool
		if i, ok = d.value(i, ptr); !ok || i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return i+1 == len(b)
		default:
			return false
		}
		if i >= len(b) {
			return false
		}
	}
}

// field returns the index of the field before index end whose member
// text rest starts with (head is firstWord(rest)), or -1.
func (fs *Struct) field(rest []byte, head uint64, end int) int {
	for j := range fs.members[:end] {
		if fs.members[j].matches(rest, head) {
			return j
		}
	}
	return -1
}

// value reads the value at data[i] into *ptr, one of the types of
// fastKinds (a string into a part, for setStrings to set), and returns
// the index after it.
func (d *dataDecoder) value(i int, ptr any) (int, bool) {
	b := d.data
	var ok bool
	switch x := ptr.(type) {
	case *string:
		var start int
		if start, i, ok = stringAt(b, i); ok {
			ok = d.addPart(x, start, i-1)
		}
	case *int:
		*x, i, ok = intAt(b, i)
	case *uint64:
		*x, i, ok = uintAt(b, i)
	case *bool:
		*x, i, ok = boolAt(b, i)
	case **int:
		var n int
		if n, i, ok = intAt(b, i); ok {
			*x = &d.newInts(1)[0]
			**x = n
		}
	case *[]int:
		var buf [8]int
		var xs []int
		if xs, i, ok = arrayAt(b, i, buf[:0]); ok {
			*x = d.newInts(len(xs))
			copy(*x, xs)
		}
	case *[]string:
		var buf [8][2]int
		var xs [][2]int
		if xs, i, ok = arrayAt(b, i, buf[:0]); ok {
			*x = make([]string, len(xs))
			for k := 0; k < len(xs) && ok; k++ {
				ok = d.addPart(&(*x)[k], xs[k][0], xs[k][1])
			}
		}
	}
	return i, ok
}

// stringAt reads the string at b[i], without escapes or control
// characters, and returns where its text is and the index after it.
func stringAt(b []byte, i int) (start, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, 0, false
	}
	end := simpleStringEnd(b, i+1)
	return i + 1, end + 1, end >= 0
}

// boolAt reads true or false at b[i].
func boolAt(b []byte, i int) (v bool, next int, ok bool) {
	switch rest := b[i:]; {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		return true, i + 4, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		return false, i + 5, true
	}
	return false, 0, false
}

// intAt reads an integer in int's range at b[i].
func intAt(b []byte, i int) (v, next int, ok bool) {
	neg, n, next, ok := integerAt(b, i)
	switch {
	case !ok || n > math.MaxInt+1 || !neg && n > math.MaxInt:
		return 0, 0, false
	case n == math.MaxInt+1:
		return math.MinInt, next, true
	case neg:
		return -int(n), next, true // "-0" is 0, as the strict decoder reads it
	}
	return int(n), next, true
}

// uintAt reads a non-negative integer at b[i] ("-0" included is refused
// by the strict decoder, and given up here).
func uintAt(b []byte, i int) (v uint64, next int, ok bool) {
	neg, n, next, ok := integerAt(b, i)
	return n, next, ok && !neg
}

// maxUint64 is math.MaxUint64 in decimal: the largest magnitude integerAt
// reads, and the longest.
const maxUint64 = "18446744073709551615"

// integerAt reads a JSON number's sign and integer part (0, or a digit
// 1-9 and more digits) at b[i] and returns its magnitude; it gives up on
// a magnitude over math.MaxUint64. A fraction or exponent that follows is
// not read: the byte after a value must be ',', '}' or ']', which callers
// check.
func integerAt(b []byte, i int) (neg bool, n uint64, next int, ok bool) {
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	if i < len(b) && b[i] == '0' {
		return neg, 0, i + 1, true
	}
	start := i
	for ; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		n = n*10 + uint64(b[i]-'0')
	}
	switch digits := i - start; {
	case digits == 0 || digits > len(maxUint64):
		return false, 0, 0, false
	case digits == len(maxUint64) && string(b[start:i]) > maxUint64:
		return false, 0, 0, false
	}
	return neg, n, i, true
}

// arrayAt reads the array at b[i] of integers (as intAt reads them) or of
// strings (their places in b, as stringAt reads them), appends them to
// xs, and returns the index after the array.
func arrayAt[T int | [2]int](b []byte, i int, xs []T) (_ []T, next int, ok bool) {
	if i >= len(b) || b[i] != '[' {
		return nil, 0, false
	}
	for i++; i < len(b) && b[i] != ']'; {
		if len(xs) > 0 {
			if b[i] != ',' {
				return nil, 0, false
			}
			i++
		}
		var x T
		switch px := any(&x).(type) {
		case *int:
			*px, i, ok = intAt(b, i)
		case *[2]int:
			px[0], i, ok = stringAt(b, i)
			px[1] = i - 1
		}
		if !ok {
			return nil, 0, false
		}
		xs = append(xs, x)
	}
	if i >= len(b) {
		return nil, 0, false
	}
	return xs, i + 1, true
}

// newInts returns n ints, a part of an allocation that the int slices
// and pointers of one decoded value share (with a capacity of its own, so
// that an append to one part never writes another), or an empty slice,
// not nil, for n = 0.
func (d *dataDecoder) newInts(n int) []int {
	if n == 0 {
		return []int{}
	}
	if len(d.ints) < n {
		d.ints = make([]int, max(n, 8))
	}
	part := d.ints[:n:n]
	d.ints = d.ints[n:]
	return part
}

// addPart adds the string value data[start:end] for *dst, or reports
// false when there are maxParts already.
func (d *dataDecoder) addPart(dst *string, start, end int) bool {
	if d.nparts == maxParts {
		return false
	}
	d.parts[d.nparts] = dataPart{dst, start, end}
	d.nparts++
	d.textLen += end - start
	return true
}

// writeText writes the string values read, end to end.
func (d *dataDecoder) writeText(text *strings.Builder) {
	for _, p := range d.parts[:d.nparts] {
		text.Write(d.data[p.start:p.end])
	}
}

// setStrings sets each string read to its part of text, which starts
// with what writeText wrote.
func (d *dataDecoder) setStrings(text string) {
	at := 0
	for _, p := range d.parts[:d.nparts] {
		n := p.end - p.start
		*p.dst = text[at : at+n]
		at += n
	}
}

// stringStops are the bytes that end the text of a JSON string as
// simpleStringEnd reads it: the closing quote, a backslash, and the
// control characters, which JSON strings may not hold as they are.
var stringStops = func() (stops [256]bool) {
	for c := range 0x20 {
		stops[c] = true
	}
	stops['"'], stops['\\'] = true, true
	return stops
}()

// simpleStringEnd returns the index of the quote that ends the text of a
// JSON string starting at b[i] (after its opening quote), or -1 when a
// backslash or a control character comes first or the string does not
// end. It reads 8 bytes at a time while 8 are left.
func simpleStringEnd(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := stopMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return quoteAt(b, i+bits.TrailingZeros64(m)/8)
		}
	}
	for i < len(b) && !stringStops[b[i]] {
		i++
	}
	return quoteAt(b, i)
}

// quoteAt returns i if b[i] is a quote, otherwise -1.
func quoteAt(b []byte, i int) int {
	if i < len(b) && b[i] == '"' {
		return i
	}
	return -1
}

// stopMask returns a word whose lowest set bit is the high bit of the
// first of the 8 bytes of x (a little-endian word) that is in
// stringStops, or 0 when none is. (Bits above it may be set whether or
// not their bytes are stops: a borrow of the subtractions carries into
// them.)
func stopMask(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := func(w, c uint64) uint64 { return (w - c*ones) & ^w & highs } // bytes < c, for c <= 0x80
	return below(x^'"'*ones, 1) | below(x^'\\'*ones, 1) | below(x, 0x20)
}

// firstWord returns the first 8 bytes of b (fewer, then zeros, if b is
// shorter) as a little-endian word.
func firstWord(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.LittleEndian.Uint64(b)
	}
	return shortWord(b)
}

// shortWord is firstWord of fewer than 8 bytes.
func shortWord(b []byte) (w uint64) {
	for i := len(b) - 1; i >= 0; i-- {
		w = w<<8 | uint64(b[i])
	}
	return w
}
