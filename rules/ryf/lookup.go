package ryf

import (
	"fmt"
	"strings"
	"unicode"
)

// fold returns s lower-cased, without accents or other combining marks,
// with '_' read as a space, surrounding space trimmed and inner runs of
// space collapsed: the form lookups compare.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if r == '_' || unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unaccent(unicode.ToLower(r)))
	}
	return b.String()
}

// unaccent maps the accented Latin letters of Spanish (and a few neighbours)
// to their base letter.
func unaccent(r rune) rune {
	switch r {
	case 'á', 'à', 'â', 'ä', 'ã', 'å':
		return 'a'
	case 'é', 'è', 'ê', 'ë':
		return 'e'
	case 'í', 'ì', 'î', 'ï':
		return 'i'
	case 'ó', 'ò', 'ô', 'ö', 'õ':
		return 'o'
	case 'ú', 'ù', 'û', 'ü':
		return 'u'
	case 'ñ':
		return 'n'
	case 'ç':
		return 'c'
	}
	return r
}

// entry is one name a lookup can find: its display name, the folded forms
// that match it (the whole name and each '/'-separated alternative, plus
// aliases) and the value it stands for.
type entry[T any] struct {
	display string
	keys    []string
	value   T
}

func newEntry[T any](display string, value T, aliases ...string) entry[T] {
	e := entry[T]{display: display, value: value}
	add := func(k string) {
		k = fold(k)
		if k == "" {
			return
		}
		for _, have := range e.keys {
			if have == k {
				return
			}
		}
		e.keys = append(e.keys, k)
	}
	add(display)
	if strings.Contains(display, "/") {
		for _, part := range strings.Split(display, "/") {
			add(part)
		}
	}
	for _, a := range aliases {
		add(a)
	}
	return e
}

// find looks query up among entries: an exact (folded) match wins; else a
// unique prefix; else an error wrapping unknown, or ErrAmbiguous listing the
// candidates. what names the kind of thing for messages.
func find[T any](what, query string, entries []entry[T], unknown error) (T, error) {
	var zero T
	q := fold(query)
	if q == "" {
		return zero, fmt.Errorf("%w: empty name", unknown)
	}
	if e, n := match(q, entries, func(k string) bool { return k == q }); n == 1 {
		return e.value, nil
	}
	e, n := match(q, entries, func(k string) bool { return strings.HasPrefix(k, q) })
	switch n {
	case 0:
		return zero, fmt.Errorf("%w %q", unknown, query)
	case 1:
		return e.value, nil
	}
	var names []string
	for _, e := range entries {
		for _, k := range e.keys {
			if strings.HasPrefix(k, q) {
				names = append(names, e.display)
				break
			}
		}
	}
	return zero, fmt.Errorf("%w %s %q: could be %s", ErrAmbiguous, what, query, strings.Join(names, ", "))
}

// match returns the first entry with a key satisfying ok and how many
// entries have one.
func match[T any](q string, entries []entry[T], ok func(string) bool) (entry[T], int) {
	var first entry[T]
	n := 0
	for _, e := range entries {
		for _, k := range e.keys {
			if ok(k) {
				if n == 0 {
					first = e
				}
				n++
				break
			}
		}
	}
	return first, n
}
