package projections

// The shape of a folded campaign, for checkpoints: the fingerprint that
// names the fold which wrote one, and the maps a decoded one needs before
// it can be folded into again. Checkpoint stores (package live, the
// command layer's cold loads) share both.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
)

// Fingerprint names the fold that writes checkpoints: a hash of the shape
// of Campaign (every field, type and JSON tag, at any depth)
// and of the build's version control revision, when the binary records
// one. A checkpoint written by another fold (a new release whose
// projections differ) is ignored, and the projector refolds.
func Fingerprint() string {
	h := sha256.New()
	describeType(h, reflect.TypeFor[Campaign](), map[reflect.Type]bool{})
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(h, "|%s", bi.Main.Version)
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				fmt.Fprintf(h, "|%s=%s", s.Key, s.Value)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// describeType writes the shape of t: kinds, field names, types and tags.
func describeType(w io.Writer, t reflect.Type, seen map[reflect.Type]bool) {
	fmt.Fprintf(w, "%s:%s(", t.String(), t.Kind())
	defer fmt.Fprint(w, ")")
	if seen[t] {
		return
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		describeType(w, t.Elem(), seen)
	case reflect.Map:
		describeType(w, t.Key(), seen)
		describeType(w, t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			fmt.Fprintf(w, "%s %q ", f.Name, f.Tag)
			describeType(w, f.Type, seen)
		}
	}
}

// Normalize gives a campaign decoded from JSON the empty maps its fold
// writes into: a map field tagged omitempty is left out of the JSON when
// empty and so decodes as nil, where the fold had made it and will write
// into it. Every nil map tagged omitempty, at any depth, becomes an empty
// map; this changes no JSON encoding, and other maps round-trip as they are.
func Normalize(c *Campaign) *Campaign {
	fillMaps(reflect.ValueOf(c))
	return c
}

// fillMaps makes the nil omitempty maps reachable from v empty.
func fillMaps(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			fillMaps(v.Elem())
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			fv := v.Field(i)
			_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if fv.Kind() == reflect.Map && fv.IsNil() && slices.Contains(strings.Split(opts, ","), "omitempty") && fv.CanSet() {
				fv.Set(reflect.MakeMap(fv.Type()))
			}
			fillMaps(fv)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			fillMaps(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			e := it.Value()
			if e.Kind() == reflect.Pointer || e.Kind() == reflect.Map || e.Kind() == reflect.Slice {
				fillMaps(e) // a map's values are not addressable: only what they point to can change
			}
		}
	}
}
