package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
)

// TestErrorsInOneLanguage: an error is written in the output's language
// (--lang, else $LANG), the whole line: a sample of every class of error
// (an unknown skill with its did-you-mean, a bad difficulty, a character's
// violations, an unknown flag or subcommand, cobra's argument count, a
// missing character or campaign, a replay mismatch). Its exit code and
// --json code are the same in every language; --json has the message in
// the language and message_en in English.
func TestErrorsInOneLanguage(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "Sigilo")
	lines := strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "export")), "\n")
	tampered, _ := tamperRoll(t, lines, 1, func(d map[string]any) { d["total"] = d["total"].(float64) + 1 })
	bad := writeExport(t, tampered)

	tests := []struct {
		name string
		args []string
		exit int
		en   string // in the English message
		es   string // in the Spanish message
	}{
		{"unknown skill", []string{"roll", "lodin", "Sigli"}, exitNotFound, `unknown skill "Sigli": did you mean Sigilo?`, `habilidad desconocida "Sigli": ¿quisiste decir Sigilo?`},
		{"unknown skill listed", []string{"roll", "lodin", "Cocina"}, exitNotFound, `unknown skill "Cocina": want one of`, `habilidad desconocida "Cocina": elige entre`},
		{"unknown attribute", []string{"roll", "lodin", "--attribute", "fuersa"}, exitNotFound, `did you mean Fuerza?`, `desconocido "fuersa": ¿quisiste decir Fuerza?`},
		{"bad difficulty", []string{"roll", "lodin", "Sigilo", "--vs", "dificl"}, exitUsage, `unknown difficulty "dificl": did you mean difícil?`, `dificultad desconocida "dificl": ¿quisiste decir difícil?`},
		{"bad number", []string{"roll", "lodin", "Sigilo", "--mod", "x"}, exitUsage, `--mod "x": want a whole number`, `--mod "x": se espera un número entero`},
		{"violations", []string{"character", "create", "bad", "--player", "p", "--attrs", "F=11", "--skills", "Pelea=9"}, exitFailure,
			"invalid character: F (Fuerza) = 11, want 2..10; R (Resistencia) is missing", "personaje no válido: F (Fuerza) = 11, se espera 2..10; falta R (Resistencia)"},
		{"unknown flag", []string{"roll", "lodin", "Sigilo", "--bogus"}, exitUsage, "unknown flag: --bogus (see 'journal roll --help')", "opción desconocida: --bogus (ver 'journal roll --help')"},
		{"unknown command", []string{"rol", "lodin"}, exitUsage, `unknown command "rol": did you mean "log" or "roll"?`, `orden "rol" desconocida: ¿quisiste decir "log" o "roll"?`},
		{"unknown subcommand", []string{"session", "strat"}, exitUsage, `journal session: unknown command "strat": did you mean "start"?`, `journal session: orden "strat" desconocida: ¿quisiste decir "start"?`},
		{"argument count", []string{"roll"}, exitUsage, "journal roll: accepts between 1 and 2 arguments, received 0", "journal roll: acepta entre 1 y 2 argumentos, recibió 0"},
		{"required flag", []string{"campaign", "create", "x"}, exitUsage, `required flag(s) "system" not set`, `falta la opción obligatoria "system"`},
		{"no character", []string{"character", "show", "lodni"}, exitNotFound, `no character "lodni" in campaign mordor: did you mean lodin?`, `no hay personaje "lodni" en la campaña mordor: ¿quisiste decir lodin?`},
		{"no campaign", []string{"-c", "nowhere", "campaign", "show"}, exitNotFound, "campaign nowhere does not exist", "la campaña nowhere no existe"},
		{"state of play", []string{"attack", "lodin", "orco", "--weapon", "Espada"}, exitFailure, "no combat in progress", "ningún combate en curso"},
		{"replay mismatch", []string{"replay", "--file", bad}, exitMismatch, "verification failed: 1 mismatch", "verificación fallida: 1 discrepancia"},
		{"bad language", []string{"--lang", "fr", "log"}, exitUsage, `unknown language "fr": want es or en`, `idioma desconocido "fr": se espera es o en`},
	}
	type run struct {
		name, locale string
		flag         []string
		want, other  i18n.Lang
	}
	runs := []run{
		{"--lang en", "es_ES.UTF-8", []string{"--lang", "en"}, i18n.EN, i18n.ES},
		{"--lang es", "en_US.UTF-8", []string{"--lang", "es"}, i18n.ES, i18n.EN},
		{"LANG=es_ES", "es_ES.UTF-8", nil, i18n.ES, i18n.EN},
		{"LANG=C", "C", nil, i18n.EN, i18n.ES},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			english := ""
			for _, r := range runs {
				if tt.name == "bad language" && r.flag != nil {
					continue // --lang fr is the error: the locale decides
				}
				t.Setenv("LANG", r.locale)
				args := append(append([]string{"-c", "mordor"}, r.flag...), tt.args...)
				_, errb, code := c.run(args...)
				require.Equal(t, tt.exit, code, "%s: %s", r.name, errb)
				require.Equal(t, 1, strings.Count(errb, "\n"), "one line: %q", errb)
				errorInOneLanguage(t, r.name+" "+strings.Join(tt.args, " "), errb, r.want, r.other)
				if r.want == i18n.EN {
					require.Contains(t, errb, tt.en, r.name)
					english = errb
				} else {
					require.Contains(t, errb, tt.es, r.name)
				}

				// --json: the same code, the message in the language, and in English.
				_, jerr, jcode := c.run(append(args, "--json")...)
				require.Equal(t, tt.exit, jcode)
				var doc struct {
					Error struct {
						Code      string `json:"code"`
						Message   string `json:"message"`
						MessageEN string `json:"message_en"`
						Exit      int    `json:"exit"`
					} `json:"error"`
				}
				require.NoError(t, json.Unmarshal([]byte(jerr), &doc), jerr)
				require.Equal(t, tt.exit, doc.Error.Exit)
				require.Contains(t, doc.Error.MessageEN, tt.en)
				require.Equal(t, strings.TrimPrefix(strings.TrimSpace(errb), "journal: "), doc.Error.Message, "the text's message")
				errorInOneLanguage(t, "--json "+r.name, doc.Error.Message, r.want, r.other)
			}
			require.NotEmpty(t, english)
		})
	}

	// A --lang after the flag that stops the parsing still counts.
	_, errb, code := c.run("-c", "mordor", "roll", "lodin", "--bogus", "--lang", "es")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errb, "opción desconocida: --bogus")
	_, errb, _ = c.run("-c", "mordor", "roll", "lodin", "--bogus", "--lang=en")
	require.Contains(t, errb, "unknown flag: --bogus")
}

// errorNames are the parts of an error line that are names in every
// language: the command path that starts it, cobra's usage line, quoted
// values (a flag's name, what the user typed).
var errorNames = regexp.MustCompile(`^journal( [a-z-]+)*: |\((usage|uso): [^)]*\)|"[^"]*"`)

// errorInOneLanguage fails when the error line has a word of other.
func errorInOneLanguage(t *testing.T, what, line string, want, other i18n.Lang) {
	t.Helper()
	oneLanguage(t, what, errorNames.ReplaceAllString(line, ""), want, other)
}

// TestJSONCodesStable: the machine fields of a --json error do not depend
// on the language; the violations' rule codes stay, their messages follow
// the language.
func TestJSONCodesStable(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	type violation struct{ Rule, Subject, Message string }
	type doc struct {
		Error struct {
			Code       string      `json:"code"`
			Exit       int         `json:"exit"`
			MessageEN  string      `json:"message_en"`
			Violations []violation `json:"violations"`
		} `json:"error"`
	}
	var docs []doc
	for _, l := range []string{"en", "es"} {
		_, errb, code := c.run("-c", "mordor", "--lang", l, "--json", "character", "create", "bad", "--player", "p", "--attrs", "F=11")
		require.Equal(t, exitFailure, code)
		var d doc
		require.NoError(t, json.Unmarshal([]byte(errb), &d), errb)
		docs = append(docs, d)
	}
	en, es := docs[0].Error, docs[1].Error
	require.Equal(t, "invalid", en.Code)
	require.Equal(t, en.Code, es.Code)
	require.Equal(t, en.Exit, es.Exit)
	require.Equal(t, en.MessageEN, es.MessageEN)
	require.Len(t, es.Violations, len(en.Violations))
	for i := range en.Violations {
		require.Equal(t, en.Violations[i].Rule, es.Violations[i].Rule)
		require.Equal(t, en.Violations[i].Subject, es.Violations[i].Subject)
		oneLanguage(t, "violation", es.Violations[i].Message, i18n.ES, i18n.EN)
	}
	require.Equal(t, "F (Fuerza) = 11, want 2..10", en.Violations[0].Message)
	require.Equal(t, "F (Fuerza) = 11, se espera 2..10", es.Violations[0].Message)
}
