package helptopics

import (
	"strings"
	"testing"
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
	got := parseExamples("# a comment\n\n== a b\n  journal a b\n  journal a b --x\n\n== c\n  journal c\n")
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
