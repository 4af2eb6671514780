package web_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
)

// errorWords are words of an error's prose that belong to one language
// only, besides the catalogue's label words (i18n.Words): a refusal in
// the other language must contain none of them.
var errorWords = map[i18n.Lang][]string{
	i18n.EN: {"invalid", "request", "unknown", "found", "must", "the", "is", "want", "missing", "already",
		"cannot", "without", "only", "roll", "allowed", "specialization", "needs", "has", "exist", "does", "mean", "one", "or", "at", "least", "open"},
	i18n.ES: {"desconocida", "desconocido", "petición", "válida", "válido", "debe", "falta", "personaje", "tirada",
		"sesión", "ya", "hay", "puede", "solo", "quisiste", "decir", "elige", "entre", "abierta", "existe", "espera"},
}

// ruleNames are what stays the same in every language: names and values
// quoted, capitalised names (skills, attributes, systems: Sigilo, Fuerza,
// RyF), ids and flags.
var ruleNames = regexp.MustCompile(`"[^"]*"|«[^»]*»|'[^']*'|\b\p{Lu}[\p{L}/]*\b|--[a-z-]+|[a-z]+(-[a-z]+)+`)

// oneLanguage fails t when text, in lang, has a word of the other language.
func oneLanguage(t *testing.T, what, text string, lang i18n.Lang) {
	t.Helper()
	other := i18n.EN
	if lang == i18n.EN {
		other = i18n.ES
	}
	bare := ruleNames.ReplaceAllString(text, " ")
	words := append(i18n.Words(other), errorWords[other]...)
	if w, found := i18n.HasWord(bare, words); found {
		t.Errorf("%s in %s has the %s word %q: %s", what, lang, other, w, text)
	}
}

// TestRefusalsInOneLanguage: the refusals of a table of representative
// commands over HTTP are whole in the language the request's
// Accept-Language asks for, rendered by key (the body's key and args are
// the English format and its arguments), and wholly English in English.
func TestRefusalsInOneLanguage(t *testing.T) {
	h := newHarness(t, memBackend())
	h.setup("mordor")
	h.command("mordor", "session-start", ``, http.StatusOK)
	for _, c := range []struct{ name, command, body string }{
		{"unknown skill", "roll", `{"character":"lodin","skill":"volar"}`},
		{"misspelt skill", "roll", `{"character":"lodin","skill":"sigli"}`},
		{"unknown character", "roll", `{"character":"lodni","skill":"Sigilo"}`},
		{"no such field", "roll", `{"character":"lodin","skill":"Sigilo","bogus":1}`},
		{"bad difficulty", "roll", `{"character":"lodin","skill":"Sigilo","vs":"imposible-del-todo"}`},
		{"invalid character", "character-create", `{"id":"ana","name":"Ana","player":"Ana","attributes":"F=11","skills":"Pelea=9"}`},
		{"second session", "session-start", ``},
		{"no combat", "combat-round", ``},
		{"negative damage", "damage", `{"character":"lodin","amount":-3}`},
		{"unknown target", "attack", `{"attacker":"ruisenor","target":"nadie","range":"corta"}`},
		{"negative xp", "xp", `{"character":"lodin","amount":-5}`},
		{"void nothing", "void", `{"event":"nope","reason":"x"}`},
		{"unknown command", "volar", `{}`},
	} {
		for _, lang := range []i18n.Lang{i18n.ES, i18n.EN} {
			r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/"+c.command, c.body, "Accept-Language", string(lang))
			require.GreaterOrEqual(t, r.status, 400, "%s: %s", c.name, r.body)
			var e struct {
				Error struct {
					Message   string   `json:"message"`
					MessageEN string   `json:"message_en"`
					Key       string   `json:"key"`
					Args      []string `json:"args"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(r.body, &e), "%s", r.body)
			require.NotEmpty(t, e.Error.Message, c.name)
			oneLanguage(t, c.name, e.Error.Message, lang)
			oneLanguage(t, c.name+" (message_en)", e.Error.MessageEN, i18n.EN)
			assert.NotEmpty(t, e.Error.Key, "%s: the body names its key: %s", c.name, r.body)
			t.Logf("%s [%s]: %s", c.name, lang, e.Error.Message)
		}
	}
}

// TestLogInTheRequestsLanguage: the table's log (recent) and a command's
// recorded lines are in the request's language, whatever the projector's
// own (the server was started without --lang).
func TestLogInTheRequestsLanguage(t *testing.T) {
	h := newHarness(t, memBackend())
	h.setup("mordor")
	h.command("mordor", "session-start", ``, http.StatusOK)
	for _, lang := range []i18n.Lang{i18n.ES, i18n.EN} {
		r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"Pelea"}`, "Accept-Language", string(lang))
		require.Equal(t, http.StatusOK, r.status, "%s", r.body)
		var res result
		r.json(t, &res)
		require.NotEmpty(t, res.Recorded)
		for _, rec := range res.Recorded {
			oneLanguage(t, "a command's recorded line", rec.Text, lang)
		}
		r = h.do(http.MethodGet, "/api/campaigns/mordor/recent", "", "Accept-Language", string(lang))
		require.Equal(t, http.StatusOK, r.status, "%s", r.body)
		var rec struct {
			Lines []struct{ Text string } `json:"lines"`
		}
		r.json(t, &rec)
		require.NotEmpty(t, rec.Lines)
		for _, l := range rec.Lines {
			oneLanguage(t, "the log", l.Text, lang)
		}
		t.Logf("%s: %s", lang, rec.Lines[len(rec.Lines)-1].Text)
	}
}
