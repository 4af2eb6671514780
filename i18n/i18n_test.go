package i18n_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
)

// verbs lists a template's fmt verbs in order.
var verbs = regexp.MustCompile(`%[-+# 0]*[0-9.]*[a-zA-Z%]`)

func TestEveryKeyInEveryLanguage(t *testing.T) {
	for _, a := range i18n.Langs {
		for _, b := range i18n.Langs {
			if a == b {
				continue
			}
			cb := i18n.Catalogue(b)
			for k, ta := range i18n.Catalogue(a) {
				tb, ok := cb[k]
				require.Truef(t, ok, "key %q is in %s but not in %s", k, a, b)
				require.Equalf(t, verbs.FindAllString(ta, -1), verbs.FindAllString(tb, -1),
					"key %q: the %s and %s templates take different arguments", k, a, b)
			}
		}
	}
}

func TestCatalogueIsJSON(t *testing.T) {
	for _, l := range i18n.Langs {
		b, err := json.Marshal(i18n.Catalogue(l))
		require.NoError(t, err)
		var back map[string]string
		require.NoError(t, json.Unmarshal(b, &back))
		require.Len(t, back, len(i18n.Keys(l)))
		// A copy: changing it changes nothing.
		c := i18n.Catalogue(l)
		c["tr.combat_round"] = "x"
		require.NotEqual(t, "x", l.T("tr.combat_round", 1))
	}
}

func TestParseAndLocale(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want i18n.Lang
		err  bool
	}{{"es", i18n.ES, false}, {"EN", i18n.EN, false}, {" en ", i18n.EN, false}, {"fr", "", true}, {"", "", true}} {
		got, err := i18n.Parse(tc.in)
		if tc.err {
			require.ErrorIs(t, err, i18n.ErrUnknownLang, tc.in)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.want, got)
	}
	for in, want := range map[string]i18n.Lang{
		"es_ES.UTF-8": i18n.ES, "es": i18n.ES, "es-AR": i18n.ES, "ES_mx": i18n.ES,
		"en_US.UTF-8": i18n.EN, "C": i18n.EN, "": i18n.EN, "POSIX": i18n.EN, "est_EE": i18n.EN, "de_DE": i18n.EN,
	} {
		require.Equal(t, want, i18n.FromLocale(in), in)
	}
}

func TestLookup(t *testing.T) {
	require.Equal(t, "Asalto 2.", i18n.ES.T("tr.combat_round", 2))
	require.Equal(t, "Round 2.", i18n.EN.T("tr.combat_round", 2))
	require.Equal(t, "Asalto 2.", i18n.Lang("").T("tr.combat_round", 2), "the zero Lang is Spanish")
	require.Equal(t, "no.such.key", i18n.EN.T("no.such.key"))
}

// TestWordsAreOneLanguage: no label word of one language is a word of the
// other's templates, so that the output tests can tell them apart.
func TestWordsAreOneLanguage(t *testing.T) {
	for _, l := range i18n.Langs {
		for _, other := range i18n.Langs {
			if l == other {
				continue
			}
			for k, tmpl := range i18n.Catalogue(l) {
				w, found := i18n.HasWord(tmpl, i18n.Words(other))
				require.Falsef(t, found, "%s template %q (%s) has the %s word %q", l, k, tmpl, other, w)
			}
		}
	}
}

func TestHasWord(t *testing.T) {
	w, ok := i18n.HasWord("Combat, round 1 then Asalto 2", i18n.Words(i18n.ES))
	require.True(t, ok)
	require.Equal(t, "asalto", w)
	_, ok = i18n.HasWord("Rounds of «Sigilo» (fácil), 1o3d10", i18n.Words(i18n.ES))
	require.False(t, ok, "rule names are no labels")
	_, ok = i18n.HasWord("lodin incapacitado", i18n.Words(i18n.EN))
	require.False(t, ok)
}

func TestWidth(t *testing.T) {
	for s, want := range map[string]int{
		"": 0, "Lodin": 5, "Ruiseñor": 8, "Ruisen\u0303or": 8, "«Moria»": 7, "指輪物語": 8, "🐉x": 3, "█░": 2, "🚀": 2, "⚡": 2,
	} {
		require.Equal(t, want, i18n.Width(s), s)
	}
}

// TestPluralForms: a message with a number has both forms in every
// language, and N picks the form by the number.
func TestPluralForms(t *testing.T) {
	for _, l := range i18n.Langs {
		keys := map[i18n.Key]bool{}
		for _, k := range i18n.Keys(l) {
			keys[k] = true
		}
		for k := range keys {
			if base, ok := strings.CutSuffix(string(k), ".one"); ok {
				require.Truef(t, keys[i18n.Key(base+".many")], "%s: %s has no .many", l, k)
			}
			if base, ok := strings.CutSuffix(string(k), ".many"); ok {
				require.Truef(t, keys[i18n.Key(base+".one")], "%s: %s has no .one", l, k)
			}
		}
	}
	for _, tc := range []struct {
		l    i18n.Lang
		n    int
		want string
	}{
		{i18n.EN, 1, "1 session"}, {i18n.EN, 0, "0 sessions"}, {i18n.EN, 2, "2 sessions"}, {i18n.EN, -1, "-1 session"},
		{i18n.ES, 1, "1 sesión"}, {i18n.ES, 0, "0 sesiones"}, {i18n.ES, 3, "3 sesiones"},
	} {
		require.Equal(t, tc.want, tc.l.N("rp.sessions", tc.n))
	}
	require.Equal(t, "1 roll, in progress", i18n.EN.N("print.session_row", 1, "in progress"), "the number first, then the arguments")
}

// TestFromEnv: the first of LC_ALL, LC_MESSAGES and LANG that is set
// decides, as POSIX orders them; none set is English.
func TestFromEnv(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	require.Equal(t, i18n.EN, i18n.FromEnv(env(nil)))
	require.Equal(t, i18n.ES, i18n.FromEnv(env(map[string]string{"LANG": "es_ES.UTF-8"})))
	require.Equal(t, i18n.EN, i18n.FromEnv(env(map[string]string{"LC_MESSAGES": "C", "LANG": "es_ES.UTF-8"})))
	require.Equal(t, i18n.ES, i18n.FromEnv(env(map[string]string{"LC_ALL": "es_AR", "LC_MESSAGES": "en_US", "LANG": "en_US"})))
}
