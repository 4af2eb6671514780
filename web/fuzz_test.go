package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/web"
)

// fuzzServers are the two servers a fuzz target sends its requests to: one
// without access control (mordor with a session in play), and one with it
// (newAccessHarness).
type fuzzServers struct {
	open, guarded *harness
	commands      []string // "campaign-create" (POST /api/campaigns) and every command route
}

func newFuzzServers(f *testing.F) *fuzzServers {
	open := newHarness(f, memBackend())
	open.setup("mordor")
	open.command("mordor", "session-start", `{}`, http.StatusOK)
	open.do(http.MethodPost, "/api/campaigns", `{"id":"erebor","system":"tor"}`)
	for _, body := range []string{
		`{"id":"bilbo","name":"Bilbo","player":"Ana","culture":"Hobbits de la Comarca","max_hope":12,"attributes":"Cuerpo=3/5,Corazón=6/8,Mente=5/7","skills":"Atención=3*,Sigilo=3*,Acertijos=2,Viajar=2,Buscar=2,Cortesía=1","traits":["Ladrón","Ojo avizor"]}`,
		`{"id":"thorin","name":"Thorin","player":"Bea","culture":"Enanos de Erebor","max_hope":8,"attributes":"Cuerpo=7/9,Corazón=5/7,Mente=2/4","skills":"Guerrear=3*,Impresionar=3,Atletismo=2,Persuadir=1,Saber=1","traits":["Herrero","Orgulloso"]}`,
	} {
		open.command("erebor", "character-create", body, http.StatusCreated)
	}
	open.command("erebor", "session-start", `{}`, http.StatusOK)
	fs := &fuzzServers{open: open, guarded: newAccessHarness(f), commands: []string{"campaign-create"}}
	var list []struct {
		Name string `json:"name"`
	}
	open.get("/api/commands", http.StatusOK, &list)
	for _, c := range list {
		fs.commands = append(fs.commands, c.Name)
	}
	return fs
}

// pick returns the server and the headers of a role: 0 the open server;
// on the guarded server 1 its GM, 2 the player of ruisenor, 3 the
// dashboard, 4 no token.
func (fs *fuzzServers) pick(role uint8) (*harness, []string, string) {
	switch role % 5 {
	case 1:
		return fs.guarded, bearer(anaToken), "ana"
	case 2:
		return fs.guarded, bearer(beaToken), "bea"
	case 3:
		return fs.guarded, bearer(wallToken), "wall"
	case 4:
		return fs.guarded, nil, ""
	}
	return fs.open, nil, "api"
}

// serve sends a request straight to the handler (no network).
func serve(h *harness, method string, u *url.URL, body []byte, header []string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/", bytes.NewReader(body))
	req.URL = u
	req.RequestURI = u.RequestURI()
	req.Host = "127.0.0.1" // not httptest's example.com, which the server refuses (421)
	if len(body) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.web.ServeHTTP(rec, req)
	return rec
}

// apiURL is path (unescaped segments joined by "/") with its escaped form.
func apiURL(query string, segments ...string) *url.URL {
	esc := make([]string, len(segments))
	for i, s := range segments {
		esc[i] = url.PathEscape(s)
	}
	return &url.URL{Path: strings.Join(segments, "/"), RawPath: strings.Join(esc, "/"), RawQuery: query}
}

// FuzzCommandBody posts fuzzed JSON bodies to every command route (and
// POST /api/campaigns), in fuzzed campaigns, as every role: never a 5xx,
// never a panic; a refusal records nothing; what is recorded carries the
// user's name, and a player's rolls are only its own character's.
func FuzzCommandBody(f *testing.F) {
	fs := newFuzzServers(f)
	// The seeds play a session in mordor (RyF) and an adventure in erebor
	// (The One Ring, on the open server only), in order, as every role.
	index := map[string]uint8{}
	for i, name := range fs.commands {
		index[name] = uint8(i)
	}
	for _, step := range []struct{ campaign, name, body string }{
		{"mordor", "weapon-define", `{"name":"Garrote","skill":"Armas cuerpo a cuerpo","damage":"1d6","precision":0}`},
		{"mordor", "skill-define", `{"name":"Cantar","attribute":"P"}`},
		{"mordor", "character-create", `{"id":"gimli","player":"Gimli","attributes":"F=8,R=7,D=9,I=8,P=8","skills":"Pelea=4","specialization":"Pelea"}`},
		{"mordor", "roll", `{"character":"ruisenor","skill":"Pelea"}`},
		{"mordor", "contest", `{"a":"lodin","skill_a":"Sigilo","b":"orco","skill_b":"Pelea"}`},
		{"mordor", "combat-start", `{"participants":["ruisenor","orco"]}`},
		{"mordor", "attack", `{"attacker":"ruisenor","target":"orco","range":"corta"}`},
		{"mordor", "attack", `{"attacker":"orco","target":"ruisenor"}`},
		{"mordor", "combat-round", `{}`},
		{"mordor", "damage", `{"character":"orco","amount":3}`},
		{"mordor", "heal", `{"character":"orco","amount":1}`},
		{"mordor", "xp", `{"character":"ruisenor","amount":10}`},
		{"mordor", "raise", `{"character":"ruisenor","skill":"Pelea"}`},
		{"mordor", "token-return", `{"character":"ruisenor"}`},
		{"mordor", "combat-end", ``},
		{"mordor", "heal-after-combat", `{"character":"ruisenor"}`},
		{"mordor", "reload", `{"character":"ruisenor","weapon":"Revólver"}`},
		{"mordor", "rest", `{"comfort":true}`},
		{"mordor", "day-new", `{}`},
		{"mordor", "void", `{"event_id":"0190a0a0-0000-7000-8000-000000000000","reason":"oops"}`},
		{"mordor", "session-end", ``},
		{"mordor", "session-start", `{"title":"otra"}`},
		{"", "campaign-create", `{"id":"moria","system":"ryf"}`},
		{"erebor", "adventure-start", `{"title":"El camino al Este"}`},
		{"erebor", "trait-invoke", `{"character":"bilbo","trait":"Ojo avizor"}`},
		{"erebor", "roll", `{"character":"thorin","skill":"Persuadir","tn":18}`},
		{"erebor", "hope-spend", `{"character":"thorin"}`},
		{"erebor", "fellowship-ask", `{"character":"thorin"}`},
		{"erebor", "fellowship-vote", `{"character":"thorin","voter":"bilbo","agree":false}`},
		{"erebor", "fellowship-take", `{"character":"thorin"}`},
		{"erebor", "fellowship-withdraw", `{"character":"thorin"}`},
		{"erebor", "shadow-gain", `{"character":"thorin","amount":2,"reason":"el dragón"}`},
		{"erebor", "madness-end", `{"character":"thorin","flaw":"Codicioso"}`},
		{"erebor", "advancement-grant", `{"character":"bilbo","group":"Atención"}`},
		{"erebor", "fellowship-phase", ``},
	} {
		i, ok := index[step.name]
		if !ok {
			f.Fatalf("no command %q", step.name)
		}
		for role := range uint8(5) {
			f.Add(i, step.campaign, []byte(step.body), role)
		}
	}
	f.Fuzz(func(t *testing.T, cmd uint8, campaign string, body []byte, role uint8) {
		name := fs.commands[int(cmd)%len(fs.commands)]
		h, header, actor := fs.pick(role)
		u := apiURL("", "", "api", "campaigns", campaign, "commands", name)
		if name == "campaign-create" {
			u = apiURL("", "", "api", "campaigns")
		}
		before := h.count(t)
		rec := serve(h, http.MethodPost, u, body, header)
		after := h.count(t)
		if rec.Code >= 500 {
			t.Fatalf("POST %s %q as %q: status %d: %s", u, body, actor, rec.Code, rec.Body)
		}
		if rec.Code >= 300 {
			if after != before {
				t.Fatalf("POST %s %q as %q: status %d but %d events recorded", u, body, actor, rec.Code, after-before)
			}
			return
		}
		var res result
		if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
			t.Fatalf("POST %s: status %d, body %s: %v", u, rec.Code, rec.Body, err)
		}
		if uint64(len(res.Recorded)) != after-before {
			t.Fatalf("POST %s %q: answered %d events, stored %d", u, body, len(res.Recorded), after-before)
		}
		for _, r := range res.Recorded {
			if r.Event.Actor != actor {
				t.Fatalf("POST %s %q as %q: recorded actor %q", u, body, actor, r.Event.Actor)
			}
			if actor == "bea" && r.Event.Type == events.TypeRollMade {
				var roll events.RollMade
				if err := r.Event.DecodeData(&roll); err != nil || roll.Character != "ruisenor" {
					t.Fatalf("POST %s %q: the player of ruisenor rolled for %q (%v)", u, body, roll.Character, err)
				}
			}
		}
		if actor == "wall" || (actor == "bea" && !isPlayerCommand(name)) {
			t.Fatalf("POST %s %q: %s may not issue %s, yet status %d", u, body, actor, name, rec.Code)
		}
	})
}

func isPlayerCommand(name string) bool {
	_, ok := access.PlayerCommand(name)
	return ok
}

// FuzzRoutes sends fuzzed path segments and query strings to every GET
// route of the API, as every role: never a 5xx, never a panic.
func FuzzRoutes(f *testing.F) {
	fs := newFuzzServers(f)
	var gets []web.Route
	for _, rt := range fs.open.web.Routes() {
		if rt.Method == http.MethodGet {
			gets = append(gets, rt)
		}
	}
	for i := range gets {
		for role := range uint8(5) {
			f.Add(uint8(i), "mordor", "ruisenor", "at=3&session=s1&character=lodin&from=1&to=9&types=journal.roll.made.v1&tail=2&limit=5", role)
			f.Add(uint8(i), "gondor", "lodin", "", role)
		}
	}
	f.Fuzz(func(t *testing.T, route uint8, campaign, sub, query string, role uint8) {
		rt := gets[int(route)%len(gets)]
		h, header, actor := fs.pick(role)
		var segments []string
		for _, s := range strings.Split(rt.Pattern, "/") {
			switch s {
			case "{c}":
				s = campaign
			case "{ch}", "{id}":
				s = sub
			}
			segments = append(segments, s)
		}
		u := apiURL(query, segments...)
		before := h.count(t)
		rec := serve(h, http.MethodGet, u, nil, header)
		if rec.Code >= 500 {
			t.Fatalf("GET %s as %q: status %d: %s", u, actor, rec.Code, rec.Body)
		}
		if h.count(t) != before {
			t.Fatalf("GET %s recorded events", u)
		}
	})
}

// FuzzOrigin sends a command with fuzzed Host, Origin and Sec-Fetch-Site
// headers to the server without access control (the handler itself: no
// connection, so no port is checked): never a 5xx, never a panic; an event
// is recorded only for a loopback Host with no Origin or the Host's own,
// and no cross-site Sec-Fetch-Site.
func FuzzOrigin(f *testing.F) {
	fs := newFuzzServers(f)
	for _, s := range [][3]string{
		{"127.0.0.1", "", ""},
		{"127.0.0.1:8080", "http://127.0.0.1:8080", "same-origin"},
		{"localhost:8080", "http://localhost:8080", ""},
		{"[::1]:8080", "http://[::1]:8080", "same-origin"},
		{"evil.example:8080", "http://evil.example:8080", "same-origin"},
		{"127.0.0.1:8080", "null", ""},
		{"127.0.0.1:8080", "https://evil.example", "same-origin"},
		{"127.0.0.1:8080", "", "cross-site"},
		{"LOCALHOST.:80", "http://localhost", "none"},
		{"[::ffff:127.0.0.1]", "http://[::ffff:127.0.0.1]", ""},
		{"127.0.0.1.nip.io", "", ""},
		{"0.0.0.0:8080", "http://0.0.0.0:8080", ""},
		{"[::1", "http://[::1", ""},
		{"127.0.0.1:", "http://127.0.0.1:", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	h := fs.open
	f.Fuzz(func(t *testing.T, host, origin, site string) {
		u := apiURL("", "", "api", "campaigns", "mordor", "commands", "day-new")
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{}`))
		req.URL, req.RequestURI, req.Host = u, u.RequestURI(), host
		req.Header.Set("Content-Type", "application/json")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		before := h.count(t)
		rec := httptest.NewRecorder()
		h.web.ServeHTTP(rec, req)
		after := h.count(t)
		if rec.Code >= 500 {
			t.Fatalf("Host %q Origin %q Sec-Fetch-Site %q: status %d: %s", host, origin, site, rec.Code, rec.Body)
		}
		if after == before {
			return
		}
		name := strings.TrimSuffix(strings.ToLower(host), ".")
		if i := strings.LastIndexByte(name, ':'); i >= 0 && !strings.HasSuffix(name, "]") {
			name = strings.TrimSuffix(name[:i], ".")
		}
		name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
		ip, err := netip.ParseAddr(name)
		loopback := name == "localhost" || err == nil && ip.Unmap().IsLoopback()
		if !loopback || (site != "" && site != "same-origin") || strings.EqualFold(origin, "null") {
			t.Fatalf("Host %q Origin %q Sec-Fetch-Site %q: recorded %d events", host, origin, site, after-before)
		}
		if origin != "" {
			o, err := url.Parse(origin)
			if err != nil || !strings.EqualFold(strings.TrimSuffix(o.Hostname(), "."), name) {
				t.Fatalf("Host %q Origin %q: a cross-origin write was recorded", host, origin)
			}
		}
	})
}
