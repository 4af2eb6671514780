package events

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// registeredTypes lists every registered event type, in the registry's
// order, for tests that go through them all.
var registeredTypes = func() []string {
	out := make([]string, len(registry))
	for i, t := range registry {
		out[i] = t.Type
	}
	return out
}()

// Every registered type has a subject name, and it is a valid token; its
// data is a pointer to a struct.
func TestEveryTypeHasAName(t *testing.T) {
	for _, info := range Types() {
		v, ok := dataFor(info.Type)
		require.Equal(t, reflect.Pointer, reflect.TypeOf(v).Kind(), info.Type)
		require.Equal(t, reflect.Struct, reflect.TypeOf(v).Elem().Kind(), info.Type)
		require.True(t, ok, "%s is not registered", info.Type)
		require.IsType(t, v, info.NewData(), info.Type)
		name := Name(info.Type)
		require.Equal(t, info.Name, name)
		require.NoError(t, ValidID(name), "Name(%s)", info.Type)
		require.Contains(t, []string{SystemAny, SystemRyF, SystemTOR}, info.System, info.Type)
		got, ok := LookupType(info.Type)
		require.True(t, ok)
		require.Equal(t, info.Type, got.Type)
	}
	require.Empty(t, Name("journal.nothing.v1"), "an unknown type has a name")
	_, ok := dataFor("journal.nothing.v1")
	require.False(t, ok)
	_, ok = LookupType("journal.nothing.v1")
	require.False(t, ok)
}

// TestEveryTypeConstantIsRegistered reads the package's own source: every
// exported constant named Type… is an event type with an entry in the
// registry, and every entry is the type of such a constant, so that a type
// added without its entry (or an entry without its constant) cannot pass.
func TestEveryTypeConstantIsRegistered(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	constants := map[string]string{} // value -> name
	for _, de := range entries {
		name := de.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		if f.Name.Name != "events" {
			continue
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if !strings.HasPrefix(id.Name, "Type") || !id.IsExported() {
						continue
					}
					require.Less(t, i, len(vs.Values), "%s: %s has no value of its own", name, id.Name)
					lit, ok := vs.Values[i].(*ast.BasicLit)
					require.True(t, ok && lit.Kind == token.STRING, "%s: %s is not a string literal", name, id.Name)
					value, err := strconv.Unquote(lit.Value)
					require.NoError(t, err)
					constants[value] = id.Name
				}
			}
		}
	}
	require.NotEmpty(t, constants)
	for value, name := range constants {
		_, ok := LookupType(value)
		require.True(t, ok, "%s (%s) is not in the registry (registry.go)", name, value)
	}
	for _, info := range registry {
		require.Contains(t, constants, info.Type, "the registry's %s has no Type… constant", info.Type)
	}
}
