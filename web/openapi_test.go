package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/web"
)

// TestCommandsListSchemas: GET /api/commands gives every command's body
// whole: required always a list, and the body's JSON Schema with every
// member (roll's skill, vs, token… which its zero-value example omits).
func TestCommandsListSchemas(t *testing.T) {
	h := newHarness(t, memBackend())
	var listed []struct {
		Name     string          `json:"name"`
		Body     json.RawMessage `json:"body"`
		Required json.RawMessage `json:"required"`
		Schema   struct {
			Type                 string                     `json:"type"`
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		} `json:"schema"`
	}
	h.get("/api/commands", http.StatusOK, &listed)
	require.NotEmpty(t, listed)
	for _, c := range listed {
		spec, ok := catalog.Lookup(c.Name)
		require.True(t, ok, c.Name)
		var req []string
		require.NoError(t, json.Unmarshal(c.Required, &req), "%s: required %s", c.Name, c.Required)
		require.NotNil(t, req, "%s: required is null, want a list", c.Name)
		want := append([]string{}, spec.Required...)
		require.Equal(t, want, req, c.Name)
		require.Equal(t, "object", c.Schema.Type, c.Name)
		require.Equal(t, want, c.Schema.Required, c.Name)
		require.NotNil(t, c.Schema.AdditionalProperties, c.Name)
		require.False(t, *c.Schema.AdditionalProperties, c.Name)
		require.Contains(t, c.Schema.Properties, catalog.RequestIDField, c.Name)
		require.NotEmpty(t, c.Body, "%s: the example body is kept", c.Name)
		if c.Name == "roll" {
			for _, m := range []string{"character", "skill", "attribute", "vs", "modifier", "token", "specialization", "entropy", "tn", "trait"} {
				require.Contains(t, c.Schema.Properties, m, "roll's schema")
			}
		}
	}
}

// openAPI fetches and decodes the OpenAPI document.
func openAPI(t *testing.T, h *harness, header ...string) map[string]any {
	t.Helper()
	r := h.do(http.MethodGet, web.OpenAPIPath, "", header...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(r.body, &doc), "the document is JSON")
	return doc
}

// TestOpenAPIDocument: /api/openapi.json is an OpenAPI 3.1 document with a
// path and method for every route (its path parameters named), one path
// per command with its body's schema, the error responses with the error
// body's schema, bearer security, and every $ref resolving.
func TestOpenAPIDocument(t *testing.T) {
	h := newHarness(t, memBackend())
	doc := openAPI(t, h)
	require.Equal(t, "3.1.0", doc["openapi"])
	paths := doc["paths"].(map[string]any)
	wild := regexp.MustCompile(`\{([a-z]+)\}`)
	routes := slices.Concat(h.web.Routes(), h.web.TableRoutes())
	require.True(t, slices.ContainsFunc(routes, func(rt web.Route) bool { return rt.Pattern == web.OpenAPIPath }))
	for _, rt := range routes {
		item, ok := paths[rt.Pattern].(map[string]any)
		require.True(t, ok, "no path %s", rt.Pattern)
		op, ok := item[strings.ToLower(rt.Method)].(map[string]any)
		require.True(t, ok, "no %s %s", rt.Method, rt.Pattern)
		require.Equal(t, rt.Doc, op["summary"])
		var params []string
		if ps, ok := op["parameters"].([]any); ok {
			for _, p := range ps {
				if p := p.(map[string]any); p["in"] == "path" {
					params = append(params, p["name"].(string))
				}
			}
		}
		var want []string
		for _, m := range wild.FindAllStringSubmatch(rt.Pattern, -1) {
			want = append(want, m[1])
		}
		require.Equal(t, want, params, "%s %s: path parameters", rt.Method, rt.Pattern)
		responses := op["responses"].(map[string]any)
		for _, st := range []string{"400", "401", "403", "404", "409", "429"} {
			require.Contains(t, responses, st, "%s %s", rt.Method, rt.Pattern)
		}
	}
	for _, spec := range catalog.All() {
		if spec.Creates {
			continue
		}
		p := "/api/campaigns/{c}/commands/" + spec.Name
		item, ok := paths[p].(map[string]any)
		require.True(t, ok, "no path %s", p)
		post := item["post"].(map[string]any)
		body := post["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
		schema := resolve(t, doc, body["$ref"].(string)).(map[string]any)
		require.Equal(t, "object", schema["type"])
		var got []string
		for _, r := range schema["required"].([]any) {
			got = append(got, r.(string))
		}
		require.Equal(t, spec.Required, got, spec.Name)
		require.Contains(t, schema["properties"], catalog.RequestIDField)
	}
	comps := doc["components"].(map[string]any)
	scheme := comps["securitySchemes"].(map[string]any)["bearer"].(map[string]any)
	require.Equal(t, "http", scheme["type"])
	require.Equal(t, "bearer", scheme["scheme"])
	// The error body's schema is what an error answers.
	errSchema := resolve(t, doc, "#/components/schemas/Error").(map[string]any)
	r := h.do(http.MethodPost, "/api/campaigns/nope/commands/roll", `{"character":`)
	require.Equal(t, http.StatusBadRequest, r.status, "%s", r.body)
	var errBody map[string]any
	r.json(t, &errBody)
	props := errSchema["properties"].(map[string]any)
	for k := range errBody {
		require.Contains(t, props, k, "the error body's member %s is described", k)
	}
	for _, k := range errSchema["required"].([]any) {
		require.Contains(t, errBody, k, "the error body has %s", k)
	}

	// Every $ref resolves.
	refs := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if to, ok := v["$ref"].(string); ok {
				refs++
				resolve(t, doc, to)
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	require.Greater(t, refs, len(catalog.All()))
	ids := map[string]bool{}
	for p, item := range paths {
		for m, op := range item.(map[string]any) {
			id := op.(map[string]any)["operationId"].(string)
			require.False(t, ids[id], "%s %s: operationId %s twice", m, p, id)
			ids[id] = true
		}
	}
}

// resolve follows a local $ref ("#/a/b") in doc.
func resolve(t *testing.T, doc map[string]any, ref string) any {
	t.Helper()
	rest, ok := strings.CutPrefix(ref, "#/")
	require.True(t, ok, "$ref %s: not local", ref)
	var cur any = doc
	for _, part := range strings.Split(rest, "/") {
		m, ok := cur.(map[string]any)
		require.True(t, ok, "$ref %s: %s of a non-object", ref, part)
		cur, ok = m[part]
		require.True(t, ok, "$ref %s does not resolve (%s)", ref, part)
	}
	return cur
}

// TestOpenAPIAuthenticated: with an access file the document needs a
// token, like /api/commands.
func TestOpenAPIAuthenticated(t *testing.T) {
	h := newHarnessWith(t, memBackend(), func(o *web.Options) { o.Access = accessConfig(t) })
	r := h.do(http.MethodGet, web.OpenAPIPath, "")
	require.Equal(t, http.StatusUnauthorized, r.status, "%s", r.body)
	doc := openAPI(t, h, bearer(beaToken)...)
	require.Equal(t, "3.1.0", doc["openapi"])
}

// TestMalformedBodyIs400: a body that does not decode is bad input, 400,
// for the GM and for a player, with and without an access file; only a
// real permission problem is 403.
func TestMalformedBodyIs400(t *testing.T) {
	bodies := []string{`{"character":`, `["ruisenor"]`, `{"character":"ruisenor","skill":3}`, `{"character":"ruisenor","nope":1}`, `nonsense`}
	roll := "/api/campaigns/mordor/commands/roll"
	open := newHarness(t, memBackend())
	open.setup("mordor")
	guarded := newAccessHarness(t)
	for _, body := range bodies {
		wantError(t, "open server: "+body, open.do(http.MethodPost, roll, body), http.StatusBadRequest)
		for _, tok := range []string{anaToken, beaToken} {
			before := guarded.count(t)
			wantError(t, tok+": "+body, guarded.do(http.MethodPost, roll, body, bearer(tok)...), http.StatusBadRequest)
			require.Equal(t, before, guarded.count(t), "nothing recorded")
		}
	}
	// Permission problems stay 403.
	wantError(t, "another's character", guarded.do(http.MethodPost, roll, `{"character":"lodin","skill":"Sigilo"}`, bearer(beaToken)...), http.StatusForbidden)
	wantError(t, "the GM's command", guarded.do(http.MethodPost, "/api/campaigns/mordor/commands/damage", `{"character":"lodin","amount":5}`, bearer(beaToken)...), http.StatusForbidden)
	wantError(t, "another's character, with an unknown member", guarded.do(http.MethodPost, roll, `{"character":"lodin","nope":1}`, bearer(beaToken)...), http.StatusForbidden)
	wantError(t, "the acting field twice", guarded.do(http.MethodPost, roll, `{"character":"ruisenor","Character":"lodin"}`, bearer(beaToken)...), http.StatusForbidden)
	wantError(t, "the dashboard", guarded.do(http.MethodPost, roll, `{"character":`, bearer(wallToken)...), http.StatusForbidden)
	wantError(t, "a stranger", guarded.do(http.MethodPost, roll, `{"character":`, bearer(zedToken)...), http.StatusForbidden)
}

// openAPICheck validates the document given as argv[1] with the Python
// openapi-spec-validator, checks every schema as draft 2020-12, and that
// each command's schema refuses an unknown member.
const openAPICheck = `
import json, sys
from openapi_spec_validator import validate
from jsonschema import Draft202012Validator
d = json.load(open(sys.argv[1]))
validate(d)
for name, s in d["components"]["schemas"].items():
    Draft202012Validator.check_schema(s)
    if name.startswith("command."):
        v = Draft202012Validator(s)
        assert not v.is_valid({"no_such_member": 1}), name
print("ok", len(d["paths"]))
`

// TestOpenAPIValidWithRealTools: the document passes the reference
// Python validators (openapi-spec-validator, jsonschema), when installed.
func TestOpenAPIValidWithRealTools(t *testing.T) {
	if err := exec.Command("python3", "-c", "import openapi_spec_validator, jsonschema").Run(); err != nil {
		t.Skip("python3 with openapi-spec-validator and jsonschema not installed")
	}
	h := newHarness(t, memBackend())
	r := h.do(http.MethodGet, web.OpenAPIPath, "")
	require.Equal(t, http.StatusOK, r.status)
	file := filepath.Join(t.TempDir(), "openapi.json")
	require.NoError(t, os.WriteFile(file, r.body, 0o600))
	out, err := exec.Command("python3", "-c", openAPICheck, file).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "ok ")
}
