package i18n

import "github.com/mattn/go-runewidth"

// cells measures text as a terminal lays it out (mattn/go-runewidth, the
// Unicode East Asian Width and emoji tables kept up to date by its
// maintainers): ambiguous-width characters count one cell whatever the
// locale, so that a table lines up the same on every machine. It is
// never changed after it is made.
var cells = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// Width is the number of terminal cells s takes: an accented letter is
// one, a combining mark none, a wide CJK character or an emoji two. Tables
// in any language line up by it.
func Width(s string) int { return cells.StringWidth(s) }
