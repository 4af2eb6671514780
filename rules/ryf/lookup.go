package ryf

import (
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/names"
)

// fold is the form lookups compare (see names.Fold).
func fold(s string) string { return names.Fold(s) }

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
		return zero, msgerr.Errorf("%w: empty name", unknown)
	}
	if e, n := match(q, entries, func(k string) bool { return k == q }); n == 1 {
		return e.value, nil
	}
	e, n := match(q, entries, func(k string) bool { return strings.HasPrefix(k, q) })
	switch n {
	case 0:
		return zero, msgerr.Errorf("%w %q%s", unknown, clip.Text(query), hint(query, entries))
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
	return zero, msgerr.Errorf("%w %s %q: could be %s", ErrAmbiguous, what, clip.Text(query), strings.Join(names, ", "))
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

// hint ends an unknown-name message: the closest names, or all of them
// (names.Hint), after a colon; "" for no entries.
func hint[T any](query string, entries []entry[T]) error {
	displays := make([]string, len(entries))
	for i, e := range entries {
		displays[i] = e.display
	}
	if h := names.Hint(query, displays); h != nil {
		return msgerr.Errorf(": %w", h)
	}
	return msgerr.New("")
}
