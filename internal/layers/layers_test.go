package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/campaign-journal/journal/"

// allowed maps each package (its path in the module) to the journal's
// packages it may import. An entry ending in "/..." allows a package and
// everything under it. Lower layers first.
var allowed = map[string][]string{
	// Leaves: no package of the journal.
	"internal/clip":                 {},
	"internal/slug":                 {"internal/clip", "internal/msgerr"},
	"internal/layers":               {},
	"internal/msgerr":               {},
	"internal/own":                  {},
	"rules/dice":                    {"internal/msgerr"},
	"rules/names":                   {"internal/msgerr"},
	"beacon":                        {"internal/msgerr"},
	"buildinfo":                     {},
	"events/internal/fastcodec":     {},
	"events/internal/fastcodec/gen": {},
	"events/cluster":                {"internal/msgerr"},
	"events/embedded":               {"internal/msgerr"},
	"rules/ryf":                     {"internal/clip", "internal/msgerr", "rules/dice", "rules/names"},
	"rules/tor":                     {"internal/clip", "internal/msgerr", "rules/dice", "rules/names"},
	"rules/odds":                    {"internal/clip", "internal/msgerr", "rules/dice", "rules/names", "rules/ryf"},
	"helptopics":                    {},
	"i18n":                          {"helptopics", "internal/clip", "internal/msgerr"},
	"events":                        {"events/internal/fastcodec", "internal/clip", "internal/msgerr", "internal/slug"},
	"signed":                        {"internal/msgerr", "internal/slug", "rules/dice"},
	"events/jetstore":               {"events", "internal/clip", "internal/msgerr"},
	"events/memstore":               {"events", "internal/clip", "internal/msgerr"},
	"events/storetest":              {"events", "internal/clip"},
	"events/embedded/embeddedtest":  {"events/embedded", "events/jetstore"},
	"feed":                          {"events", "internal/msgerr"},
	"limit":                         {"events", "internal/msgerr"},
	"projections":                   {"events", "i18n", "internal/clip", "internal/msgerr", "internal/own", "rules/..."},
	"rolls":                         {"events", "internal/clip", "internal/msgerr", "rules/..."},
	"replay":                        {"beacon", "events", "i18n", "internal/clip", "internal/msgerr", "internal/own", "projections", "rolls", "rules/...", "signed"},
	"replay/eventref":               {"events", "internal/clip", "internal/msgerr", "replay"},
	"device":                        {"beacon", "events", "internal/...", "projections", "rules/dice", "signed"},
	"device/client":                 {"beacon", "command", "device", "events", "i18n", "internal/...", "projections", "replay", "rules/dice", "signed"},
	"live":                          {"events", "events/jetstore", "feed", "i18n", "internal/msgerr", "projections"},
	"live/livetest":                 {"command", "events", "projections"},
	"events/backup":                 {"events", "events/embedded", "events/jetstore", "internal/msgerr"},
	"command":                       {"beacon", "events", "i18n", "internal/clip", "internal/msgerr", "internal/slug", "projections", "rolls", "rules/...", "signed"},
	"command/catalog":               {"command", "events", "internal/clip", "internal/msgerr", "rolls", "rules/..."},
	"command/recordtest":            {"command", "events", "events/memstore"},
	"access":                        {"command/catalog", "events", "internal/msgerr"},
	"access/accessfile":             {"access", "internal/msgerr", "textout"},
	"access/natscmd":                {"access", "command", "command/catalog", "events", "i18n", "internal/clip", "internal/msgerr"},
	"access/natscmd/client":         {"access", "access/natscmd", "command", "command/catalog", "events", "i18n", "internal/msgerr"},
	"invite":                        {"access", "events", "internal/msgerr"},
	"invitetext":                    {"i18n", "textout", "web"},
	"reproduce":                     {"command", "command/catalog", "events", "events/memstore", "i18n", "internal/msgerr", "projections", "replay", "rolls", "rules/..."},
	"web":                           {"access", "command", "command/catalog", "device", "events", "feed", "i18n", "internal/...", "invite", "live", "projections", "replay", "rules/...", "signed"},
	"demo":                          {"command", "device", "events", "i18n", "internal/msgerr", "projections", "replay", "rules/...", "signed"},
	"healthcheck":                   {"internal/msgerr"},
	"logtext":                       {"events", "i18n", "internal/clip", "internal/msgerr", "projections", "textout"},
	"exportfile":                    {"internal/clip", "internal/msgerr", "replay"},
	"textout":                       {"i18n"},
	"audit":                         {"device", "events", "events/jetstore", "exitcode", "exportfile", "i18n", "internal/clip", "internal/msgerr", "replay", "reproduce", "textout"},
	"oddstext":                      {"i18n", "rules/odds", "rules/ryf", "textout"},
	"sheettext":                     {"i18n", "projections", "rules/tor", "textout"},
	"clicomplete":                   {"command", "projections", "rules/..."},
	"recorder":                      {"command", "events", "i18n", "projections"},
	"exitcode":                      {"command", "device", "events", "events/jetstore", "i18n", "internal/clip", "internal/msgerr"},
	"clihelp":                       {"exitcode", "helptopics", "i18n", "internal/clip", "internal/msgerr"},
	"cobraspec":                     {"clicomplete", "clihelp", "command", "command/catalog", "device", "exitcode", "internal/clip", "rules/tor"},
	"serve/connect":                 {"access", "events/embedded", "internal/msgerr"},
	"serve":                         {"access", "access/natscmd", "command", "events", "events/embedded", "events/jetstore", "feed", "i18n", "internal/msgerr", "invite", "limit", "live", "serve/connect", "web"},
	"bench":                         {"command", "device", "events", "events/...", "live", "projections", "replay", "rolls", "rules/...", "signed", "textout", "web"},
	"cmd/journal":                   {"..."},
}

// domain are the packages that may import no NATS and no HTTP.
var domain = []string{"internal/msgerr", "rules/...", "events", "projections", "rolls", "signed", "replay", "replay/eventref", "i18n", "internal/clip", "internal/slug"}

// forbiddenInDomain are the outside imports the domain may not have.
var forbiddenInDomain = []string{"net/http", "github.com/nats-io/"}

func matches(pkg, pattern string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

// imports reads the module's packages (by folder) and what each one's
// non-test files import.
func imports(t *testing.T, root string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if hasIgnoreTag(f.Comments) {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if out[pkg] == nil {
			out[pkg] = map[string]bool{}
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			out[pkg][p] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// hasIgnoreTag reports a file built only by hand (//go:build ignore).
func hasIgnoreTag(groups []*ast.CommentGroup) bool {
	for _, g := range groups {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

func TestImportLayers(t *testing.T) {
	pkgs := imports(t, "../..")
	if len(pkgs) < 20 {
		t.Fatalf("read %d packages under ../..: the test runs from internal/layers", len(pkgs))
	}
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, pkg := range names {
		rules, ok := allowed[pkg]
		if !ok {
			t.Errorf("package %s is in no layer: add it to the table in layers_test.go", pkg)
			continue
		}
		isDomain := false
		for _, d := range domain {
			isDomain = isDomain || matches(pkg, d)
		}
		for im := range pkgs[pkg] {
			if isDomain {
				for _, f := range forbiddenInDomain {
					if strings.HasPrefix(im, f) {
						t.Errorf("domain package %s imports %s: I/O belongs at the edges", pkg, im)
					}
				}
			}
			own, ok := strings.CutPrefix(im, module)
			if !ok {
				continue
			}
			ok = false
			for _, r := range rules {
				ok = ok || matches(own, r)
			}
			if !ok {
				t.Errorf("%s imports %s, which its layer does not allow (allowed: %v)", pkg, own, rules)
			}
		}
	}
}

func TestLayersCatchABackEdge(t *testing.T) {
	// The check itself, on a made-up graph: command importing live is refused.
	if !matches("rules/ryf", "rules/...") || matches("rulesx", "rules/...") || !matches("anything", "...") {
		t.Fatal("matches is wrong")
	}
	ok := false
	for _, r := range allowed["command"] {
		ok = ok || matches("live", r)
	}
	if ok {
		t.Fatal("the table lets command import live")
	}
}
