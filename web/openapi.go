package web

// GET /api/openapi.json: an OpenAPI 3.1 document of the HTTP API, made
// from the route table (Routes, TableRoutes) and the command catalogue at
// each request, so that it describes the server that answers it.
//
// Invariants:
//   - Every route of Routes and TableRoutes has its path and method, with
//     its doc as summary, a parameter per {name} of its pattern and per
//     ?name= its doc names; every catalogued command but campaign-create
//     (POST /api/campaigns) has a path of its own,
//     /api/campaigns/{c}/commands/<name>, whose request body is its
//     schema (catalog.Spec.Schema) and whose Idempotency-Key header is
//     described.
//   - Every operation answers the error responses with the error body's
//     schema, made by reflection from errorBody (what writeError writes),
//     so the document follows the shape the code writes.
//   - Bearer tokens (access.go) are the security of every route but the
//     public ones (publicRoutes): an invite's redemption and a
//     permalink's evidence, opened by what their path carries.
//   - Every "$ref" names a component the document has.

import (
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
)

// OpenAPIPath is the route of the OpenAPI document.
const OpenAPIPath = "/api/openapi.json"

// openAPIRoutes is the document's own route.
func (s *Server) openAPIRoutes() []Route {
	return []Route{
		{http.MethodGet, OpenAPIPath, "this API as an OpenAPI 3.1 document: every route, and every command with its body's JSON Schema", s.getOpenAPI},
	}
}

func (s *Server) getOpenAPI(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, s.OpenAPI())
}

// publicRoutes are the /api/ routes registered outside the route tables,
// which need no bearer token.
var publicRoutes = []Route{
	{Method: http.MethodGet, Pattern: "/api/invites/{token}", Doc: "whom an invite is for, without using it (no bearer token: the invite's token is the path's)"},
	{Method: http.MethodPost, Pattern: "/api/invites/{token}", Doc: "redeem an invite once: register the device's key (body: {\"public_key\": HEX}; none for a viewer) and get the device's session token"},
	{Method: http.MethodGet, Pattern: "/api/permalinks/{c}/{id}", Doc: "a roll's evidence, opened by its permalink's capability ?k= (no bearer token)"},
}

// The document's component names.
const (
	errorSchema   = "Error"
	resultSchema  = "CommandResult"
	errorRefBase  = "#/components/responses/"
	schemaRefBase = "#/components/schemas/"
	bearerScheme  = "bearer"
)

// errorStatuses are the error responses every operation describes.
var errorStatuses = []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden,
	http.StatusNotFound, http.StatusConflict, http.StatusTooManyRequests}

// errorWhy says when each error status is answered.
var errorWhy = map[int]string{
	http.StatusBadRequest:      "bad input: malformed JSON, an unknown member, a value of the wrong type, a request the rules refuse",
	http.StatusUnauthorized:    "no known bearer token (with an access file)",
	http.StatusForbidden:       "the token's user may not do this (its role, campaign or characters), or a cross-origin browser request",
	http.StatusNotFound:        "unknown campaign, character, skill, event or route",
	http.StatusConflict:        "a conflict with the state (already exists, a concurrent write)",
	http.StatusTooManyRequests: "a rate limit (Retry-After says when to try again) or the campaign's quota",
}

// commandSchemaName is the component of a command's body.
func commandSchemaName(name string) string { return "command." + name }

// OpenAPI is the API's OpenAPI 3.1 document.
func (s *Server) OpenAPI() map[string]any {
	paths := map[string]map[string]any{}
	add := func(rt Route, op map[string]any) {
		p := pathOf(rt.Pattern)
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		paths[p][strings.ToLower(rt.Method)] = op
	}
	for _, rt := range slices.Concat(s.Routes(), s.TableRoutes()) {
		add(rt, s.operation(rt))
	}
	for _, rt := range publicRoutes {
		op := s.operation(rt)
		op["security"] = []any{}
		add(rt, op)
	}
	schemas := map[string]any{
		errorSchema:  errorBodySchema(),
		resultSchema: catalog.OutputSchemaOf(reflect.TypeFor[resultJSON]()),
	}
	for _, spec := range catalog.All() {
		schemas[commandSchemaName(spec.Name)] = spec.Schema()
		if spec.Creates {
			continue // POST /api/campaigns
		}
		rt := Route{Method: http.MethodPost, Pattern: "/api/campaigns/{c}/commands/" + spec.Name, Doc: spec.Doc}
		op := s.operation(rt)
		op["operationId"] = "command-" + spec.Name
		op["tags"] = []string{"commands"}
		op["description"] = commandDescription(spec)
		op["requestBody"] = jsonBody(schemaRefBase + commandSchemaName(spec.Name))
		op["responses"].(map[string]any)[strconv.Itoa(commandStatus(spec.Name))] = resultResponse()
		add(rt, op)
	}
	responses := map[string]any{}
	for _, st := range errorStatuses {
		responses[strconv.Itoa(st)] = map[string]any{
			"description": http.StatusText(st) + ": " + errorWhy[st],
			"content":     map[string]any{"application/json": map[string]any{"schema": ref(schemaRefBase + errorSchema)}},
		}
	}
	responses["default"] = map[string]any{
		"description": "any other error (405 wrong method, 413 body too large, 415 not JSON, 421 unknown Host, 500, 503), with the same body",
		"content":     map[string]any{"application/json": map[string]any{"schema": ref(schemaRefBase + errorSchema)}},
	}
	return map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": catalog.Draft2020,
		"info": map[string]any{
			"title":   "campaign journal",
			"version": "1",
			"description": "The campaign journal's HTTP API (journal serve). With an access file every /api/ request carries " +
				"`Authorization: Bearer <token>` (a token from `journal access add`, or a device's from an invite); without one " +
				"the server answers on loopback only and needs no token. Commands are POST /api/campaigns/{c}/commands/{name} " +
				"with the command's JSON body; an Idempotency-Key header (or the body's request_id) records a retried command once. " +
				"An error's message is in the language of serve --lang, else of Accept-Language; message_en is English; key and args are its English format string and arguments. " +
				"A journal-dice-v2 roll is signed by the player's device: a bot redeems an invite with its own key (POST /api/invites/{token}) " +
				"and sends the signed roll-request and roll-reveal; examples/v2-client/client.mjs in the repository is a working client.",
		},
		"servers":  []any{map[string]any{"url": "/"}},
		"security": []any{map[string]any{bearerScheme: []string{}}},
		"paths":    paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{bearerScheme: map[string]any{
				"type": "http", "scheme": "bearer",
				"description": "a token of the access file's user (journal access add / access token) or of a device an invite signed in",
			}},
			"schemas":   schemas,
			"responses": responses,
		},
	}
}

// commandStatus is the status of a command that succeeded (execute).
func commandStatus(name string) int {
	if name == "campaign-create" || name == "character-create" {
		return http.StatusCreated
	}
	return http.StatusOK
}

// commandDescription says who may issue a command.
func commandDescription(spec catalog.Spec) string {
	d := spec.Doc + ". The GM's"
	if spec.Role == catalog.Player {
		d = spec.Doc + ". A player's too, for their own character (the body's " + spec.Acting + ")"
	}
	return d + "; the journal's command line: journal " + spec.CLI + "."
}

// operation is one route's operation: its summary, parameters and the
// error responses; a command route's body and result are added by the
// caller.
func (s *Server) operation(rt Route) map[string]any {
	responses := map[string]any{}
	for _, st := range errorStatuses {
		responses[strconv.Itoa(st)] = ref(errorRefBase + strconv.Itoa(st))
	}
	responses["default"] = ref(errorRefBase + "default")
	op := map[string]any{
		"summary":     rt.Doc,
		"operationId": operationID(rt),
		"responses":   responses,
	}
	if tag := tagOf(rt.Pattern); tag != "" {
		op["tags"] = []string{tag}
	}
	var params []any
	for _, name := range pathParams(rt.Pattern) {
		params = append(params, map[string]any{"name": name, "in": "path", "required": true,
			"schema": map[string]any{"type": "string"}, "description": paramDocs[name]})
	}
	for _, name := range queryParams(rt.Doc) {
		params = append(params, map[string]any{"name": name, "in": "query", "schema": map[string]any{"type": "string"}})
	}
	if rt.Method == http.MethodPost {
		params = append(params, map[string]any{"name": IdempotencyKey, "in": "header", "schema": catalog.RequestIDSchema(),
			"description": "the request id: a command retried with the same one is recorded once, and the retry gets the original events"})
	}
	if params != nil {
		op["parameters"] = params
	}
	switch {
	case rt.Pattern == "/api/campaigns/{c}/commands/{name}":
		op["requestBody"] = jsonBody("")
		op["description"] = "the command named in the path, with its body; each command has its own path below, with its body's schema"
		responses["200"] = resultResponse()
		responses["201"] = resultResponse()
	case rt.Method == http.MethodPost && rt.Pattern == "/api/campaigns":
		responses["201"] = resultResponse()
		op["requestBody"] = jsonBody(schemaRefBase + commandSchemaName("campaign-create"))
		op["description"] = "the body's id and system are required"
	default:
		responses["200"] = map[string]any{"description": "OK", "content": map[string]any{"application/json": map[string]any{}}}
		if rt.Method == http.MethodPost {
			op["requestBody"] = map[string]any{"content": map[string]any{"application/json": map[string]any{}}}
		}
	}
	return op
}

// paramDocs describes the path parameters by name.
var paramDocs = map[string]string{
	"c":     "the campaign's id",
	"ch":    "the character's id",
	"name":  "the command's or action's name",
	"id":    "an event, device, call or proposal id",
	"s":     "the session's id",
	"token": "the invite's token",
}

func ref(to string) map[string]any { return map[string]any{"$ref": to} }

// jsonBody is a required JSON request body of the schema at schemaRef
// (any object when "").
func jsonBody(schemaRef string) map[string]any {
	schema := map[string]any{"type": "object"}
	if schemaRef != "" {
		schema = ref(schemaRef)
	}
	return map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": schema}}}
}

// resultResponse is a command's answer: the events it recorded.
func resultResponse() map[string]any {
	return map[string]any{"description": "what the command recorded (repeated: a retry under the same request id, which recorded nothing new)",
		"content": map[string]any{"application/json": map[string]any{"schema": ref(schemaRefBase + resultSchema)}}}
}

// errorBodySchema is the schema of what writeError writes, with the
// classification's codes where the body names one.
func errorBodySchema() *catalog.Schema {
	sc := catalog.OutputSchemaOf(reflect.TypeFor[errorBody]())
	sc.Description = "every error response's body"
	var codes []string
	for _, c := range command.Classes() {
		codes = append(codes, c.Code)
	}
	for _, c := range statusClasses { // the codes only this door gives
		if !slices.Contains(codes, c.Code) {
			codes = append(codes, c.Code)
		}
	}
	slices.Sort(codes)
	var mark func(*catalog.Schema)
	mark = func(s *catalog.Schema) {
		for name, p := range s.Properties {
			if name == "code" && p.Type == "string" {
				p.Enum = codes
			}
			switch name {
			case "message":
				p.Description = "the error in the request's language (serve --lang, else Accept-Language), rendered by its key"
			case "message_en":
				p.Description = "the error in English"
			case "key":
				p.Description = "the message's English format string (fmt verbs), the key of the journal's catalogue of errors; absent for an error the journal did not make"
			case "args":
				p.Description = "the key's arguments as text, in order (an error argument as its English message)"
			}
			mark(p)
		}
	}
	mark(sc)
	return sc
}

var (
	paramRE = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)(\.\.\.)?\}`)
	queryRE = regexp.MustCompile(`[?&]([a-z_]+)=`)
)

// pathOf is a net/http pattern as an OpenAPI path ({name...} as {name}).
func pathOf(pattern string) string {
	return paramRE.ReplaceAllString(strings.TrimSuffix(pattern, "{$}"), "{$1}")
}

// pathParams are the names of the pattern's wildcards, in order.
func pathParams(pattern string) []string {
	var out []string
	for _, m := range paramRE.FindAllStringSubmatch(pattern, -1) {
		out = append(out, m[1])
	}
	return out
}

// queryParams are the query parameters a route's doc names (?name=, &name=).
func queryParams(doc string) []string {
	var out []string
	for _, m := range queryRE.FindAllStringSubmatch(doc, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// tagOf groups a route by what it is about.
func tagOf(pattern string) string {
	parts := strings.Split(strings.TrimPrefix(pattern, "/api/"), "/")
	switch {
	case len(parts) >= 3 && parts[0] == "campaigns":
		return parts[2]
	case len(parts) > 0:
		return parts[0]
	}
	return ""
}

// operationID is a route's method and path as one identifier.
func operationID(rt Route) string {
	p := strings.NewReplacer("/api/", "", "/", "-", "{", "", "}", "", ".", "-").Replace(rt.Pattern)
	return strings.ToLower(rt.Method) + "-" + strings.Trim(p, "-")
}
