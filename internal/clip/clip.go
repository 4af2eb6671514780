// Package clip shortens input that an error message quotes: a hostile
// value of 120 KB in a field must not come back as an error of 240 KB
// (a message quoting it twice), nor fill a log.
//
// Invariant: an error quotes what a user sent (a name, an id, a flag's
// value, a header, a path) as Text, which shows at most Runes runes of it
// and then how long the whole was. Input of at most Runes runes shows
// whole, byte for byte as the verb would show the string.
package clip

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Runes is how much of an input an error shows, in runes.
const Runes = 64

// Text is input as an error quotes it: whole when at most Runes runes,
// else its first Runes runes then "…(N bytes)", N the whole input's
// length. It formats with every verb and flag as a string would: %q
// quotes the shortened text (so a message still reads as one quoted
// value), %s and %v print it.
type Text string

// String is the shortened text.
func (t Text) String() string {
	s := string(t)
	if len(s) <= Runes || utf8.RuneCountInString(s) <= Runes {
		return s
	}
	i, n := 0, 0
	for i = range s {
		if n == Runes {
			break
		}
		n++
	}
	return s[:i] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// Format formats the shortened text as verb and the flags in f format a
// string.
func (t Text) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), t.String())
}
