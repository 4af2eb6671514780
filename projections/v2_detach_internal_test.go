package projections

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestPendingRollDetach: once detached, no string of a request (every
// string field of events.RollRequested, and its string slices' elements)
// shares memory with the event text it was read from, and none changed.
func TestPendingRollDetach(t *testing.T) {
	text := strings.Repeat("abcdefghij", 100)
	var p PendingRoll
	p.Event = text[0:5]
	rv := reflect.ValueOf(&p.Requested).Elem()
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Field(i)
		switch {
		case f.Kind() == reflect.String:
			f.SetString(text[i+1 : i+8])
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String:
			f.Set(reflect.ValueOf([]string{text[i : i+3], text[i+1 : i+4]}))
		}
	}
	before := p
	before.Requested.Participants = append([]string(nil), p.Requested.Participants...)
	before.Requested.Tokens = append([]string(nil), p.Requested.Tokens...)
	p.detach()
	require.Equal(t, before, p)
	lo := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	inText := func(s string) bool {
		a := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return s != "" && a >= lo && a < lo+uintptr(len(text))
	}
	require.False(t, inText(p.Event), "Event")
	for i := 0; i < rv.NumField(); i++ {
		f, name := rv.Field(i), rv.Type().Field(i).Name
		switch {
		case f.Kind() == reflect.String:
			require.False(t, inText(f.String()), name)
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String:
			for j := 0; j < f.Len(); j++ {
				require.False(t, inText(f.Index(j).String()), name)
			}
		}
	}
}
