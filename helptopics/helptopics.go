// Package helptopics holds the prose of the command line's help that is
// text, not wiring: the pages of 'journal help TOPIC' that are not
// commands (environment, exit-codes), in English and in Spanish side by
// side (topics/NAME.en.txt, topics/NAME.es.txt), and the Example sections
// of the commands whose own definition has none (topics/examples.txt).
// The cobra commands that show them are built in cmd/journal.
//
// Invariants:
//   - Every topic has a page in every language (TestEveryTopicHasEveryLanguage):
//     Page never returns "" for a name in Topics.
//   - The texts are embedded in the binary: nothing is read at run time.
//   - Examples is parsed once and never changed: each call returns a copy.
package helptopics

import (
	"embed"
	"strings"
)

//go:embed topics/*.txt
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
func Examples() map[string]string {
	b, err := files.ReadFile("topics/examples.txt")
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	return parseExamples(string(b))
}

// parseExamples reads examples.txt: "# " lines are comments, a line
// "== PATH" starts a command's section, and its lines up to the next one
// (blank lines at its end left out) are the section.
func parseExamples(text string) map[string]string {
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
