package web_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// tscPath is TypeScript's compiler: $JOURNAL_TSC, else tsc on PATH
// (.ci/run installs the npm package typescript outside the repository and
// sets $JOURNAL_TSC); "" when there is none.
func tscPath() string {
	if p := os.Getenv("JOURNAL_TSC"); p != "" {
		return p
	}
	p, _ := exec.LookPath("tsc")
	return p
}

// TestStaticScriptsTypeCheck runs TypeScript's checker over the pages'
// scripts (tsconfig.json: allowJs, checkJs, noEmit, strictNullChecks):
// each script it lists says // @ts-check on its first line, has JSDoc
// types where they are not inferred, and checks clean. Every script of
// web/static that says // @ts-check is listed, so that the pragma is never
// a promise nobody keeps.
func TestStaticScriptsTypeCheck(t *testing.T) {
	var cfg struct {
		CompilerOptions map[string]any `json:"compilerOptions"`
		Files           []string       `json:"files"`
	}
	b, err := os.ReadFile("tsconfig.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &cfg))
	for _, opt := range []string{"allowJs", "checkJs", "noEmit", "strictNullChecks"} {
		require.Equal(t, true, cfg.CompilerOptions[opt], "tsconfig.json: %s", opt)
	}
	scripts, err := filepath.Glob(filepath.Join("static", "*.js"))
	require.NoError(t, err)
	for _, s := range scripts {
		src, err := os.ReadFile(s)
		require.NoError(t, err)
		first, _, _ := strings.Cut(string(src), "\n")
		checked := strings.TrimSpace(first) == "// @ts-check"
		listed := slices.Contains(cfg.Files, filepath.ToSlash(s))
		require.Equal(t, checked, listed, "%s: // @ts-check on its first line (%v) and listed in tsconfig.json's files (%v) go together", s, checked, listed)
	}
	for _, f := range cfg.Files {
		_, err := os.Stat(f)
		require.NoError(t, err, "tsconfig.json lists %s", f)
	}

	tsc := tscPath()
	if tsc == "" {
		t.Skip("tsc not installed: the pages' scripts are not type-checked (npm install typescript, then set $JOURNAL_TSC or put tsc on PATH; .ci/run does)")
	}
	out, err := exec.Command(tsc, "-p", "tsconfig.json").CombinedOutput()
	require.NoError(t, err, "tsc -p web/tsconfig.json:\n%s", out)
}
