package events

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNewDataFastAgrees: for the data of every registered type, filled
// at random (strings with escapes, U+2028, non-ASCII and empty ones,
// integers at their edges and zero, slices nil, empty and full, pointers
// nil and set), given as a value and as a pointer, the fast way of New
// (newDataFast) writes the bytes marshalData writes and gives the value
// decodeStrictly decodes from them, or gives up; it gives up on every
// string that is not valid UTF-8, and handles every flat type's data
// otherwise. New's events then encode as before (TestEncodeAgrees and
// the reference tests run through New).
func TestNewDataFastAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	strs := []string{"", "", "Lodin", "ñandú", "a\"b\\c", "tab\tnl\n", "\u2028\u2029", "<&>", "\x00\x1f\x7f", "é", "日本語", "\xff"}
	ints := []int{0, 0, 1, -1, 42, math.MaxInt, math.MinInt}
	handled := 0
	for _, typ := range Types() {
		tp := byType[typ.Type]
		for range 300 {
			v := typ.NewData()
			invalid := false
			fillRandom(r, reflect.ValueOf(v).Elem(), func() string {
				s := strs[r.IntN(len(strs))]
				invalid = invalid || s == "\xff"
				return s
			}, func() int { return ints[r.IntN(len(ints))] })
			for _, data := range []any{v, reflect.ValueOf(v).Elem().Interface()} {
				before := reflect.ValueOf(v).Elem().Interface() // the data must be left as it was
				enc, got, ok := newDataFast(data, tp)
				require.Equal(t, before, reflect.ValueOf(v).Elem().Interface(), "%s: the data was changed", typ.Type)
				if !ok {
					require.True(t, invalid || tp.fast == nil || hasOpaque(v), "%s gave up on %+v", typ.Type, data)
					continue
				}
				require.False(t, invalid, "%s: a string not valid UTF-8 was encoded", typ.Type)
				handled++
				want, err := marshalData(data)
				require.NoError(t, err)
				require.Equal(t, string(want), string(enc), typ.Type)
				back := typ.NewData()
				require.NoError(t, decodeStrictly(want, back))
				require.True(t, reflect.DeepEqual(back, got), "%s: decoded %#v, fast %#v", typ.Type, back, got)
				if got == data && reflect.TypeOf(got).Elem().Size() > 0 { // zero-size values share their address
					t.Fatalf("%s: the fast value is the caller's", typ.Type)
				}
			}
		}
	}
	require.Positive(t, handled)
}

// fillRandom sets the exported fields of v at random: strings from str,
// ints from num, slices nil, empty or of one to three elements, pointers
// nil or set.
func fillRandom(r *rand.Rand, v reflect.Value, str func() string, num func() int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(str())
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(num()))
	case reflect.Uint64:
		if n := num(); n >= 0 {
			v.SetUint(uint64(n))
		} else {
			v.SetUint(math.MaxUint64)
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Pointer:
		if r.IntN(2) == 0 {
			p := reflect.New(v.Type().Elem())
			fillRandom(r, p.Elem(), str, num)
			v.Set(p)
		}
	case reflect.Slice:
		switch n := r.IntN(5); n {
		case 0: // nil
		default:
			sl := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range n - 1 {
				fillRandom(r, sl.Index(i), str, num)
			}
			v.Set(sl)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range r.IntN(3) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillRandom(r, k, str, num)
			fillRandom(r, e, str, num)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillRandom(r, v.Field(i), str, num)
			}
		}
	}
}

// hasOpaque reports whether v (a pointer to a data struct) has a field
// of a type the fast path does not decode that is not left out (an
// opaque field, fastcodec.StructOf): the fast path gives up on it.
func hasOpaque(v any) bool {
	rv := reflect.ValueOf(v).Elem()
	for j := range rv.NumField() {
		f := rv.Field(j)
		switch f.Kind() {
		case reflect.Slice:
			if f.Type().Elem().Kind() != reflect.Int && f.Type().Elem().Kind() != reflect.String && f.Len() > 0 {
				return true
			}
		case reflect.Struct, reflect.Map:
			return true
		}
	}
	return false
}

// clearOpaque zeroes v's opaque fields (see hasOpaque).
func clearOpaque(v any) any {
	rv := reflect.ValueOf(v).Elem()
	for j := range rv.NumField() {
		f := rv.Field(j)
		if f.Kind() == reflect.Slice && f.Type().Elem().Kind() != reflect.Int && f.Type().Elem().Kind() != reflect.String {
			f.SetZero()
		}
	}
	return v
}
