// Package names folds names for lookup, so that players can type rule names
// as they like: without accents, in any case, with underscores for spaces.
//
// Invariant: Fold is idempotent and pure; two names a player would read as
// the same word ("Percepción", "percepcion", "PERCEPCION") fold alike.
package names

import (
	"strings"
	"unicode"
)

// Fold returns s lower-cased, without accents or other combining marks,
// with '_' read as a space, surrounding space trimmed and inner runs of
// space collapsed: the form lookups compare. "  Canción " and "CANCION"
// both give "cancion".
func Fold(s string) string {
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
	case 'ý', 'ÿ':
		return 'y'
	}
	return r
}
