// Package i18n is the journal's message catalogue: every label the journal
// writes for people (the transcript, the command line's tables and
// reports), in Spanish and in English, looked up by key.
//
// Invariants: every key exists in every language (TestEveryKeyInEveryLanguage);
// the catalogue is never modified after initialisation, so lookups are pure
// and safe from any goroutine; rule names (skills, difficulties, "1o3d10",
// attribute letters) are not labels and stay Spanish in both languages.
//
// A template is a fmt format: its verbs take the arguments in order. The
// whole catalogue of a language is exportable (Catalogue) as a JSON object
// of key → template for the browser.
//
// A message with a count has two forms, key.one and key.many, in every
// language (TestPluralForms); N picks one by the count ("1 session",
// "2 sessions"; "1 sesión", "0 sesiones"). The catalogue is made of parts
// (es.go, es_cli.go…), merged at initialisation; a key in two parts panics.
package i18n

import (
	"fmt"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Lang is a language of the catalogue.
type Lang string

// The languages of the catalogue.
const (
	ES Lang = "es"
	EN Lang = "en"
)

// Langs lists the catalogue's languages.
var Langs = []Lang{ES, EN}

// ErrUnknownLang is returned by Parse for a language the catalogue lacks.
var ErrUnknownLang = msgerr.New("unknown language")

// Parse reads a --lang value: "es" or "en" (any case).
func Parse(s string) (Lang, error) {
	switch l := Lang(strings.ToLower(strings.TrimSpace(s))); l {
	case ES, EN:
		return l, nil
	}
	return "", msgerr.Errorf("%w %q: want es or en", ErrUnknownLang, clip.Text(s))
}

// FromLocale picks the language of a locale such as $LANG: Spanish for
// es, es_ES.UTF-8, es-AR…; English for anything else, "" and "C" included.
func FromLocale(locale string) Lang {
	l := strings.ToLower(strings.TrimSpace(locale))
	if l == "es" || strings.HasPrefix(l, "es_") || strings.HasPrefix(l, "es-") || strings.HasPrefix(l, "es.") || strings.HasPrefix(l, "es@") {
		return ES
	}
	return EN
}

// FromEnv is the language of the user's locale as getenv (os.Getenv)
// gives it: the first of $LC_ALL, $LC_MESSAGES and $LANG that is set, as
// POSIX orders them (FromLocale); English when none is.
func FromEnv(getenv func(string) string) Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			return FromLocale(v)
		}
	}
	return EN
}

// Key names a message.
type Key string

// Or returns l, or Spanish for the zero Lang (the language the journal
// always wrote its transcript in).
func (l Lang) Or() Lang {
	if l == EN {
		return EN
	}
	return ES
}

// T returns the message k in l formatted with args (a literal percent sign
// is "%%" in every template). A key missing from the catalogue returns the
// key itself (the tests make sure none is).
func (l Lang) T(k Key, args ...any) string {
	tmpl, ok := catalogue[l.Or()][k]
	if !ok {
		return string(k)
	}
	return fmt.Sprintf(tmpl, args...)
}

// N returns the message k in the number of n: the template k+".one" when
// n is 1 or -1, k+".many" otherwise (0 included: "0 rolls", "0 tiradas"),
// formatted with n and then args. Both forms exist in every language
// (TestPluralForms).
func (l Lang) N(k Key, n int, args ...any) string {
	form := k + ".many"
	if n == 1 || n == -1 {
		form = k + ".one"
	}
	return l.T(form, append([]any{n}, args...)...)
}

// Catalogue returns a copy of the templates of l, key → template: the
// document a browser loads (json.Marshal of it).
func Catalogue(l Lang) map[string]string {
	src := catalogue[l.Or()]
	out := make(map[string]string, len(src))
	for k, v := range src {
		out[string(k)] = v
	}
	return out
}

// Keys returns every key of l's catalogue, sorted.
func Keys(l Lang) []Key {
	out := make([]Key, 0, len(catalogue[l.Or()]))
	for k := range catalogue[l.Or()] {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Words returns label words that belong to l's output only: an output in
// the other language must contain none of them (as whole words, ignoring
// case). The tests check outputs against them.
func Words(l Lang) []string { return slices.Clone(words[l.Or()]) }

// HasWord reports the first of words that text contains as a whole word,
// ignoring case.
func HasWord(text string, words []string) (string, bool) {
	tokens := map[string]bool{}
	for _, t := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && isLetter(r))
	}) {
		tokens[t] = true
	}
	for _, w := range words {
		if tokens[strings.ToLower(w)] {
			return w, true
		}
	}
	return "", false
}

func isLetter(r rune) bool {
	return strings.ContainsRune("áéíóúüñàèìòùç", r)
}

var catalogue = map[Lang]map[Key]string{ES: es, EN: en}

// more holds the catalogue's further parts (the command line's reports,
// replay, odds, The One Ring's sheets), merged into it at initialisation.
var more = map[Lang][]map[Key]string{ES: {esCLI, esReplay, esExplain}, EN: {enCLI, enReplay, enExplain}}

func init() {
	for l, parts := range more {
		for _, part := range parts {
			for k, v := range part {
				if _, dup := catalogue[l][k]; dup {
					panic("i18n: key " + string(k) + " defined twice in " + string(l))
				}
				catalogue[l][k] = v
			}
		}
	}
}

var words = map[Lang][]string{
	ES: {"campaña", "creada", "sistema", "definida", "daño", "precisión", "habilidad", "entra", "juego",
		"PV", "PX", "empieza", "termina", "sesión", "semilla", "tiradas", "enfrentada", "contra", "gana", "empate",
		"combate", "iniciativa", "asalto", "falla", "impacta", "recibe", "recupera", "sube", "máster", "recarga",
		"amanece", "anula", "anulado", "bien", "incapacitado", "inconsciente", "muerto", "tira", "nivel", "dados", "objetivo",
		"éxito", "fallo", "pifia", "crítico", "esperanza", "sombra", "comunidad", "aventura", "jugador", "personaje",
		"personajes", "sesiones", "habilidades", "jugadores", "tiradas", "ojo", "runa", "suerte", "leyenda",
		"esperado", "observado", "nombre", "atributo", "curación", "descanso",
		"verificada", "verificadas", "discrepancia", "discrepancias", "compromiso", "progreso", "locura", "rasgos",
		"defectos", "reserva", "evento", "eventos", "veredicto", "regla", "distribución", "hojas", "ninguno"},
	EN: {"campaign", "created", "system", "weapon", "defined", "damage", "precision", "skill", "enters", "play",
		"HP", "XP", "begins", "ends", "session", "seed", "rolls", "opposed", "against", "wins", "tie",
		"combat", "initiative", "round", "misses", "hits", "takes", "recovers", "raises", "GM", "reloads",
		"dawn", "voided", "incapacitated", "unconscious", "dead", "level", "dice", "success", "failure", "fumble",
		"critical", "hope", "shadow", "fellowship", "adventure", "player", "character", "characters", "sessions",
		"weapons", "skills", "players", "eye", "rune", "luck", "legend", "expected", "observed", "name", "attribute",
		"fists", "healing", "rest",
		"verified", "mismatch", "mismatches", "commitment", "advancement", "madness", "traits", "flaws", "pool",
		"event", "events", "verdict", "rule", "distribution", "sheets", "none"},
}
