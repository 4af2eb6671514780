package events

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// A small scanner over JSON that is already known to be well formed
// (json.Valid or a successful json.Unmarshal said so): it finds the members
// of objects and the elements of arrays without building maps, so that the
// codec's exact-key check costs no allocation per key. It never reads past
// the slice it is given, so malformed input cannot make it panic, only give
// up early (every caller has validated the input first).

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just after the string starting at b[i] ('"').
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the index just after the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ { // number, true, false, null
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return i
}

// eachMember calls fn with the raw key (quotes included) and the raw value
// of each member of the object obj, which starts at obj[0] == '{', in
// order, and stops at the first error.
func eachMember(obj []byte, fn func(key, value []byte) error) error {
	i := skipSpace(obj, 1)
	for i < len(obj) && obj[i] == '"' {
		end := skipString(obj, i)
		key := obj[i:end]
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return fmt.Errorf("malformed object")
		}
		i = skipSpace(obj, i+1)
		vend := skipValue(obj, i)
		if err := fn(key, obj[i:vend]); err != nil {
			return err
		}
		i = skipSpace(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return nil
}

// eachElement calls fn with each raw element of the array arr, which
// starts at arr[0] == '[', in order, and stops at the first error.
func eachElement(arr []byte, fn func(i int, value []byte) error) error {
	i := skipSpace(arr, 1)
	for n := 0; i < len(arr) && arr[i] != ']'; n++ {
		end := skipValue(arr, i)
		if err := fn(n, arr[i:end]); err != nil {
			return err
		}
		i = skipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
	return nil
}

// memberName returns the text of a raw JSON string key. A key without
// escapes is returned as it is (no copy); one with escapes is unquoted as
// encoding/json does.
func memberName(key []byte) ([]byte, error) {
	if len(key) < 2 {
		return nil, fmt.Errorf("malformed key")
	}
	inner := key[1 : len(key)-1]
	for _, c := range inner {
		if c == '\\' {
			s, err := jsonString(key)
			return []byte(s), err
		}
	}
	return inner, nil
}

// jsonString decodes a raw JSON string (quotes included) as json.Unmarshal
// would: without escapes (and the document being valid UTF-8, which Decode
// checks first) it is the bytes between the quotes.
func jsonString(raw []byte) (string, error) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		plain := true
		for _, c := range raw[1 : len(raw)-1] {
			if c == '\\' || c == '"' || c < 0x20 {
				plain = false
				break
			}
		}
		if plain {
			return string(raw[1 : len(raw)-1]), nil
		}
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", err
	}
	return s, nil
}

// schema is what the exact-key check knows of a Go type: the JSON names of
// a struct's fields with their own schemas, or the schema of the elements
// of a slice, array or map. Schemas are built once per type and never
// change afterwards.
type schema struct {
	kind   reflect.Kind // Struct, Slice (arrays too), Map, or Invalid: nothing to check
	fields map[string]*schema
	elem   *schema
}

// schemas caches the schema of every data type the codec has met, by
// reflect.Type: the only package state, written once per type, safe for
// concurrent use.
var schemas sync.Map // reflect.Type → *schema

// noCheck is the schema of values with nothing inside to check.
var noCheck = &schema{}

// schemaOf returns the schema of t, building and caching it the first
// time.
func schemaOf(t reflect.Type) *schema {
	if s, ok := schemas.Load(t); ok {
		return s.(*schema)
	}
	s := buildSchema(t, map[reflect.Type]*schema{})
	actual, _ := schemas.LoadOrStore(t, s)
	return actual.(*schema)
}

// buildSchema builds the schema of t; building holds the schemas under
// construction, so that recursive types end.
func buildSchema(t reflect.Type, building map[reflect.Type]*schema) *schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return noCheck // its own rules
	}
	if s, ok := building[t]; ok {
		return s
	}
	switch t.Kind() {
	case reflect.Struct:
		s := &schema{kind: reflect.Struct, fields: map[string]*schema{}}
		building[t] = s
		for name, ft := range jsonFields(t) {
			s.fields[name] = buildSchema(ft, building)
		}
		return s
	case reflect.Slice, reflect.Array:
		s := &schema{kind: reflect.Slice}
		building[t] = s
		s.elem = buildSchema(t.Elem(), building)
		return s
	case reflect.Map:
		s := &schema{kind: reflect.Map}
		building[t] = s
		s.elem = buildSchema(t.Elem(), building)
		return s
	}
	return noCheck
}

// exactKeys checks that every object key in data names a field of the
// schema's struct exactly (encoding/json matches field names without regard
// to case, so that "Nonce" would otherwise pass for "nonce"). data must be
// well formed JSON that decoded into the schema's type; a value of another
// shape than the schema's (null) has nothing to check.
func exactKeys(data []byte, s *schema) error {
	i := skipSpace(data, 0)
	if i >= len(data) {
		return nil
	}
	data = data[i:]
	switch s.kind {
	case reflect.Struct:
		if data[0] != '{' {
			return nil
		}
		return eachMember(data, func(key, value []byte) error {
			name, err := memberName(key)
			if err != nil {
				return err
			}
			fs, ok := s.fields[string(name)]
			if !ok {
				return fmt.Errorf("unknown field %q", name)
			}
			if err := exactKeys(value, fs); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			return nil
		})
	case reflect.Slice:
		if data[0] != '[' || s.elem.kind == reflect.Invalid {
			return nil
		}
		return eachElement(data, func(n int, value []byte) error {
			if err := exactKeys(value, s.elem); err != nil {
				return fmt.Errorf("[%d]: %w", n, err)
			}
			return nil
		})
	case reflect.Map:
		if data[0] != '{' || s.elem.kind == reflect.Invalid {
			return nil
		}
		return eachMember(data, func(key, value []byte) error {
			if err := exactKeys(value, s.elem); err != nil {
				name, _ := memberName(key)
				return fmt.Errorf("%s: %w", name, err)
			}
			return nil
		})
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
