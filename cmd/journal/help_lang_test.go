package main

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
)

// mostUsed are the commands whose Long must have a Spanish one (all but
// bench, serve, the environment topic and cobra's completion commands).
var mostUsed = []string{"", "roll", "contest", "explain", "log", "replay", "export", "session end", "session cosign",
	"session contribute", "verifier", "void", "invite", "odds", "odds ryf", "demo", "access", "access add",
	"access nats-config", "access rotate", "backup", "restore", "healthcheck", "key register", "migrate", "exit-codes"}

// helpNames are what a Spanish help keeps as it is: command lines, flags,
// placeholders, variables, values in «», the flags' values (player, gm...).
var helpNames = regexp.MustCompile("'journal [^']*'|`[^`]*`|«[^»]*»|--[a-z][a-z0-9-]*|journal-dice-v\\d+|\\$[A-Z_]+|\\b[A-Z][A-Z0-9_]+\\b|" +
	`\b(player|gm|viewer|dashboard|journal|skill|attribute|opposed|combat|session\.[a-z]+|roll\.[a-z]+|void\.[a-z]+)\b`)

// TestHelpHasSpanish walks every command of the tree: its Short and every
// flag's usage have a Spanish rendering (i18n/help_es.go), in Spanish
// words; the most used commands' Long too. It lists what is missing as
// ready-to-fill lines.
func TestHelpHasSpanish(t *testing.T) {
	root := newApp(io.Discard, io.Discard).rootCommand()
	shorts, flags := map[string]string{}, map[string]string{}
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		n++
		path := helpPath(c)
		if _, ok := i18n.HelpShort(path); !ok && c.Short != "" {
			shorts[path] = c.Short
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if _, ok := i18n.HelpFlag(f.Usage); !ok && f.Usage != "" {
				flags[f.Usage] = path
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	require.Greater(t, n, 100, "the walk reaches every command")
	var b strings.Builder
	for _, m := range []map[string]string{shorts, flags} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "\t%s: \"\", // %s\n", strconv.Quote(k), m[k])
		}
	}
	require.Emptyf(t, b.String(), "%d Shorts (by path) and %d flag usages have no Spanish in i18n/help_es.go:\n%s", len(shorts), len(flags), b.String())
	for _, path := range mostUsed {
		c, _, err := root.Find(strings.Fields(path))
		require.NoError(t, err, path)
		_, ok := i18n.HelpLong(path)
		require.Truef(t, ok || c.Long == "", "journal %s: its Long has no Spanish", path)
	}
	check := func(what, es string) {
		w, found := i18n.HasWord(helpNames.ReplaceAllString(es, ""), i18n.Words(i18n.EN))
		assert.Falsef(t, found, "the Spanish %s %q has the English word %q", what, es, w)
	}
	walk = func(c *cobra.Command) {
		if s, ok := i18n.HelpShort(helpPath(c)); ok {
			check("Short of "+helpPath(c), s)
		}
		if s, ok := i18n.HelpLong(helpPath(c)); ok {
			check("Long of "+helpPath(c), s)
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if s, ok := i18n.HelpFlag(f.Usage); ok {
				check("usage of --"+f.Name, s)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

// helpPath is c's path without the root's name ("" for the root): the key
// clihelp looks a Short or Long up by in i18n.
func helpPath(c *cobra.Command) string {
	return strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), c.Root().Name()), " ")
}

// TestHelpInSpanish: under --lang es (or a Spanish locale) the help has
// Spanish headings and texts, no English heading; under --lang en it is
// cobra's English.
func TestHelpInSpanish(t *testing.T) {
	c := newCLI(t)
	english := []string{"Usage:", "Flags:", "Examples:", "Available Commands:", "Commands:", "Global flags", "Help topics:",
		`Use "`, "[flags]", "[command]", "(default ", "help for ", "Table (play):", " string ", " duration "}
	for _, args := range [][]string{{"--lang", "es", "roll", "--help"}, {"roll", "--help"}, {"--lang", "es", "--help"},
		{"--lang", "es", "help", "session", "end"}, {"--lang", "es", "contest", "-h"}, {"--lang", "es", "session"}} {
		out, errb, code := c.run(args...) // the harness's locale is es_ES
		require.Equal(t, 0, code, "%v: %s", args, errb)
		for _, w := range english {
			require.NotContainsf(t, out, w, "journal %s", strings.Join(args, " "))
		}
		require.Contains(t, out, "Uso:")
	}
	es := c.ok("--lang", "es", "roll", "--help")
	for _, w := range []string{"Uso:", "Ejemplos:", "Órdenes:", "Opciones:", "Opciones globales", "[opciones]", "ayuda de roll",
		"Tira 1o3d10 con los dados comprometidos", "--with-attr texto", "(por defecto 14)"} {
		require.Contains(t, es, w)
	}
	require.Contains(t, c.ok("--lang", "es", "--help"), "Mesa (juego):")
	en := c.ok("--lang", "en", "roll", "--help")
	for _, w := range []string{"Usage:", "Examples:", "Commands:", "Flags:", "[flags]", "help for roll", "--with-attr string", "Roll 1o3d10 from"} {
		require.Contains(t, en, w)
	}
	require.Contains(t, c.ok("--lang", "en", "--help"), "Table (play):")
}
