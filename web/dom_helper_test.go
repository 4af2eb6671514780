package web_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOneDOMHelper: the pages build elements with dom.js's el (no script
// writes its own) and call the API through dom.js's api (a script's api is
// a wrapper that gives it the page's token), every page that
// loads a script using them loads dom.js first, and the pages' words are
// i18n.js's alone (no script keeps a label table of its own).
func TestOneDOMHelper(t *testing.T) {
	ownEl := regexp.MustCompile(`(?m)^\s*function\s+el\s*\(|^\s*const\s+el\s*=\s*\(`)
	ownAPI := regexp.MustCompile(`(?m)^\s*(?:async\s+)?function\s+api\s*\(|^\s*const\s+api\s*=\s*(?:async\s*)?\(`)
	labels := regexp.MustCompile(`(?m)^\s*const\s+[A-Z_]*LABELS\s*=\s*\{`)
	scripts, err := filepath.Glob(filepath.Join("static", "*.js"))
	require.NoError(t, err)
	for _, s := range scripts {
		if filepath.Base(s) == "dom.js" {
			continue
		}
		src, err := os.ReadFile(s)
		require.NoError(t, err)
		require.Nil(t, ownEl.Find(src), "%s writes its own el: use JournalDOM.el (dom.js)", s)
		if ownAPI.Match(src) {
			require.Contains(t, string(src), "JournalDOM.api(", "%s writes its own api: wrap JournalDOM.api (dom.js)", s)
		}
		require.Nil(t, labels.Find(src), "%s keeps its own label table: its words belong in i18n.js", s)
	}
	tag := regexp.MustCompile(`<script src="/static/([a-z0-9_]+\.js)"></script>`)
	for _, page := range []string{"index.html", "table.html", "roll.html"} {
		b, err := os.ReadFile(filepath.Join("static", page))
		require.NoError(t, err)
		var order []string
		for _, m := range tag.FindAllSubmatch(b, -1) {
			order = append(order, string(m[1]))
		}
		require.Contains(t, order, "dom.js", "%s loads dom.js", page)
		for _, s := range order {
			if s == "dom.js" {
				break
			}
			require.Contains(t, []string{"i18n.js"}, s, "%s loads %s before dom.js", page, s)
		}
	}
}
