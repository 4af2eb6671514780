package i18n_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
)

// errorFormat is a format string of an error the user can see, and where.
type errorFormat struct{ format, where string }

// skipDirs are the module's folders whose errors no user sees: test
// helpers and generators.
var skipDirs = map[string]bool{"testdata": true, "storetest": true, "embeddedtest": true, "recordtest": true,
	"livetest": true, "gen": true, "docs": true, "deploy": true, "grafana": true}

// foreignFiles are the files of the command line's libraries whose
// messages reach the user (cobra's argument and flag checks, pflag's
// flag errors), with the calls that make them.
var foreignFiles = []struct {
	module string
	files  []string
	calls  map[string]int
}{
	{"github.com/spf13/cobra", []string{"args.go", "flag_groups.go", "command.go"}, map[string]int{"fmt.Errorf": 0}},
	{"github.com/spf13/pflag", []string{"errors.go"}, map[string]int{"fmt.Sprintf": 0}},
}

// messageFields are the fields that hold an error's message in a
// composite literal.
var messageFields = map[string]bool{"msg": true, "Message": true, "Problem": true}

// TestEveryErrorHasSpanish scans the source of every package of the
// module (and the messages of cobra and pflag the command line shows) for
// the format strings of errors: msgerr.Errorf and msgerr.New (the journal's
// keyed errors), fmt.Errorf, errors.New, and every function
// taking a "format string" parameter (command's invalid and notFound, the
// CLI's usagef, the rules' add of a violation...). Each one with words
// in it must have a Spanish rendering in the catalogue of errors.
func TestEveryErrorHasSpanish(t *testing.T) {
	found := scanModule(t, "..")
	for _, ff := range foreignFiles {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", ff.module).Output()
		require.NoError(t, err, "go list -m %s", ff.module)
		dir := strings.TrimSpace(string(out))
		for _, f := range ff.files {
			found = append(found, scanFile(t, filepath.Join(dir, f), ff.module+"/"+f, ff.calls, nil)...)
		}
	}
	require.Greater(t, len(found), 300, "the scan finds the source's errors")
	missing, worded := map[string]string{}, map[string]bool{}
	for _, f := range found {
		if !i18n.NeedsTranslation(f.format) {
			continue
		}
		worded[f.format] = true
		if _, ok := i18n.ErrorSpanish(f.format); !ok {
			missing[f.format] = f.where
		}
	}
	t.Logf("%d error format strings in the source, %d distinct with words; %d in the catalogue", len(found), len(worded), len(i18n.Errors()))
	if len(missing) > 0 {
		keys := make([]string, 0, len(missing))
		for k := range missing {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "\t%s: \"\", // %s\n", strconv.Quote(k), missing[k])
		}
		t.Fatalf("%d error messages have no Spanish rendering. Add one line per message to i18n/errors_es.go "+
			"(errorsES: the English format string as written in the source → its Spanish, with the same verbs; "+
			"%%[2]s reorders them; names, ids and rule names in the holes are copied as they are):\n%s",
			len(missing), b.String())
	}
}

// names are what stays the same in every language: command lines quoted
// in a message ('journal key new', `chmod 600 x`), the command that
// starts it ("skill define: "), flags (--campaign), values in «»,
// placeholders (NAME, SESSION=HEX), variables ($JOURNAL_CAMPAIGN).
var names = regexp.MustCompile("'journal [^']*'|`[^`]*`|«[^»]*»|-c/|--[a-z][a-z0-9-]*|\\(journal [^)]*\\)|" +
	`journal-dice-v\d+|\$[A-Z_]+|\?[a-z_]+=|\b[A-Z][A-Z0-9_]+(=[A-Z]+)?\b|^[a-z]+(-[a-z]+)*( [a-z-]+)?: |\b[A-Z][a-z]+(-[A-Z][a-z]+)+\b`)

// TestErrorTemplates: every Spanish rendering takes the English's holes,
// and has no English label word.
func TestErrorTemplates(t *testing.T) {
	require.Greater(t, len(i18n.Errors()), 300)
	for _, en := range i18n.Errors() {
		es, _ := i18n.ErrorSpanish(en)
		require.NoErrorf(t, i18n.CheckErrorTemplate(en, es), "%q → %q", en, es)
		require.NotEmptyf(t, strings.TrimSpace(es), "%q has an empty Spanish rendering", en)
		w, found := i18n.HasWord(names.ReplaceAllString(es, ""), i18n.Words(i18n.EN))
		assert.Falsef(t, found, "the Spanish of %q, %q, has the English word %q", en, es, w)
	}
}

// scanModule scans every non-test Go file under root.
func scanModule(t *testing.T, root string) []errorFormat {
	t.Helper()
	var out []errorFormat
	dirs := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			dirs[filepath.Dir(p)] = append(dirs[filepath.Dir(p)], p)
		}
		return nil
	})
	require.NoError(t, err)
	for _, files := range dirs {
		calls := map[string]int{"fmt.Errorf": 0, "errors.New": 0, "msgerr.Errorf": 0, "msgerr.New": 0}
		consts := map[string]string{}
		for _, p := range files {
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
			require.NoError(t, err)
			formatTakers(f, calls)
			stringConsts(f, consts)
		}
		for _, p := range files {
			rel, _ := filepath.Rel(root, p)
			out = append(out, scanFile(t, p, rel, calls, consts)...)
		}
	}
	return out
}

// formatTakers adds to calls the functions (and closures assigned to a
// name) of f with a "format string" parameter, and its index.
func formatTakers(f *ast.File, calls map[string]int) {
	check := func(name string, ft *ast.FuncType) {
		i := 0
		for _, fld := range ft.Params.List {
			if len(fld.Names) == 0 {
				i++
				continue
			}
			for _, n := range fld.Names {
				if id, ok := fld.Type.(*ast.Ident); ok && id.Name == "string" && n.Name == "format" {
					calls[name] = i
				}
				i++
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			check(x.Name.Name, x.Type)
		case *ast.AssignStmt:
			for i, r := range x.Rhs {
				if fl, ok := r.(*ast.FuncLit); ok && i < len(x.Lhs) {
					if id, ok := x.Lhs[i].(*ast.Ident); ok {
						check(id.Name, fl.Type)
					}
				}
			}
		}
		return true
	})
}

// stringConsts adds f's string constants to consts.
func stringConsts(f *ast.File, consts map[string]string) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i < len(vs.Values) {
					if v, ok := constString(vs.Values[i], nil, false); ok {
						consts[n.Name] = v
					}
				}
			}
		}
	}
}

// constString evaluates a string expression: literals, constants, and
// with holes a concatenation ("did you mean " + x + "?" is "did you mean %s?").
func constString(e ast.Expr, consts map[string]string, holes bool) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.Ident:
		s, ok := consts[x.Name]
		return s, ok
	case *ast.ParenExpr:
		return constString(x.X, consts, holes)
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, okA := constString(x.X, consts, holes)
		b, okB := constString(x.Y, consts, holes)
		if !okA && !okB {
			return "", false
		}
		if !holes && (!okA || !okB) {
			return "", false
		}
		if !okA {
			a = "%s"
		}
		if !okB {
			b = "%s"
		}
		return a + b, true
	}
	return "", false
}

// scanFile returns the format strings passed to calls in the file at path.
func scanFile(t *testing.T, path, where string, calls map[string]int, consts map[string]string) []errorFormat {
	t.Helper()
	fs := token.NewFileSet()
	f, err := parser.ParseFile(fs, path, nil, 0)
	require.NoError(t, err)
	var out []errorFormat
	found := func(e ast.Expr, pos token.Pos) {
		if c, ok := e.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(c.Args) > 0 {
				e = c.Args[0]
			}
		}
		if s, ok := constString(e, consts, true); ok {
			out = append(out, errorFormat{format: s, where: fmt.Sprintf("%s:%d", where, fs.Position(pos).Line)})
		}
	}
	// The Error method of an error type: what it returns, and its Sprintf.
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || fd.Name.Name != "Error" || fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ReturnStmt:
				for _, r := range x.Results {
					found(r, r.Pos())
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" {
					found(x, x.Pos())
				}
			}
			return true
		})
	}
	var visit func(calls map[string]int) func(ast.Node) bool
	visit = func(calls map[string]int) func(ast.Node) bool {
		return func(n ast.Node) bool {
			return scanNode(n, calls, consts, found, fs, where, &out, visit)
		}
	}
	ast.Inspect(f, visit(calls))
	return out
}

// scanNode looks at one node of a file for an error's format string. A
// function's closures with a format parameter ("fail := func(kind
// MismatchKind, format string, ...)") are its own: within the function
// they take the place of any closure of the same name elsewhere in the
// package, whose format may be another parameter.
func scanNode(n ast.Node, calls map[string]int, consts map[string]string, found func(ast.Expr, token.Pos),
	fs *token.FileSet, where string, out *[]errorFormat, visit func(map[string]int) func(ast.Node) bool) bool {
	if fd, ok := n.(*ast.FuncDecl); ok && fd.Body != nil {
		local := map[string]int{}
		formatTakers(&ast.File{Decls: []ast.Decl{&ast.FuncDecl{Name: fd.Name, Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: fd.Body}}}, local)
		if len(local) > 0 {
			merged := maps.Clone(calls)
			maps.Copy(merged, local)
			ast.Inspect(fd.Body, visit(merged))
			return false
		}
	}
	{
		// l.Error(fmt.Sprintf(...)): a message the command line renders.
		if c, ok := n.(*ast.CallExpr); ok && len(c.Args) == 1 {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" {
				found(c.Args[0], c.Pos())
			}
		}
		// exitError{msg: fmt.Sprintf(...)}, Violation{Message: "..."}: the
		// message of an error value.
		if kv, ok := n.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && messageFields[k.Name] {
				found(kv.Value, kv.Pos())
			}
			return true
		}
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		name := ""
		switch fn := c.Fun.(type) {
		case *ast.Ident:
			name = fn.Name
		case *ast.SelectorExpr:
			if x, ok := fn.X.(*ast.Ident); ok {
				if _, qualified := calls[x.Name+"."+fn.Sel.Name]; qualified {
					name = x.Name + "." + fn.Sel.Name
				} else if x.Name != "fmt" && x.Name != "errors" {
					name = fn.Sel.Name // a method or a helper of another package
				}
			} else {
				name = fn.Sel.Name // a method of a field (f.a.warnf)
			}
		}
		i, ok := calls[name]
		if !ok || i >= len(c.Args) {
			return true
		}
		// errors.New(x + "y"): a concatenation is a template too, x its hole.
		if s, ok := constString(c.Args[i], consts, true); ok {
			pos := fs.Position(c.Pos())
			*out = append(*out, errorFormat{format: s, where: fmt.Sprintf("%s:%d", where, pos.Line)})
		}
		return true
	}
}
