package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/helptopics"
	"github.com/campaign-journal/journal/i18n"
)

// implicitEnv are the standard library's functions that read a variable
// for the caller: where the journal keeps or makes files.
var implicitEnv = map[string]string{
	"os.UserConfigDir": "XDG_CONFIG_HOME",
	"os.UserCacheDir":  "XDG_CACHE_HOME",
	"os.UserHomeDir":   "HOME",
	"os.TempDir":       "TMPDIR",
}

// envReaders are the calls whose first argument names a variable read:
// the standard library's, the command line's envOr, and a getenv
// function handed down (device.DefaultDir(os.Getenv)).
var envReaders = map[string]bool{"os.Getenv": true, "os.LookupEnv": true, "syscall.Getenv": true, "envOr": true, "getenv": true}

// TestEnvironmentHelpListsEveryVariable scans the module's source (tests
// aside) for every environment variable it reads — os.Getenv, LookupEnv,
// envOr, a getenv handed down, by a string, a constant or a range over a
// list of them, and what os.UserConfigDir, os.TempDir, CreateTemp("", …)
// read — and fails when 'journal help environment' does not name one, in
// English or in Spanish. A read it cannot resolve fails too: name the
// variable in a constant.
func TestEnvironmentHelpListsEveryVariable(t *testing.T) {
	read := envVarsRead(t, filepath.Join("..", ".."))
	for _, v := range []string{"JOURNAL_DATA", "JOURNAL_CONFIG", "JOURNAL_ACTOR", "LANG", "LC_ALL", "NATS_URL"} {
		require.Contains(t, read, v, "the scan finds what the journal reads")
	}
	es, ok := i18n.HelpLong("environment")
	require.True(t, ok, "'journal help environment' has no Spanish")
	mentions := regexp.MustCompile(`\$([A-Z][A-Z0-9_]*)`)
	for lang, help := range map[string]string{"en": helptopics.Page("environment", "en"), "es": es} {
		listed := map[string]bool{}
		for _, m := range mentions.FindAllStringSubmatch(help, -1) {
			listed[m[1]] = true
		}
		var missing []string
		for v, where := range read {
			if !listed[v] {
				missing = append(missing, "$"+v+" (read at "+where+")")
			}
		}
		sort.Strings(missing)
		require.Empty(t, missing, "'journal --lang %s help environment' does not list what the journal reads", lang)
		for v := range listed {
			_, isRead := read[v]
			require.True(t, isRead, "'journal --lang %s help environment' names $%s, which nothing reads", lang, v)
		}
	}
	c := newCLI(t)
	out := c.ok("--lang", "es", "help", "environment")
	require.Contains(t, out, "Variables sin opción")
	require.Contains(t, out, "$JOURNAL_CONFIG")
}

// envVarsRead returns the environment variables the non-test Go source
// under root reads, each with one place it is read.
func envVarsRead(t *testing.T, root string) map[string]string {
	t.Helper()
	modPath := ""
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	if m := regexp.MustCompile(`(?m)^module (\S+)`).FindSubmatch(gomod); m != nil {
		modPath = string(m[1])
	}
	fset := token.NewFileSet()
	type file struct {
		pkg string // import path
		f   *ast.File
	}
	var files []file
	consts := map[string]map[string]string{} // import path → constant → value
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		require.NoError(t, err)
		rel, err := filepath.Rel(root, filepath.Dir(path))
		require.NoError(t, err)
		pkg := modPath
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		files = append(files, file{pkg, f})
		if consts[pkg] == nil {
			consts[pkg] = map[string]string{}
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						if s, ok := stringLit(vs.Values[i]); ok {
							consts[pkg][n.Name] = s
						}
					}
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(files), 50, "the scan reads the module")

	read := map[string]string{}
	var unresolved []string
	for _, fl := range files {
		imports := map[string]string{} // local name → import path
		for _, im := range fl.f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			local := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				local = im.Name.Name
			}
			imports[local] = p
		}
		// resolve gives the variables an argument names.
		var resolve func(e ast.Expr) ([]string, bool)
		resolve = func(e ast.Expr) ([]string, bool) {
			if s, ok := stringLit(e); ok {
				return []string{s}, true
			}
			switch e := e.(type) {
			case *ast.Ident:
				if e.Obj != nil {
					switch decl := e.Obj.Decl.(type) {
					case *ast.ValueSpec:
						for i, n := range decl.Names {
							if n.Name == e.Name && i < len(decl.Values) {
								return resolve(decl.Values[i])
							}
						}
					case *ast.AssignStmt: // for _, name := range []string{...}
						if len(decl.Rhs) == 1 {
							if u, ok := decl.Rhs[0].(*ast.UnaryExpr); ok && u.Op == token.RANGE {
								if cl, ok := u.X.(*ast.CompositeLit); ok {
									var out []string
									for _, el := range cl.Elts {
										vs, ok := resolve(el)
										if !ok {
											return nil, false
										}
										out = append(out, vs...)
									}
									return out, true
								}
							}
						}
					}
					return nil, false
				}
				if v, ok := consts[fl.pkg][e.Name]; ok {
					return []string{v}, true
				}
			case *ast.SelectorExpr:
				if x, ok := e.X.(*ast.Ident); ok {
					if v, ok := consts[imports[x.Name]][e.Sel.Name]; ok {
						return []string{v}, true
					}
				}
			}
			return nil, false
		}
		for _, decl := range fl.f.Decls {
			fn, _ := decl.(*ast.FuncDecl)
			ast.Inspect(decl, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				name := ""
				switch fn := call.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					if x, ok := fn.X.(*ast.Ident); ok {
						name = x.Name + "." + fn.Sel.Name
					}
				}
				where := fset.Position(call.Pos()).String()
				if rel, err := filepath.Rel(root, where); err == nil {
					where = rel
				}
				if v, ok := implicitEnv[name]; ok {
					read[v] = where
				}
				if (name == "os.CreateTemp" || name == "os.MkdirTemp") && len(call.Args) > 0 {
					if s, ok := stringLit(call.Args[0]); ok && s == "" {
						read["TMPDIR"] = where
					}
				}
				if name == "os.Environ" || name == "os.ExpandEnv" || name == "os.Expand" {
					unresolved = append(unresolved, where+": "+name)
				}
				if !envReaders[name] || len(call.Args) == 0 {
					return true
				}
				if id, ok := call.Args[0].(*ast.Ident); ok && id.Obj != nil && fn != nil && envReaders[fn.Name.Name] {
					if _, param := id.Obj.Decl.(*ast.Field); param {
						return true // envOr's own os.Getenv(name): its callers name the variable
					}
				}
				vs, ok := resolve(call.Args[0])
				if !ok {
					unresolved = append(unresolved, where+": "+name)
					return true
				}
				for _, v := range vs {
					read[v] = where
				}
				return true
			})
		}
	}
	require.Empty(t, unresolved, "reads of the environment whose variable the scan cannot tell: name it in a constant")
	return read
}

// stringLit is the value of a string literal.
func stringLit(e ast.Expr) (string, bool) {
	bl, ok := e.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(bl.Value)
	return s, err == nil
}
