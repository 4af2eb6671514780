package cobraspec

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Field is one field of a request type as the command line offers it.
type Field struct {
	Index       []int // in the request type (reflect.Value.FieldByIndex)
	JSON        string
	Flag        string // "" for a positional argument
	Meta        string // the argument's or the flag value's placeholder
	Optional    bool   // an optional positional argument
	Variadic    int    // the last arguments: at least this many (CHAR...)
	CLIRequired bool   // required:"cli"
	Help, Alias string
	Complete    string
	Resolve     string // resolve:"event" or "request"
}

// Fields reads t's fields' tags; the ones not on the command line
// (cli:"-", json:"-") are left out, and so are an embedded struct's but
// with cli:"inline" (a signed message pasted whole: --signed, --signature).
func Fields(t reflect.Type, at ...int) []Field {
	var out []Field
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		tag := sf.Tag.Get("cli")
		index := append(slices.Clone(at), i)
		if sf.Anonymous && tag == "inline" {
			out = append(out, Fields(sf.Type, index...)...)
			continue
		}
		if !sf.IsExported() || sf.Anonymous || name == "-" || tag == "-" {
			continue
		}
		f := Field{Index: index, JSON: name, Help: sf.Tag.Get("help"), Alias: sf.Tag.Get("alias"), Complete: sf.Tag.Get("complete"),
			CLIRequired: sf.Tag.Get("required") == "cli", Resolve: sf.Tag.Get("resolve")}
		switch {
		case tag == "":
			f.Flag = strings.ReplaceAll(name, "_", "-")
		case strings.HasPrefix(tag, "--"):
			f.Flag, f.Meta, _ = strings.Cut(tag[2:], " ")
		case strings.HasPrefix(tag, "["):
			f.Meta, f.Optional = strings.Trim(tag, "[]"), true
		case strings.HasSuffix(tag, "..."):
			f.Meta, f.Variadic = tag, 1
			if n, err := strconv.Atoi(sf.Tag.Get("min")); err == nil {
				f.Variadic = n
			}
		default:
			f.Meta = tag
		}
		out = append(out, f)
	}
	return out
}
