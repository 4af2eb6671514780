// Package helptopics holds the prose of the command line's help that is
// text, not wiring: the pages of 'journal help TOPIC' that are not
// commands (environment, exit-codes), in English and in Spanish side by
// side (topics/NAME.en.txt, topics/NAME.es.txt), the English
// descriptions (Long) and the Example sections of the commands
// (topics/commands.en.txt, topics/examples.txt: their Spanish is
// i18n's),
// the groups 'journal --help' lists the commands in, and the templates of
// the help and usage pages (templates/*.tmpl, text/template as cobra
// reads them). The cobra commands that show them, and the template
// functions, are built in cmd/journal.
//
// Invariants:
//   - Every topic has a page in every language (TestEveryTopicHasEveryLanguage):
//     Page never returns "" for a name in Topics.
//   - The texts are embedded in the binary: nothing is read at run time.
//   - Examples and Longs parse their file on each call: each returns a map
//     of its own.
package helptopics

import (
	"embed"
	"strings"
)

//go:embed topics/*.txt templates/*.tmpl
var files embed.FS

// Topics are the help topics that are not commands, in the order 'journal
// help' lists them.
var Topics = []string{"environment", "exit-codes"}

// Languages are the languages every topic is written in.
var Languages = []string{"en", "es"}

// Page is topic name's page in lang ("en" or "es"), "" when there is none.
func Page(name, lang string) string {
	b, err := files.ReadFile("topics/" + name + "." + lang + ".txt")
	if err != nil {
		return ""
	}
	return string(b)
}

// Examples are the Example sections by command path ("access add"),
// without the program's name: each a few command lines, two spaces in.
func Examples() map[string]string { return sections("topics/examples.txt") }

// Longs are the commands' descriptions in English (cobra's Long) by
// command path, as Examples.
func Longs() map[string]string { return sections("topics/commands.en.txt") }

// sections parses the embedded file name (parseSections).
func sections(name string) map[string]string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	return parseSections(string(b))
}

// parseSections reads examples.txt or commands.en.txt: "# " lines are
// comments, a line "== PATH" starts a command's section, and its lines up
// to the next one (blank lines at its end left out) are the section.
func parseSections(text string) map[string]string {
	out := map[string]string{}
	path := ""
	var lines []string
	flush := func() {
		for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
		if path != "" {
			out[path] = strings.Join(lines, "\n")
		}
		lines = nil
	}
	for line := range strings.SplitSeq(text, "\n") {
		if p, ok := strings.CutPrefix(line, "== "); ok {
			flush()
			path = strings.TrimSpace(p)
			continue
		}
		if path == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		lines = append(lines, line)
	}
	flush()
	return out
}

// HelpTemplate is cobra's help template, with the texts in the output's
// language (templates/help.tmpl).
func HelpTemplate() string { return mustRead("templates/help.tmpl") }

// UsageTemplate is cobra's usage template, with grouped commands, a
// compact global flags section, and the texts in the output's language
// (templates/usage.tmpl).
func UsageTemplate() string { return mustRead("templates/usage.tmpl") }

func mustRead(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	return string(b)
}

// A Group is a group of commands of 'journal --help'; its title in other
// languages is the catalogue's "help.group.ID".
type Group struct{ ID, Title string }

// Groups are the command groups of 'journal --help', in the order they
// are listed.
var Groups = []Group{
	{"play", "Table (play):"},
	{"characters", "Campaign and characters:"},
	{"combat", "Combat:"},
	{"tor", "The One Ring:"},
	{"audit", "Audit (read and verify):"},
	{"server", "Server:"},
	{"setup", "Setup:"},
	{"dev", "Development:"},
}

// GroupOf names the group of every top-level command. A command missing
// here is listed under "Additional Commands" (cmd/journal's
// TestEveryCommandHasAnExampleAndAGroup fails).
var GroupOf = map[string]string{
	"session": "play", "roll": "play", "contest": "play", "xp": "play", "token": "play",
	"day": "play", "rest": "play", "damage": "play", "heal": "play", "void": "play", "key": "play", "call": "play",
	"campaign": "characters", "character": "characters", "skill": "characters", "weapon": "characters",
	"combat": "combat", "attack": "combat", "reload": "combat", "heal-after-combat": "combat",
	"hope": "tor", "fellowship": "tor", "shadow": "tor", "madness": "tor", "trait": "tor",
	"advancement": "tor", "adventure": "tor",
	"log": "audit", "export": "audit", "replay": "audit", "explain": "audit", "stats": "audit", "odds": "audit", "verifier": "audit",
	"serve": "server", "access": "server", "invite": "server", "devices": "server", "backup": "server", "restore": "server", "healthcheck": "server", "migrate": "server",
	"demo": "setup", "login": "setup", "whoami": "setup", "version": "setup", "completion": "setup", "help": "setup",
	"bench": "dev",
}
