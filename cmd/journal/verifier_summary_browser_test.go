package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestVerifierSummary: the offline verifier says replay's verdict in
// replay's words, lists every flag with its code (a request's too), and
// an export cut before a session's end is never a plain green OK; in
// English and in Spanish. The files are the verifiers' corpus's.
func TestVerifierSummary(t *testing.T) {
	c := newCLI(t)
	corpus := filepath.Join("..", "..", "web", "testdata", "corpus")
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(corpus, name))
		require.NoError(t, err)
		return string(b)
	}
	for _, lang := range []string{"en", "es"} {
		page := c.ok("--lang", lang, "verifier")
		file := filepath.Join(t.TempDir(), "verify.html")
		require.NoError(t, os.WriteFile(file, []byte(page), 0o644))
		ctx := verifierBrowser(t)
		open, cancel := context.WithTimeout(ctx, 20*time.Second)
		require.NoError(t, chromedp.Do(open, chromedp.Navigate("file://"+file), chromedp.WaitReady(`#drop`)))
		cancel()
		check := func(name string) (verdict, class, text string) {
			t.Helper()
			text2, err := json.Marshal(read(name))
			require.NoError(t, err)
			c, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			got, err := chromedp.Run(c, chromedp.Evaluate[[]string](`JournalVerifier.check("export.jsonl", `+string(text2)+`).then(() => { const r = document.getElementById("result"); return [r.dataset.verdict, r.className, r.textContent]; })`, chromedp.EvalAwaitPromise))
			require.NoError(t, err)
			return got[0], got[1], got[2]
		}
		words := map[string][3]string{
			"en": {"OK with 7 flags:", "repeated: request ", "Sessions not ended"},
			"es": {"OK con 7 avisos:", "repeated: la petición ", "Sesiones sin terminar"},
		}[lang]

		verdict, class, text := check("genuine/v2-flags.jsonl")
		require.Equal(t, "flagged", verdict, text)
		require.Contains(t, class, "flagged")
		require.Contains(t, text, words[0])
		require.Contains(t, text, words[1], "a flag on a request event is listed")

		// Cut mid-session: v2 is flagged open; v1 is OK, not yet revealed, and not shown as verified.
		verdict, class, text = check("tampered/v2-ryf.cut-10.jsonl")
		require.Equal(t, "flagged", verdict, text)
		require.Contains(t, text, " open: ", "the open flag, by its code")
		verdict, class, text = check("tampered/v1-ryf.cut-5.jsonl")
		require.Equal(t, "ok", verdict, text)
		require.Contains(t, class, "sealed", "not a plain green OK")
		require.Contains(t, text, words[2])

		verdict, _, text = check("tampered/v2-ryf.foreign-18.jsonl")
		require.Equal(t, "foreign", verdict, text)
		verdict, class, _ = check("tampered/v2-ryf.face-10.jsonl")
		require.Equal(t, "mismatch", verdict)
		require.Contains(t, class, "mismatch")
		shotVerifier(t, ctx, "verifier-summary-"+lang+".png")
	}
}
