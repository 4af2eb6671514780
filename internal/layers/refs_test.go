package layers

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReferencesStayInTheClone: code, scripts, help and docs cite the
// project's own specification (docs/design.md, docs/rules.md, …), never a
// file a clone does not have (the old DESIGN.md or RULES.md next to it) or
// a tracker's issue number; every docs/*.md cited exists.
func TestReferencesStayInTheClone(t *testing.T) {
	root := "../.."
	outside := regexp.MustCompile(`(^|[^/\w])(DESIGN|RULES)\.md|\.\./shared/|\bissue \d+\b|\bissue \[\d+\]`)
	cited := regexp.MustCompile(`docs/([a-z0-9_-]+\.md)`)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if ext != ".go" && ext != ".js" && ext != ".md" && ext != ".html" {
			return nil
		}
		if strings.HasSuffix(path, "refs_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			if m := outside.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q, which a clone does not have: cite docs/design.md or docs/rules.md", path, i+1, strings.TrimSpace(m))
			}
			for _, c := range cited.FindAllStringSubmatch(line, -1) {
				if _, err := os.Stat(filepath.Join(root, "docs", c[1])); err != nil {
					t.Errorf("%s:%d cites docs/%s, which does not exist", path, i+1, c[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d files: the test runs from internal/layers", checked)
	}
}
