package web

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// verifierScripts are the dashboard's modules the offline verifier inlines,
// in load order.
var verifierScripts = []string{"i18n.js", "dom.js", "dice.js", "dice2.js", "signed.js", "vendor/noble-curves.js", "beacon.js", "verify.js", "receipts.js", "verifier.js"}

// VerifierPage returns the offline verifier (`journal verifier`): one
// self-contained HTML document, its styles and scripts inlined, that
// checks a dropped export with no server (static/verifier.js) in lang.
// It loads nothing from anywhere: its Content-Security-Policy allows no
// connection, only its own inline code.
func VerifierPage(lang i18n.Lang) ([]byte, error) {
	css, err := staticFiles.ReadFile("static/app.css")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<!doctype html>
<html lang="%s">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>Campaign journal</title>
<style>
%s
.drop { border: 2px dashed var(--line); border-radius: .6rem; padding: 1.5rem 1rem; text-align: center; color: var(--muted); }
.drop.over { border-color: var(--accent); color: var(--accent); }
#rolls { list-style: none; padding: 0; margin: .6rem 0 0; display: flex; flex-direction: column; gap: .3rem; }
#result .headline { font-size: 1.1rem; margin: .6rem 0 .2rem; }
.verdict.flagged, #result ul.flags { color: var(--warn); }
</style>
</head>
<body>
<header class="top"><h1 data-i18n="x.title">Campaign journal — offline verifier</h1></header>
<main class="single">
<section class="panel">
<p data-i18n="x.intro"></p>
<div id="drop" class="drop"><p data-i18n="x.drop">Drop the file here</p>
<label><span data-i18n="x.choose">Choose an export</span> <input id="file" type="file" multiple accept=".jsonl,.json,.txt,application/json"></label>
<p class="quiet" data-i18n="x.proofAdd">Add proof files (journal roll prove --out) to check against the export</p></div>
<p><label><span data-i18n="x.receipts">Your device's receipts</span> <input id="receipts" type="file" accept=".jsonl,.json,.txt,application/json"></label></p>
<div id="result" role="status"></div>
<ol id="rolls"></ol>
</section>
</main>
`, lang, css)
	for _, name := range verifierScripts {
		js, err := staticFiles.ReadFile("static/" + name)
		if err != nil {
			return nil, err
		}
		if strings.Contains(strings.ToLower(string(js)), "</script") {
			return nil, msgerr.Errorf("web: %s holds </script and cannot be inlined", name)
		}
		fmt.Fprintf(&b, "<script>/* %s */\n%s</script>\n", name, js)
	}
	b.WriteString("</body>\n</html>\n")
	return b.Bytes(), nil
}
