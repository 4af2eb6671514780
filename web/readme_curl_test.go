package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/web"
)

// readmeCurlSection is the README's section of curl examples.
const readmeCurlSection = "## The HTTP API with curl"

// readmeServer is the address the README's examples name.
const readmeServer = "http://127.0.0.1:8080"

// TestREADMECurlExamples runs every curl request of the README's curl
// section, in order, against a real server with an access file (the
// README's GM token), as curl sends it (-d is a POST, -X names the method,
// -H headers, shell variables of the section expanded), and checks the
// status its comment says; a comment quoting "repeated": true is checked
// too, and the section's JSON error body has the shape the server's 400
// has.
func TestREADMECurlExamples(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), readmeCurlSection+"\n")
	require.True(t, ok, "README: no section %q", readmeCurlSection)
	section, _, _ = strings.Cut(section, "\n## ")

	const token = "readme-token-0123456789"
	cfg, err := access.New(access.User{Name: "ana", Role: access.RoleGM, Campaign: "mordor", Tokens: []string{access.HashToken(token)}})
	require.NoError(t, err)
	h := newHarnessWith(t, memBackend(), func(o *web.Options) { o.Access = cfg })

	vars := map[string]string{"TOKEN": token}
	assign := regexp.MustCompile(`^([A-Z_]+)="([^"]*)"$`)
	status := regexp.MustCompile(`^(\d{3})\b`)
	var errorBody []byte
	ran := 0
	for _, line := range joinContinued(section) {
		line = strings.TrimSpace(line)
		words, comment := shellWords(t, line, vars)
		if len(words) == 0 {
			continue
		}
		if words[0] != "curl" {
			for _, part := range strings.Split(line, ";") {
				if m := assign.FindStringSubmatch(strings.TrimSpace(part)); m != nil {
					vars[m[1]] = expand(m[2], vars)
				}
			}
			continue
		}
		m := status.FindStringSubmatch(comment)
		require.NotNil(t, m, "README: %q: its comment must start with the status it answers", line)
		want, _ := strconv.Atoi(m[1])
		method, url, data := "", "", ""
		var header []string
		hasData := false
		for i := 1; i < len(words); i++ {
			switch w := words[i]; {
			case w == "-s" || w == "-sS" || w == "-i":
			case w == "-H" || w == "--header":
				i++
				name, value, ok := strings.Cut(words[i], ":")
				require.True(t, ok, "README: %q: header %q", line, words[i])
				header = append(header, strings.TrimSpace(name), strings.TrimSpace(value))
			case w == "-d" || w == "--data" || w == "--data-raw":
				i++
				data, hasData = words[i], true
			case w == "-X" || w == "--request":
				i++
				method = words[i]
			case strings.HasPrefix(w, readmeServer+"/"):
				url = strings.TrimPrefix(w, readmeServer)
			default:
				t.Fatalf("README: %q: curl option %q is not one this test knows", line, w)
			}
		}
		require.NotEmpty(t, url, "README: %q: no URL of %s", line, readmeServer)
		if method == "" {
			method = http.MethodGet
			if hasData {
				method = http.MethodPost
			}
		}
		r := h.doCurl(method, url, data, hasData, header)
		require.Equal(t, want, r.status, "README: %q: %s", line, r.body)
		if strings.Contains(comment, `"repeated": true`) {
			var res struct {
				Repeated bool `json:"repeated"`
			}
			r.json(t, &res)
			require.True(t, res.Repeated, "README: %q: %s", line, r.body)
		}
		if want == http.StatusBadRequest {
			errorBody = r.body
		}
		ran++
	}
	require.GreaterOrEqual(t, ran, 10, "README: the curl examples")

	// The error body the section shows has the server's shape.
	_, block, ok := strings.Cut(section, "```json\n")
	require.True(t, ok, "README: the curl section shows no error body")
	block, _, _ = strings.Cut(block, "```")
	require.NotNil(t, errorBody, "README: no curl example answers 400")
	var shown, got any
	require.NoError(t, json.Unmarshal([]byte(block), &shown), "README's error body is JSON")
	require.NoError(t, json.Unmarshal(errorBody, &got))
	require.Equal(t, shapeOf(got), shapeOf(shown), "README's error body %s against the server's %s", block, errorBody)
}

// doCurl sends a request as curl does: -d without a Content-Type header
// is sent as a form.
func (h *harness) doCurl(method, path, data string, hasData bool, header []string) response {
	h.t.Helper()
	if hasData {
		ct := false
		for i := 0; i+1 < len(header); i += 2 {
			ct = ct || http.CanonicalHeaderKey(header[i]) == "Content-Type"
		}
		if !ct {
			header = append(header, "Content-Type", "application/x-www-form-urlencoded")
		}
	}
	if data == "" && hasData {
		data = " " // curl sends the empty body; do sends none for ""
	}
	return h.do(method, path, data, header...)
}

// shapeOf is a JSON value's members and their kinds, recursively (the
// values themselves left out but a status number's).
func shapeOf(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = shapeOf(x)
		}
		return out
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return v
	case bool:
		return "boolean"
	}
	return "null"
}

// joinContinued joins the lines that end in a backslash with the next.
func joinContinued(text string) []string {
	var out []string
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutSuffix(strings.TrimRight(line, " "), `\`); ok {
			cur += rest + " "
			continue
		}
		out = append(out, cur+line)
		cur = ""
	}
	return out
}

// shellWords splits a shell line into words (single and double quotes,
// $VAR expanded outside single quotes) and its comment (after an unquoted
// " #"); a line of a fenced block's marker or prose gives no words that
// matter to the caller.
func shellWords(t *testing.T, line string, vars map[string]string) ([]string, string) {
	var words []string
	var cur strings.Builder
	in := false
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			if c == '"' {
				quote = 0
			} else if c == '$' {
				name, n := varName(line[i+1:])
				cur.WriteString(vars[name])
				i += n
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '#' && (i == 0 || line[i-1] == ' '):
			if in {
				words = append(words, cur.String())
			}
			return words, strings.TrimSpace(line[i+1:])
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '$':
			name, n := varName(line[i+1:])
			cur.WriteString(vars[name])
			i += n
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words, ""
}

// varName is the shell variable name at the start of s and its length.
func varName(s string) (string, int) {
	n := 0
	for n < len(s) && (s[n] == '_' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= '0' && s[n] <= '9') {
		n++
	}
	return s[:n], n
}

// expand expands $VAR in s.
func expand(s string, vars map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' {
			name, n := varName(s[i+1:])
			b.WriteString(vars[name])
			i += n
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
