package web_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// hostileName is a character's display name that is HTML and Markdown: an
// image whose error runs a script, a link's end and a link, an image.
const hostileName = `<img src=x onerror=alert(1)>](javascript:1)![x](e)`

// TestForumLineEscapes: the forum line of a roll of a character named with
// HTML and Markdown gives no tag, link or image of the name's to a forum:
// in Markdown, "<" and ">" are entities and the link, image and emphasis
// characters are escaped, so the line is one link, the permalink; in
// BBCode, the name's brackets are parentheses, so the line is one
// [url]…[/url].
func TestForumLineEscapes(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, memBackend())
	h.setup("mordor")
	body, err := json.Marshal(map[string]any{"id": "xss", "name": hostileName, "player": "Eve", "attributes": "F=6,R=6,D=6,I=6,P=6", "skills": "Pelea=3", "specialization": "Pelea"})
	require.NoError(t, err)
	h.command("mordor", "character-create", string(body), http.StatusCreated)
	h.command("mordor", "session-start", `{}`, http.StatusOK)
	roll := h.command("mordor", "roll", `{"character":"xss","skill":"Pelea"}`, http.StatusOK).Recorded[0].Event.ID

	b.do(t, "open the dashboard", chromedp.Navigate(h.url+"/?campaign=mordor"), chromedp.WaitVisible(rollSel(roll)))
	copyLine := func(kind, button string) string {
		t.Helper()
		b.do(t, "copy the "+kind+" line", chromedp.Click(rollSel(roll)+` button.`+button))
		waitTrue(t, b, "the "+kind+" line", `document.querySelector('`+rollSel(roll)+` output.copied').dataset.kind === "`+kind+`"`)
		return eval[string](t, b, `document.querySelector('`+rollSel(roll)+` output.copied').textContent`)
	}

	md := copyLine("markdown", "copy-md")
	t.Log(md)
	require.Contains(t, md, `&lt;img src=x onerror=alert\(1\)&gt;\]\(javascript:1\)\!\[x\]\(e\)`, "the name, escaped")
	require.NotContains(t, md, "<", "a tag in the Markdown line")
	link := regexp.MustCompile(`^\[(.*)\]\((http://[^()\s]+)\)$`).FindStringSubmatch(md)
	require.NotNil(t, link, "one link: %s", md)
	require.True(t, strings.HasPrefix(link[2], h.url+"/r/mordor/"+roll), "the link is the permalink: %s", link[2])
	require.Empty(t, regexp.MustCompile(`(^|[^\\])[\[\]()!*_`+"`"+`]`).FindAllString(link[1], -1), "an unescaped link, image or emphasis character in the text: %s", link[1])

	bb := copyLine("bbcode", "copy-bb")
	t.Log(bb)
	require.True(t, strings.HasPrefix(bb, "[url="+link[2]+"]") && strings.HasSuffix(bb, "[/url]"), "bbcode line %q", bb)
	require.Equal(t, 2, strings.Count(bb, "["), "only the line's own tags: %s", bb)
	require.Equal(t, 2, strings.Count(bb, "]"), "only the line's own tags: %s", bb)

	// The escaping itself, on what else a name may hold.
	for _, tc := range []struct{ kind, text, want string }{
		{"markdown", `a & b`, `[a &amp; b](L)`},
		{"markdown", `&lt;script&gt;`, `[&amp;lt;script&amp;gt;](L)`},
		{"markdown", `<script>alert(1)</script>`, `[&lt;script&gt;alert\(1\)&lt;/script&gt;](L)`},
		{"markdown", `*bold* _it_ ~x~ a|b`, `[\*bold\* \_it\_ \~x\~ a\|b](L)`},
		{"markdown", "`code` back\\slash", "[\\`code\\` back\\\\slash](L)"},
		{"markdown", `[x](javascript:alert(1))`, `[\[x\]\(javascript:alert\(1\)\)](L)`},
		{"bbcode", `[img]x[/img] [url=javascript:1]y[/url]`, `[url=L](img)x(/img) (url=javascript:1)y(/url)[/url]`},
	} {
		js, _ := json.Marshal(tc.text)
		got := eval[string](t, b, `JournalFeed.forumText("`+tc.kind+`", `+string(js)+`, "L")`)
		require.Equal(t, tc.want, got, "%s of %s", tc.kind, tc.text)
	}
	require.False(t, eval[bool](t, b, `!!document.querySelector("#feed img")`), "the name made an element on the page")
}
