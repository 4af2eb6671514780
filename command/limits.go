package command

import (
	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/signed"

	"fmt"
	"reflect"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/campaign-journal/journal/events"
)

// Limits on free text: the one place where they are set. Every string an
// event records — display names, player names, occupations, cultures,
// skill, weapon and trait names, titles, reasons, flaws, sources, entropy —
// is checked against them before anything is recorded (checkText, on
// every event a command drafts): at most its field's number of characters
// (runes), no control character (newlines and tabs included: every
// event is one line of a transcript), and no bidirectional control
// character (bidiControl: it would make a name read otherwise than it
// was recorded). A refusal names the field, its
// length and the limit, and records nothing. Events already recorded are
// read as they are, whatever their length.
const (
	// MaxName bounds display names (of campaigns, characters, weapons,
	// skills, traits), player names, occupations and cultures, and every
	// string field without a limit of its own, in characters: the bound
	// the RyF rules set on skill and weapon names (rules/ryf).
	MaxName = 64
	// MaxTitle bounds session and adventure titles, in characters.
	MaxTitle = 200
	// MaxReason bounds the reasons of voids, Shadow and advancement, in
	// characters.
	MaxReason = 500
)

// textLimits are the fields with a limit other than MaxName, by their JSON
// name in the event's data; entropy is bounded in bytes (MaxEntropy), as
// the dice hash it.
var textLimits = map[string]int{
	"title":  MaxTitle,
	"reason": MaxReason,
	// A roll call's note (calls.go).
	"note": MaxReason,
	// journal-dice-v2: a device's signed string and its signature.
	"signed":    signed.MaxSize,
	"signature": signed.SignatureLen,
	// A void's signed consent (v2_void.go).
	"consent_signed":    signed.MaxSize,
	"consent_signature": signed.SignatureLen,
	// A beacon roll's round signature: 48 bytes in hex.
	"beacon_signature": 2 * beacon.SignatureSize,
}

// textLimit returns the limit of the field named name, and its unit.
func textLimit(name string) (int, string) {
	if name == "entropy" {
		return MaxEntropy, "bytes"
	}
	if n, ok := textLimits[name]; ok {
		return n, "characters"
	}
	return MaxName, "characters"
}

// checkField checks the free text s of the field named name against its
// limit (see the limits above).
func checkField(name, s string) error {
	return checkString(name, name, s)
}

// checkString checks s, at path, against the limit of field name.
func checkString(path, name, s string) error {
	limit, unit := textLimit(name)
	n := len(s)
	if unit == "characters" {
		n = utf8.RuneCountInString(s)
	}
	if n > limit {
		return invalid("%s is %d %s long, at most %d", path, n, unit, limit)
	}
	for i, r := range s {
		if unicode.IsControl(r) {
			return invalid("%s has the control character %U at byte %d: not allowed in text", path, r, i)
		}
		if bidiControl(r) {
			return invalid("%s has the bidirectional control character %U at byte %d: not allowed in text", path, r, i)
		}
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return invalid("%s is not valid UTF-8", path)
			}
		}
	}
	return nil
}

// bidiControl reports whether r is a character that changes the direction
// of the text around it without being seen: the embeddings and overrides
// U+202A–U+202E, the isolates U+2066–U+2069, the marks U+200E, U+200F and
// U+061C. In a name, one makes what a transcript or a page shows read
// otherwise than what was recorded ("evil\u202Egnp.exe" shows as
// "evilexe.png").
func bidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// checkText checks every string of the event's data (struct fields,
// slice elements, map keys and values) against its field's limit, and
// names the first string at fault by its path in the data.
func checkText(ev events.Event) error {
	v, err := ev.Payload()
	if err != nil {
		return err
	}
	f := findText(reflect.ValueOf(v), "", 0)
	if f == nil {
		return nil
	}
	return checkString(f.path(), f.name, f.text)
}

// textFault is the first string at fault that findText found: its text,
// the name of its field, and the steps to it from the data, innermost
// first, so that the path is built only for a fault.
type textFault struct {
	text, name string
	steps      []textStep
}

// textStep is one step into the data, of its kind: a struct's field, a
// slice's or array's index, a map's key (the path names "a name in" the
// map) or the value under a key.
type textStep struct {
	kind  byte
	field string
	index int
	value any // the key of a map's value
}

const (
	stepField = iota
	stepIndex
	stepKey
	stepValue
)

// path is the fault's path as the journal's errors name it:
// "weapons[1].name", "a name in skills", "skills[Notice]".
func (f *textFault) path() string {
	p := ""
	for i := len(f.steps) - 1; i >= 0; i-- {
		switch st := f.steps[i]; st.kind {
		case stepField:
			if p == "" {
				p = st.field
			} else {
				p += "." + st.field
			}
		case stepIndex:
			p += "[" + strconv.Itoa(st.index) + "]"
		case stepKey:
			p = "a name in " + p
		case stepValue:
			p = fmt.Sprintf("%s[%v]", p, st.value)
		}
	}
	return p
}

// findText returns the first string in v, of the field named name, that
// checkString refuses, or nil: it visits struct fields in order (from a
// table built once per type, textFieldsOf, which leaves out the fields
// that cannot hold text), slice and array elements in order, and each
// map entry's key, then value, at most 16 levels deep.
func findText(v reflect.Value, name string, depth int) *textFault {
	if depth > 16 || !v.IsValid() {
		return nil
	}
	in := func(f *textFault, st textStep) *textFault {
		if f != nil {
			f.steps = append(f.steps, st)
		}
		return f
	}
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); !stringOK(name, s) {
			return &textFault{text: s, name: name}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return findText(v.Elem(), name, depth+1)
		}
	case reflect.Struct:
		for _, f := range textFieldsOf(v.Type()) {
			if fault := findText(v.Field(f.index), f.name, depth+1); fault != nil {
				return in(fault, textStep{kind: stepField, field: f.name})
			}
		}
	case reflect.Slice, reflect.Array:
		if !mayHoldText(v.Type().Elem()) {
			return nil
		}
		for i := range v.Len() {
			if fault := findText(v.Index(i), name, depth+1); fault != nil {
				return in(fault, textStep{kind: stepIndex, index: i})
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			k := it.Key()
			if fault := findText(k, name, depth+1); fault != nil {
				return in(fault, textStep{kind: stepKey})
			}
			if fault := findText(it.Value(), name, depth+1); fault != nil {
				return in(fault, textStep{kind: stepValue, value: k})
			}
		}
	}
	return nil
}

// stringOK reports whether checkString would accept s as the text of the
// field named name: for short ASCII text without a control character it
// says so without counting runes.
func stringOK(name, s string) bool {
	if len(s) <= minTextLimit { // within every limit, in bytes or characters
		i := 0
		for ; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= 0x7f {
				break
			}
		}
		if i == len(s) {
			return true
		}
	}
	return checkString("", name, s) == nil
}

// minTextLimit is the least of the limits textLimit gives.
var minTextLimit = func() int {
	n := min(MaxName, MaxEntropy)
	for _, l := range textLimits {
		n = min(n, l)
	}
	return n
}()

// textField is an exported field of a struct that may hold text, with
// its JSON name.
type textField struct {
	index int
	name  string
}

// textFields caches textFieldsOf, by struct type.
var textFields sync.Map // reflect.Type → []textField

// textFieldsOf returns the exported fields of struct type t that may
// hold a string (mayHoldText), in order: the fields walkText visits that
// can hold anything it checks.
func textFieldsOf(t reflect.Type) []textField {
	if fs, ok := textFields.Load(t); ok {
		return fs.([]textField)
	}
	var fs []textField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() && mayHoldText(f.Type) {
			fs = append(fs, textField{index: i, name: jsonName(f)})
		}
	}
	textFields.Store(t, fs)
	return fs
}

// mayHoldText reports whether a value of type t may hold a string that
// walkText checks: false for numbers, booleans and their arrays.
func mayHoldText(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return false
	case reflect.Array, reflect.Slice, reflect.Pointer:
		// Of numbers or booleans: nothing to check. The element's own
		// type is not looked into (a type may be recursive): anything
		// else may hold text.
		switch t.Elem().Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return false
		}
	}
	return true
}

// jsonName returns the JSON name of a struct field.
func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	for i := 0; i < len(tag); i++ {
		if tag[i] == ',' {
			tag = tag[:i]
			break
		}
	}
	if tag == "" || tag == "-" {
		return f.Name
	}
	return tag
}
