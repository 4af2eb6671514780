package i18n

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// Error messages.
//
// The catalogue of errors (errorsES) maps every English format string of
// the source to its Spanish template: TestEveryErrorHasSpanish scans the
// source (msgerr.Errorf, msgerr.New, fmt.Errorf, errors.New, the
// functions taking a "format string") and fails on one without an entry.
//
// The journal's own errors are keyed (internal/msgerr) and rendered by
// key (Render, render.go): nothing of theirs is read back from English.
// What follows, Error(msg), is the reader that remains for the messages
// the journal does not make (cobra's and pflag's, the operating system's
// and the libraries', and a keyed error whose key has no template): it
// reads msg as a composition of the catalogue's English format strings
// and writes each in Spanish.
//
// Invariants: English is returned as it is; what the templates' holes
// matched (ids, names, numbers, rule names such as skills and
// difficulties) is copied unchanged, except a hole of %s, %v or %w, whose
// text is itself rendered (it is usually an error); a message, or a part of
// it, that no template reads stays as it is (a library's message); a
// template whose name hole (%s) would hold English prose no template reads
// is not used, so that a part is written in one language, never half; the
// result is a pure function of the message, and Error is safe from any
// goroutine.

// Error returns the error message msg, written in English, in l.
func (l Lang) Error(msg string) string {
	if l.Or() == EN || msg == "" {
		return msg
	}
	return newReader(errorTemplates()).render(msg)
}

// Errors lists the English format strings of the catalogue of errors
// (the keys of errorsES and errorsExtra), sorted.
func Errors() []string {
	out := make([]string, 0, len(loadErrorsES()))
	for en := range loadErrorsES() {
		out = append(out, en)
	}
	slices.Sort(out)
	return out
}

// ErrorSpanish returns the Spanish template of the English format string
// en and whether the catalogue has one.
func ErrorSpanish(en string) (string, bool) {
	es, ok := loadErrorsES()[en]
	return es, ok
}

// NeedsTranslation reports whether the format string format has words in
// it (outside its verbs and flag names), so that it needs a Spanish
// rendering: "%w: %v", "--%s" or "--vs: %w" need none.
func NeedsTranslation(format string) bool {
	return letters(flagName().ReplaceAllString(strings.Join(parseFormat(format).lits, ""), "")) > 0
}

var flagName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--[a-z][a-z0-9-]*`) }) // compiled on first use, not at start

// CheckErrorTemplate returns an error unless es is a Spanish rendering of
// the English format string en: the same holes (each used once, in any
// order with explicit indexes such as %[2]s).
func CheckErrorTemplate(en, es string) error {
	e, s := parseFormat(en), parseFormat(es)
	if s.err != nil {
		return s.err
	}
	if len(s.order) != len(e.verbs) {
		return msgerr.Errorf("%d holes, the English has %d", len(s.order), len(e.verbs))
	}
	used := make([]bool, len(e.verbs))
	for i, k := range s.order {
		if k >= len(e.verbs) || used[k] {
			return msgerr.Errorf("hole %d: index %d used twice or out of range", i+1, k+1)
		}
		used[k] = true
		if s.verbs[i] != e.verbs[k] {
			return msgerr.Errorf("hole %d is %%%c, the English's is %%%c", i+1, s.verbs[i], e.verbs[k])
		}
	}
	return nil
}

// format is a parsed format string: the literals around its verbs
// (len(verbs)+1 of them), the verbs' letters, and for each verb the index
// of the argument it takes (explicit %[n]v indexes, else in order).
type format struct {
	lits  []string
	verbs []byte
	order []int
	err   error
}

var verbRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%[-+# 0]*(\[(\d+)\])?[0-9.*]*([a-zA-Z%])`) }) // compiled on first use, not at start

func parseFormat(f string) format {
	var p format
	last, next := 0, 0
	lit := ""
	for _, m := range verbRE().FindAllStringSubmatchIndex(f, -1) {
		lit += f[last:m[0]]
		last = m[1]
		verb := f[m[6]]
		if verb == '%' {
			lit += "%"
			continue
		}
		p.lits = append(p.lits, lit)
		lit = ""
		p.verbs = append(p.verbs, verb)
		if m[4] >= 0 {
			n, _ := strconv.Atoi(f[m[4]:m[5]])
			if n < 1 {
				p.err = msgerr.Errorf("bad index in %q", f[m[0]:m[1]])
				n = 1
			}
			next = n - 1
		}
		p.order = append(p.order, next)
		next++
	}
	p.lits = append(p.lits, lit+f[last:])
	return p
}

// letters counts the ASCII letters of s: how much English a template
// reads, its score.
func letters(s string) int {
	n := 0
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			n++
		}
	}
	return n
}

// template is an English format string with its Spanish rendering.
type template struct {
	en         format
	es         format
	score      int
	structural bool // one of structural: it splits, and reads nothing itself
}

var (
	templatesOnce sync.Once
	templates     []*template
)

// structural templates join messages: they need no words of their own.
// They are the shapes of the source's format strings without words
// ("%w: %w", "%w %q%s", "--vs: %w"...).
var structural = []string{"%s: %s", "%s; %s", "%s (%s)", "%s (%d)", "%s, %s", "%s %q", "%s %q: %s"}

func errorTemplates() []*template {
	templatesOnce.Do(func() {
		seen := map[string]bool{}
		add := func(en, es string) {
			if seen[en] {
				return
			}
			seen[en] = true
			t := &template{en: parseFormat(en), es: parseFormat(es)}
			t.score = letters(strings.Join(t.en.lits, ""))
			templates = append(templates, t)
			if v := withoutSentinel(t); v != nil {
				templates = append(templates, v)
			}
		}
		for _, en := range Errors() {
			add(en, loadErrorsES()[en])
		}
		// The messages of the catalogue's own errors ("err.…" keys, which
		// the command line writes with EN.T or EN.N).
		for _, k := range Keys(EN) {
			if strings.HasPrefix(string(k), "err.") {
				en, es := catalogue[EN][k], catalogue[ES][k]
				add(en, es)
				// A part appended to another (", 1 message that is not a
				// journal event") is read after a structural ", ".
				if e, ok := strings.CutPrefix(en, ", "); ok {
					if s, ok := strings.CutPrefix(es, ", "); ok {
						add(e, s)
					}
				}
			}
		}
		for _, s := range structural {
			add(s, s)
			templates[len(templates)-1].structural = true
		}
	})
	return templates
}

// withoutSentinel returns the template t reads once the command line has
// dropped its leading sentinel error ("%w: no character %q..." read as
// "no character %q..."), or nil when t starts with no "%w: " or "%w ".
func withoutSentinel(t *template) *template {
	e, s := t.en, t.es
	if len(e.verbs) == 0 || e.verbs[0] != 'w' || e.lits[0] != "" || len(s.order) == 0 || s.order[0] != 0 || s.lits[0] != "" {
		return nil
	}
	// The command line drops "invalid request: " and "not found: ": a
	// sentinel and ": ". Nothing else needs reading without its sentinel
	// (and "%w at %s" read as "at %s" would read "at least").
	const sep = ": "
	if !strings.HasPrefix(e.lits[1], sep) || !strings.HasPrefix(s.lits[1], sep) || e.lits[1] == sep {
		return nil // "%w: %s roll: %s" without its sentinel would read any "x roll: y"
	}
	v := &template{score: t.score}
	v.en = format{lits: append([]string{e.lits[1][len(sep):]}, e.lits[2:]...), verbs: e.verbs[1:]}
	v.es = format{lits: append([]string{s.lits[1][len(sep):]}, s.lits[2:]...), verbs: s.verbs[1:]}
	for i := range e.verbs[1:] {
		v.en.order = append(v.en.order, i)
	}
	for _, k := range s.order[1:] {
		v.es.order = append(v.es.order, k-1)
	}
	return v
}

// reader renders one message; it remembers what it rendered of its parts.
type reader struct {
	ts   []*template
	memo map[part]reading
}

// part is a text to read, and whether a template of one word (a sentinel
// such as "mismatch") may read it: in an error's hole (%w, %v) or a
// split message, not in a name's (%s) or a list's item, where "weapon" is
// a command's name.
type part struct {
	text string
	word bool
}

type reading struct {
	text       string
	score      int
	structural bool
	// loose: a structural split left a part of English prose unread in
	// it ("invitación desconocida: no widget"), which no template may
	// then join to words of its own.
	loose bool
}

func newReader(ts []*template) *reader { return &reader{ts: ts, memo: map[part]reading{}} }

// manySeparators is the number of separators (": ", "; ", ", ") from
// which a message is read as its parts between "; " (a list of
// violations), each on its own: reading a whole message takes a time that
// grows with the square of its separators. maxPart bounds a part read: a
// longer one is left as it is.
const (
	manySeparators = 24
	maxPart        = 2000
)

func (r *reader) render(msg string) string {
	if separators(msg) < manySeparators && len(msg) <= maxPart {
		return r.read(msg, true).text
	}
	parts := strings.Split(msg, "; ")
	for i, p := range parts {
		if len(p) <= maxPart {
			parts[i] = newReader(r.ts).read(p, true).text
		}
	}
	return strings.Join(parts, "; ")
}

func separators(s string) int {
	return strings.Count(s, ": ") + strings.Count(s, "; ") + strings.Count(s, ", ")
}

// read returns the best rendering of s: the one whose templates read the
// most English, or s itself when none reads any.
func (r *reader) read(s string, word bool) reading {
	key := part{s, word}
	if got, ok := r.memo[key]; ok {
		return got
	}
	r.memo[key] = reading{text: s} // a template that would read s in itself reads nothing
	best := reading{text: s}
	for _, t := range r.ts {
		lits := t.en.lits
		if len(t.en.verbs) == 0 {
			if s == lits[0] && t.score > best.score && (word || strings.Contains(s, " ")) {
				best = reading{text: t.es.lits[0], score: t.score}
			}
			continue
		}
		if !strings.HasPrefix(s, lits[0]) || !strings.HasSuffix(s, lits[len(lits)-1]) ||
			len(s) < len(lits[0])+len(lits[len(lits)-1]) || !containsAll(s, lits[1:len(lits)-1]) {
			continue
		}
		holes := make([]string, len(t.en.verbs))
		r.assign(t, s, 0, len(lits[0]), holes, &best)
	}
	r.memo[key] = best
	return best
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// assign tries every way the holes k.. of t can take s[pos:], keeping the
// best rendering in best.
func (r *reader) assign(t *template, s string, k, pos int, holes []string, best *reading) {
	lit := t.en.lits[k+1]
	if k == len(holes)-1 {
		end := len(s) - len(lit)
		if end < pos || !fits(t.en.verbs[k], s[pos:end]) {
			return
		}
		holes[k] = s[pos:end]
		r.score(t, holes, best)
		return
	}
	for j := pos; j <= len(s); j++ {
		i := strings.Index(s[j:], lit)
		if i < 0 {
			return
		}
		j += i
		if fits(t.en.verbs[k], s[pos:j]) {
			holes[k] = s[pos:j]
			r.assign(t, s, k+1, j+len(lit), holes, best)
		}
	}
}

// fits reports whether text can be what the verb wrote.
func fits(verb byte, text string) bool {
	switch verb {
	case 's', 'v':
		return true
	case 'w':
		return text != ""
	case 'q':
		if len(text) < 2 {
			return false
		}
		a, b := text[0], text[len(text)-1]
		return (a == '"' && b == '"') || (a == '\'' && b == '\'') || (a == '[' && b == ']') || (a == '`' && b == '`')
	}
	return text != "" && (!strings.Contains(text, " ") || text[0] == '[' || text[0] == '{')
}

// proseWords are English words no name is made of: a text with one of
// them and a space is a sentence, not a name.
var proseWords = map[string]bool{"no": true, "or": true, "and": true, "the": true, "of": true, "is": true,
	"not": true, "a": true, "an": true, "to": true, "in": true, "for": true, "with": true, "has": true,
	"have": true, "by": true, "at": true, "on": true, "was": true, "are": true, "its": true, "it": true,
	"this": true, "that": true, "from": true, "be": true, "may": true, "cannot": true, "want": true}

// prose reports whether text, a hole's, reads as English words of a
// sentence rather than a name or a value: a space, and a word of
// proseWords outside quotes.
func prose(text string) bool {
	if !strings.Contains(text, " ") {
		return false
	}
	for _, w := range strings.Fields(quoted().ReplaceAllString(text, "")) {
		if proseWords[strings.ToLower(strings.Trim(w, ".,;:()!?"))] {
			return true
		}
	}
	return false
}

var quoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"[^"]*"|'[^']*'|«[^»]*»|` + "`[^`]*`") }) // compiled on first use, not at start

// shortTemplate is the score under which a template's %w hole must hold
// an error the catalogue reads: a word or two between holes ("%w at %s",
// "%w in %s") would read any text that has them.
const shortTemplate = 8

// score renders t with holes and keeps it when it reads more than best.
func (r *reader) score(t *template, holes []string, best *reading) {
	score, loose := t.score, false
	texts := make([]string, len(holes))
	for i, h := range holes {
		texts[i] = h
		if v := t.en.verbs[i]; v == 's' || v == 'v' || v == 'w' {
			got := r.read(h, v != 's' || t.structural && t.en.lits[1] != ", ")
			if v == 'w' && got.score == 0 && t.score < shortTemplate {
				return // "%w at %s" reads "needs at least" only if "needs" is an error
			}
			unread := got.loose || got.score == 0 && prose(h)
			if v == 's' && unread && !t.structural {
				// A name's hole holding English no template reads is a
				// fragment of a sentence ("no device or invite %q" read by
				// "%s or %s"): translating the words around it would write
				// half a sentence in each language.
				return
			}
			loose = loose || unread && t.structural
			texts[i], score = got.text, score+got.score
		}
	}
	// Of two readings that read as much, the one that splits first wins:
	// "x: a is missing; b is missing" is x, then two violations, not one
	// violation whose name is "x: a is missing; b".
	if score < best.score || score == best.score && (score == 0 || !t.structural || best.structural) {
		return
	}
	var b strings.Builder
	for i, lit := range t.es.lits {
		b.WriteString(lit)
		if i < len(t.es.order) {
			b.WriteString(texts[t.es.order[i]])
		}
	}
	*best = reading{text: b.String(), score: score, structural: t.structural, loose: loose}
}
