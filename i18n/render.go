package i18n

import (
	"fmt"
	"regexp"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// Rendering errors by key.
//
// The journal makes its errors with msgerr.Errorf and msgerr.New, which
// keep the English format string (the key) and its arguments. Render
// writes such an error in a language by printing the key's message of
// that language (the catalogue of errors, errorsES, loaded into a
// golang.org/x/text/message catalog: the English format is the key, the
// Spanish template its message) with the error's own arguments, an
// argument that is itself an error rendered the same way first. Nothing
// is read back from English text, so a template agrees with the words it
// was written for.
//
// Invariants:
//   - Render(err, EN) of a keyed error is its Error() text (an error type
//     may key a reader's form of itself, a character's violations spelled
//     out); arguments other than errors print exactly as fmt prints them
//     (numbers are not regrouped, names and ids are copied).
//   - A keyed error whose key has words and no Spanish template, and an
//     error the journal did not make (a library's: cobra's, pflag's, the
//     operating system's), fall back to Lang.Error, which reads English
//     text against the catalogue's templates: that reader remains for
//     those messages only.
//   - Render is pure and safe from any goroutine.

// Render returns err's message in l (see the invariants); "" for nil.
func Render(err error, l Lang) string {
	if err == nil {
		return ""
	}
	return l.Or().render(err)
}

// Renders reports whether err is rendered by key in l: a keyed error whose
// key has a template in l (or needs none). Tests use it to tell keyed
// messages from those the fallback reads.
func Renders(err error, l Lang) bool {
	k, ok := err.(msgerr.Keyed)
	if !ok {
		return false
	}
	if l.Or() == EN || !NeedsTranslation(k.Key()) {
		return true
	}
	_, ok = loadErrorsES()[k.Key()]
	return ok
}

func (l Lang) render(err error) string {
	if w, ok := err.(msgerr.Worded); ok {
		if s, ok := w.Words(string(l)); ok {
			return s
		}
	}
	k, ok := err.(msgerr.Keyed)
	if !ok {
		// Not the journal's: a library's wrapper may still hold one of
		// the journal's errors, but its words are its own.
		return l.Error(err.Error())
	}
	key, args := k.Key(), k.Args()
	if !Renders(err, l) {
		return l.Error(err.Error())
	}
	out := make([]any, len(args))
	for i, a := range args {
		if e, ok := a.(error); ok && e != nil {
			out[i] = plain{l.render(e)}
		} else {
			out[i] = plain{a}
		}
	}
	if _, ok := loadErrorsES()[key]; !ok {
		// A key the catalog lacks (a format without words, "%w: %v", or
		// any key in English) is its own message, %w printed as %v.
		key = wrapVerb().ReplaceAllString(key, "%${1}v")
	}
	return printer(l).Sprintf(key, out...)
}

// plain prints its value as fmt does: the message printer would regroup
// numbers by the language ("1.000"), which would change ids and counts.
type plain struct{ v any }

func (p plain) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), p.v)
}

var (
	printersOnce sync.Once
	printers     map[Lang]*message.Printer
)

// wrapVerb is a %w verb (with an explicit index or not): the message
// printer prints errors with %v.
var wrapVerb = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%(\[\d+\])?w`) }) // compiled on first use, not at start

func printer(l Lang) *message.Printer {
	printersOnce.Do(func() {
		b := catalog.NewBuilder(catalog.Fallback(language.English))
		for en, es := range loadErrorsES() {
			must(b.SetString(language.English, en, wrapVerb().ReplaceAllString(en, "%${1}v")))
			must(b.SetString(language.Spanish, en, wrapVerb().ReplaceAllString(es, "%${1}v")))
		}
		printers = map[Lang]*message.Printer{
			EN: message.NewPrinter(language.English, message.Catalog(b)),
			ES: message.NewPrinter(language.Spanish, message.Catalog(b)),
		}
	})
	if p, ok := printers[l]; ok {
		return p
	}
	return printers[EN]
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
