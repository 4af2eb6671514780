package events

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
)

// The fast way New makes an event's data, for the flat structs the fast
// path knows (fastcodec.StructOf) with a field table.
//
// Invariant: where newDataFast handles New's data (a value of the
// registered struct, or a non-nil pointer to one, every string valid
// UTF-8), it gives exactly what New's general way gives: the bytes
// marshalData writes, and the value decodeStrictly decodes from them
// (reflect.DeepEqual: nil and empty slices told apart). It writes each
// member as encoding/json does (declaration order, omitempty, strings as
// appendString writes them, integers in decimal, null for a nil slice or
// pointer without omitempty), and the value is a copy of the data as
// decoding gives it back: the same strings and numbers, fresh slices and
// pointers, and nil for an empty slice that omitempty left out. On
// anything else it gives up, and the general way decides.

// newDataFast returns data encoded (as marshalData encodes it) and as
// decoding that encoding strictly gives it back, or false.
func newDataFast(data any, t *TypeInfo) (enc []byte, v any, ok bool) {
	if t == nil || t.fast == nil || t.fast.Fields().Pointer == nil {
		return nil, nil, false
	}
	fs := t.fast
	pt := fs.Type()
	if !plainData(pt) {
		return nil, nil, false
	}
	rv := reflect.ValueOf(data)
	switch {
	case !rv.IsValid():
		return nil, nil, false
	case rv.Type() == pt:
		if rv.IsNil() {
			return nil, nil, false
		}
		rv = rv.Elem()
	case rv.Type() != pt.Elem():
		return nil, nil, false
	}
	p := reflect.New(pt.Elem())
	p.Elem().Set(rv)
	v = p.Interface()

	bp := encodeBuffers.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= maxKeptMarshal {
			encodeBuffers.Put(bp)
		}
	}()
	b := append((*bp)[:0], '{')
	first := true
	memberTo := func(b []byte, j int) []byte {
		if !first {
			b = append(b, ',')
		}
		first = false
		text, _ := fs.Member(j)
		return append(append(b, '"'), text...)
	}
	member := func(j int) { b = memberTo(b, j) }
	pointer := fs.Fields().Pointer
	for j := range fs.NumFields() {
		_, omitempty := fs.Member(j)
		switch f := pointer(v, j).(type) {
		case *string:
			if !utf8.ValidString(*f) {
				return nil, nil, false
			}
			if omitempty && *f == "" {
				continue
			}
			member(j)
			b = appendString(b, *f)
		case *int:
			if omitempty && *f == 0 {
				continue
			}
			member(j)
			b = strconv.AppendInt(b, int64(*f), 10)
		case *uint64:
			if omitempty && *f == 0 {
				continue
			}
			member(j)
			b = strconv.AppendUint(b, *f, 10)
		case *bool:
			if omitempty && !*f {
				continue
			}
			member(j)
			b = strconv.AppendBool(b, *f)
		case **int:
			if *f == nil {
				if !omitempty {
					member(j)
					b = append(b, "null"...)
				}
				continue
			}
			n := **f
			*f = &n
			member(j)
			b = strconv.AppendInt(b, int64(n), 10)
		case *[]int:
			b = appendSlice(b, f, omitempty, func(b []byte) []byte { return memberTo(b, j) }, func(b []byte, x int) []byte { return strconv.AppendInt(b, int64(x), 10) })
		case *[]string:
			for _, s := range *f {
				if !utf8.ValidString(s) {
					return nil, nil, false
				}
			}
			b = appendSlice(b, f, omitempty, func(b []byte) []byte { return memberTo(b, j) }, appendString)
		default:
			// An opaque field (fastcodec.StructOf): left out when zero,
			// as decoding gives it back; anything else is the general
			// way's.
			fv := reflect.ValueOf(f).Elem()
			if !omitempty || !emptyOpaque(fv) {
				return nil, nil, false
			}
			fv.SetZero()
		}
	}
	b = append(b, '}')
	*bp = b
	return slices.Clone(b), v, true
}

// appendSlice writes the member of slice *f as encoding/json does (left
// out when omitempty and empty, else its name by member, then null when
// nil or its elements by appendOne), and leaves *f as decoding that gives it back: nil when left
// out, otherwise a fresh copy, empty but not nil for [].
func appendSlice[T any](b []byte, f *[]T, omitempty bool, member func([]byte) []byte, appendOne func([]byte, T) []byte) []byte {
	if omitempty && len(*f) == 0 {
		*f = nil
		return b
	}
	b = member(b)
	if *f == nil {
		return append(b, "null"...)
	}
	*f = slices.Clip(slices.Clone(*f))
	if len(*f) == 0 {
		*f = []T{}
	}
	b = append(b, '[')
	for i, x := range *f {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(b, x)
	}
	return append(b, ']')
}

// encodeBuffers are newDataFast's buffers.
var encodeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// plainTypes caches plainData, by pointer type.
var plainTypes sync.Map // reflect.Type → bool

// plainData reports whether encoding/json encodes values of the struct
// pt points to by their fields alone: neither the struct nor a pointer to
// it has a method of its own to marshal itself.
func plainData(pt reflect.Type) bool {
	if ok, found := plainTypes.Load(pt); found {
		return ok.(bool)
	}
	marshaler := reflect.TypeFor[json.Marshaler]()
	text := reflect.TypeFor[encoding.TextMarshaler]()
	ok := !pt.Implements(marshaler) && !pt.Implements(text) && !pt.Elem().Implements(marshaler) && !pt.Elem().Implements(text)
	plainTypes.Store(pt, ok)
	return ok
}

// emptyOpaque reports whether encoding/json's omitempty leaves out fv, a
// slice or map of length 0 or a zero value of another kind (never a
// struct or array, which it writes).
func emptyOpaque(fv reflect.Value) bool {
	switch fv.Kind() {
	case reflect.Slice, reflect.Map:
		return fv.Len() == 0
	case reflect.Struct, reflect.Array:
		return false // written even when zero
	}
	return fv.IsZero()
}
