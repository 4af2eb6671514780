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
// (runes), and no control character (newlines and tabs included: every
// event is one line of a transcript). A refusal names the field, its
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
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return invalid("%s is not valid UTF-8", path)
			}
		}
	}
	return nil
}

// checkText checks every string of the event's data (struct fields,
// slice elements, map keys and values) against its field's limit. The
// strings are first checked the fast way (textOK: the same strings, the
// same limits, no paths built); only data that fails it is walked again
// by walkText, which names the first string at fault.
func checkText(ev events.Event) error {
	v, err := ev.Payload()
	if err != nil {
		return err
	}
	rv := reflect.ValueOf(v)
	if textOK(rv, "", 0) {
		return nil
	}
	return walkText(rv, "", "", 0)
}

// textOK reports whether walkText(v, path, name, depth) finds nothing at
// fault, for any path: it visits the same strings in the same way, with
// the same limits, but keeps no path and reads each struct's fields from
// a table built once per type (textFieldsOf). It may report false where
// walkText finds nothing (then walkText decides), never true where
// walkText would refuse.
func textOK(v reflect.Value, name string, depth int) bool {
	if depth > 16 || !v.IsValid() {
		return true
	}
	switch v.Kind() {
	case reflect.String:
		return stringOK(name, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return textOK(v.Elem(), name, depth+1)
		}
	case reflect.Struct:
		for _, f := range textFieldsOf(v.Type()) {
			if !textOK(v.Field(f.index), f.name, depth+1) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		if !mayHoldText(v.Type().Elem()) {
			return true
		}
		for i := range v.Len() {
			if !textOK(v.Index(i), name, depth+1) {
				return false
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if !textOK(it.Key(), name, depth+1) || !textOK(it.Value(), name, depth+1) {
				return false
			}
		}
	}
	return true
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

// walkText checks the strings in v, at path, of the field named name.
func walkText(v reflect.Value, path, name string, depth int) error {
	if depth > 16 || !v.IsValid() {
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		return checkString(path, name, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return walkText(v.Elem(), path, name, depth+1)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			field := jsonName(f)
			p := field
			if path != "" {
				p = path + "." + field
			}
			if err := walkText(v.Field(i), p, field, depth+1); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := walkText(v.Index(i), path+"["+strconv.Itoa(i)+"]", name, depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			k := it.Key()
			if err := walkText(k, "a name in "+path, name, depth+1); err != nil {
				return err
			}
			if err := walkText(it.Value(), fmt.Sprintf("%s[%v]", path, k), name, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
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
