package helptopics

import (
	"strings"
	"testing"
	"text/template"
)

func TestEveryTopicHasEveryLanguage(t *testing.T) {
	for _, name := range Topics {
		for _, lang := range Languages {
			if p := Page(name, lang); strings.TrimSpace(p) == "" {
				t.Errorf("topic %s has no page in %s", name, lang)
			}
		}
	}
	if Page("environment", "fr") != "" {
		t.Error("a page in a language not written")
	}
}

func TestExamples(t *testing.T) {
	got := parseSections("# a comment\n\n== a b\n  journal a b\n  journal a b --x\n\n== c\n  journal c\n")
	want := map[string]string{"a b": "  journal a b\n  journal a b --x", "c": "  journal c"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
	ex := Examples()
	if !strings.HasPrefix(ex["access add"], "  journal --access access.json access add gm") {
		t.Errorf("access add: %q", ex["access add"])
	}
	for path, text := range ex {
		if text == "" || strings.Contains(text, "== ") {
			t.Errorf("%s: %q", path, text)
		}
	}
}

// TestTemplatesParse: the templates parse as text/template with the
// functions cmd/journal adds (cobra's own stubbed), and every group of
// GroupOf is one of Groups.
func TestTemplatesParse(t *testing.T) {
	funcs := template.FuncMap{}
	for _, f := range []string{"compactFlags", "helpShort", "helpLong", "helpFlagUsages", "helpText", "helpUseLine", "helpGroup", "trimTrailingWhitespaces", "rpad"} {
		funcs[f] = func(...any) string { return "" }
	}
	for name, text := range map[string]string{"help": HelpTemplate(), "usage": UsageTemplate()} {
		if _, err := template.New(name).Funcs(funcs).Parse(text); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	ids := map[string]bool{}
	for _, g := range Groups {
		ids[g.ID] = true
	}
	for cmd, g := range GroupOf {
		if !ids[g] {
			t.Errorf("%s: group %q is not listed", cmd, g)
		}
	}
}
