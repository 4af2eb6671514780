package catalog

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// structMembers lists the JSON members of struct t the plain way
// (reflect.VisibleFields, the way encoding/json names them), independent
// of jsonFields: what the schema must describe.
func structMembers(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for _, f := range reflect.VisibleFields(t) {
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" || !f.IsExported() || f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// zeroJSON is a zero value of a schema's type, as JSON.
func zeroJSON(s *Schema) string {
	switch s.Type {
	case "string":
		return `""`
	case "integer", "number":
		return `0`
	case "boolean":
		return `false`
	case "array":
		return `[]`
	case "object":
		return `{}`
	}
	return `null`
}

// wrongJSON is a value of another type than the schema's.
func wrongJSON(s *Schema) string {
	if s.Type == "string" {
		return `7`
	}
	return `"x"`
}

// TestEveryCommandHasItsSchema: every catalogued command's schema has
// exactly its request type's JSON members (and request_id), each of the
// type encoding/json takes (its zero value decodes, a value of another
// type is refused), its required list is the Spec's (never null), and no
// other member is allowed — as DecodeStrict refuses one.
func TestEveryCommandHasItsSchema(t *testing.T) {
	for _, s := range All() {
		sc := s.Schema()
		b, err := json.Marshal(sc)
		require.NoError(t, err)
		var doc map[string]any
		require.NoError(t, json.Unmarshal(b, &doc))
		require.Equal(t, "object", doc["type"], s.Name)
		require.Equal(t, false, doc["additionalProperties"], "%s: unknown members are refused", s.Name)
		req, ok := doc["required"].([]any)
		require.True(t, ok, "%s: required is %#v, want an array", s.Name, doc["required"])
		want := slices.Clone(s.Required)
		got := make([]string, len(req))
		for i, r := range req {
			got[i] = r.(string)
		}
		if want == nil {
			want = []string{}
		}
		require.Equal(t, want, got, "%s: required", s.Name)

		members := structMembers(s.BodyType())
		names := sc.PropertyNames()
		require.Contains(t, names, RequestIDField, s.Name)
		names = slices.DeleteFunc(names, func(n string) bool { return n == RequestIDField })
		wantNames := make([]string, 0, len(members))
		for n := range members {
			wantNames = append(wantNames, n)
		}
		slices.Sort(wantNames)
		require.Equal(t, wantNames, names, "%s (%s): the schema's properties", s.Name, s.BodyType())

		for _, n := range names {
			p := sc.Properties[n]
			require.NotEmpty(t, p.Type, "%s.%s: no type", s.Name, n)
			require.NoError(t, DecodeStrict([]byte(`{"`+n+`":`+zeroJSON(p)+`}`), reflect.New(s.BodyType()).Interface()),
				"%s.%s: a %s", s.Name, n, p.Type)
			require.Error(t, DecodeStrict([]byte(`{"`+n+`":`+wrongJSON(p)+`}`), reflect.New(s.BodyType()).Interface()),
				"%s.%s: not a %s", s.Name, n, p.Type)
			if p.Type == "array" {
				require.NotNil(t, p.Items, "%s.%s: an array of what", s.Name, n)
			}
		}

		// A body of the required members at their zero values decodes.
		var parts []string
		for _, n := range s.Required {
			p := sc.Properties[n]
			require.NotNil(t, p, "%s: required %q is not a property", s.Name, n)
			parts = append(parts, `"`+n+`":`+zeroJSON(p))
		}
		body := []byte("{" + strings.Join(parts, ",") + "}")
		require.NoError(t, DecodeStrict(body, reflect.New(s.BodyType()).Interface()), "%s: %s", s.Name, body)
		require.NoError(t, s.CheckBody(body), "%s: %s", s.Name, body)

		// A member the schema does not have is refused by both.
		const unknown = "no_such_member"
		require.NotContains(t, sc.Properties, unknown)
		bad := []byte(`{"` + unknown + `":1}`)
		require.ErrorIs(t, DecodeStrict(bad, reflect.New(s.BodyType()).Interface()), command.ErrInvalid, s.Name)
		require.ErrorIs(t, s.CheckBody(bad), command.ErrInvalid, s.Name)
	}
}

// The roll's body is whole (every optional member listed, which the zero
// value's JSON omitted), request_id is an optional string, and signed
// messages' embedded members are flattened.
func TestSchemaExamples(t *testing.T) {
	roll, _ := Lookup("roll")
	sc := roll.Schema()
	require.Equal(t, []string{"attribute", "call", "character", "entropy", "modifier", RequestIDField, "secret", "skill", "specialization", "tn", "token", "trait", "vs"}, sc.PropertyNames())
	require.Equal(t, "integer", sc.Properties["tn"].Type)
	require.Equal(t, "boolean", sc.Properties["token"].Type)
	require.Equal(t, 1, *sc.Properties["character"].MinLength, "a required string may not be empty")
	require.Contains(t, sc.Properties["vs"].Examples, "difícil")
	require.NotContains(t, sc.Required, RequestIDField)

	rr, _ := Lookup("roll-request")
	require.Equal(t, []string{"character", RequestIDField, "signature", "signed", "wait"}, rr.Schema().PropertyNames())

	cs, _ := Lookup("combat-start")
	p := cs.Schema().Properties["participants"]
	require.Equal(t, "array", p.Type)
	require.Equal(t, "string", p.Items.Type)

	cc, _ := Lookup("campaign-create")
	require.Equal(t, []string{"ryf", "galaxia", "tor"}, cc.Schema().Properties["system"].Enum)
	ss, _ := Lookup("session-start")
	require.Equal(t, []string{"v1", "v2"}, ss.Schema().Properties["dice"].Enum)

	b, err := json.Marshal(ss.Schema())
	require.NoError(t, err)
	require.Contains(t, string(b), `"required":[]`)
}

// jsonFields follows encoding/json: embedded members are flattened, a
// shallower member wins over an embedded one, "-" and unexported fields
// are left out, ",string" is a string.
func TestJSONFieldsLikeEncodingJSON(t *testing.T) {
	type Inner struct {
		A string `json:"a"`
		B string `json:"b"`
		C string
	}
	type outer struct {
		Inner
		A      int `json:"a"`
		Skip   int `json:"-"`
		hidden int
		M      map[string]int `json:"m"`
		N      int            `json:"n,string"`
	}
	_ = outer{}.hidden
	sc := SchemaOf(reflect.TypeFor[outer]())
	require.Equal(t, []string{"C", "a", "b", "m", "n"}, sc.PropertyNames())
	require.Equal(t, "integer", sc.Properties["a"].Type)
	require.Equal(t, "string", sc.Properties["n"].Type)
	require.Equal(t, "integer", sc.Properties["m"].AdditionalProperties.(*Schema).Type)
	// What encoding/json does with the same members.
	var v outer
	require.NoError(t, DecodeStrict([]byte(`{"a":1,"b":"y","C":"x","m":{"k":1},"n":"2"}`), &v))
	require.Equal(t, 1, v.A)
	require.Error(t, DecodeStrict([]byte(`{"Skip":1}`), &v))
}

// The request id's pattern accepts exactly what events.ValidRequestID does.
func TestRequestIDSchemaPattern(t *testing.T) {
	re := regexp.MustCompile(RequestIDSchema().Pattern)
	for _, id := range []string{"roll-1", "0190a0a0-0000-7000-8000-000000000000", "a:b.c_d", "", "con espacio", "ñ", "x/y",
		strings.Repeat("a", events.MaxRequestIDLen), strings.Repeat("a", events.MaxRequestIDLen+1)} {
		require.Equal(t, events.ValidRequestID(id) == nil, re.MatchString(id), "%q", id)
	}
}
