package command

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// TestCheckTextAsTheFullWalk: checkText (a field table per type, the
// path built only for a fault) gives exactly the error of the plain walk
// it replaced (walkTextReference, below), nil included, for the data of
// every registered event type, with every string of it, in turn, at the
// edge of each limit, over it, with a control character, not valid UTF-8
// or not ASCII; and one string at a time, the others clean, so that each
// field's own limit and path is tried.
func TestCheckTextAsTheFullWalk(t *testing.T) {
	samples := []string{
		"", "Lodin", "ñandú", strings.Repeat("a", MaxName), strings.Repeat("a", MaxName+1),
		strings.Repeat("ñ", MaxName), strings.Repeat("ñ", MaxName+1), strings.Repeat("a", MaxTitle+1),
		strings.Repeat("ñ", MaxTitle), strings.Repeat("b", MaxReason+1), strings.Repeat("c", 90),
		strings.Repeat("d", 2*MaxName), "tab\there", "nl\n", "del\x7f", "c1\u0085x", "bad\xffutf8", "\xc3",
		"ok~", "zero\x00", "é", strings.Repeat("é", 40),
	}
	for _, typ := range events.Types() {
		for _, s := range samples {
			// Every string s.
			v := typ.NewData()
			fillText(reflect.ValueOf(v).Elem(), func() string { return s })
			requireAgree(t, typ.Type, v)
			// One string s at a time, the others clean.
			for k := 0; ; k++ {
				v := typ.NewData()
				n := 0
				fillText(reflect.ValueOf(v).Elem(), func() string {
					n++
					if n-1 == k {
						return s
					}
					return "x"
				})
				requireAgree(t, typ.Type, v)
				if k >= n {
					break
				}
			}
		}
	}
}

func requireAgree(t *testing.T, typ string, v any) {
	t.Helper()
	want := walkTextReference(reflect.ValueOf(v), "", "", 0)
	var got error
	if f := findText(reflect.ValueOf(v), "", 0); f != nil {
		got = checkString(f.path(), f.name, f.text)
	}
	if want == nil {
		require.NoError(t, got, "%s %+v", typ, v)
		return
	}
	require.EqualError(t, got, want.Error(), "%s %+v", typ, v)
}

// walkTextReference is the plain walk checkText made before: every
// exported field, element, key and value, the path built at each step.
func walkTextReference(v reflect.Value, path, name string, depth int) error {
	if depth > 16 || !v.IsValid() {
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		return checkString(path, name, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return walkTextReference(v.Elem(), path, name, depth+1)
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
			if err := walkTextReference(v.Field(i), p, field, depth+1); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := walkTextReference(v.Index(i), path+"["+strconv.Itoa(i)+"]", name, depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			k := it.Key()
			if err := walkTextReference(k, "a name in "+path, name, depth+1); err != nil {
				return err
			}
			if err := walkTextReference(it.Value(), fmt.Sprintf("%s[%v]", path, k), name, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// fillText sets every string in v (through pointers, slices of two
// elements, maps of one entry) to the next of next().
func fillText(v reflect.Value, next func() string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(next())
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fillText(p.Elem(), next)
		v.Set(p)
	case reflect.Slice:
		sl := reflect.MakeSlice(v.Type(), 2, 2)
		fillText(sl.Index(0), next)
		fillText(sl.Index(1), next)
		v.Set(sl)
	case reflect.Map:
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillText(k, next)
		fillText(e, next)
		m := reflect.MakeMap(v.Type())
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillText(v.Field(i), next)
			}
		}
	}
}
