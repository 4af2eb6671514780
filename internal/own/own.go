// Package own gives strings memory of their own.
//
// A decoded event's strings are parts of one string holding all its text,
// so a value kept from it for the rest of a long campaign keeps the whole
// text alive. Strings copies a set of strings into one allocation of their
// own.
//
// Invariant: Strings changes no value, only where the bytes live; after it,
// no string it was given shares memory with the text it came from.
package own

import "strings"

// Strings points each of ss at a copy of its string, all in one allocation.
func Strings(ss ...*string) {
	n := 0
	for _, s := range ss {
		n += len(*s)
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range ss {
		b.WriteString(*s)
	}
	all := b.String()
	for _, s := range ss {
		*s, all = all[:len(*s)], all[len(*s):]
	}
}
