package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/web"
)

// attack is one request that must be refused.
type attack struct {
	name         string
	method, path string
	body         string
	header       []string
	want         int
}

// attackRun counts the attacks sent to servers and their refusals.
type attackRun struct {
	tried, refused int
	recorded       uint64
}

// send sends each attack to h: each must get its JSON error and leave the
// store's last sequence as it was. An event stream that opens is closed at
// once (and fails the attack).
func (run *attackRun) send(t *testing.T, h *harness, attacks []attack) {
	t.Helper()
	refused := run.refused
	defer func() { t.Logf("%d attacks, %d refused", len(attacks), run.refused-refused) }()
	for _, a := range attacks {
		run.tried++
		before := h.count(t)
		r := h.raw(a.method, a.path, a.body, a.header...)
		after := h.count(t)
		run.recorded += after - before
		if after != before {
			t.Errorf("%s: %s %s: %d events recorded (status %d)", a.name, a.method, a.path, after-before, r.status)
		}
		if r.status != a.want {
			t.Errorf("%s: %s %s: status %d, want %d: %s", a.name, a.method, a.path, r.status, a.want, r.body)
			continue
		}
		var e errorBody
		if !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") || json.Unmarshal(r.body, &e) != nil || e.Status != a.want || e.Error.Message == "" {
			t.Errorf("%s: %s %s: want a JSON error, got %s %s", a.name, a.method, a.path, r.header.Get("Content-Type"), r.body)
			continue
		}
		run.refused++
	}
}

// raw is do without failing on an event stream: one that opens answers
// its status and no body.
func (h *harness) raw(method, path, body string, header ...string) response {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, h.url+path, rd)
	require.NoError(h.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	setHeaders(req, header)
	res, err := h.hc.Do(req)
	require.NoError(h.t, err)
	defer res.Body.Close()
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		return response{status: res.StatusCode, header: res.Header, body: []byte("(an event stream opened)")}
	}
	b, err := io.ReadAll(res.Body)
	require.NoError(h.t, err)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// target is one request of the API an attack may aim at.
type target struct {
	method, path, body string
	header             []string
}

// targets lists every route of the API in campaign c (each method, with
// the command routes once per command, the event list also as a stream),
// and POST /api/campaigns.
func targets(h *harness, c string, commands []string) []target {
	var out []target
	for _, rt := range h.web.Routes() {
		path := strings.NewReplacer("{c}", c, "{ch}", "lodin", "{id}", "0190a0a0-0000-7000-8000-000000000000").Replace(rt.Pattern)
		switch {
		case strings.Contains(path, "{name}"):
			for _, name := range commands {
				out = append(out, target{rt.Method, strings.Replace(path, "{name}", name, 1), `{}`, nil})
			}
		case rt.Method == http.MethodPost:
			out = append(out, target{rt.Method, path, `{"id":"moria","system":"ryf"}`, nil})
		default:
			out = append(out, target{rt.Method, path, "", nil})
			if strings.HasSuffix(path, "/events") {
				out = append(out, target{rt.Method, path + "?from=1", "", []string{"Accept", "text/event-stream"}})
			}
		}
	}
	return out
}

// commandNames lists the commands of the command route.
func commandNames(t *testing.T, h *harness, header ...string) []string {
	t.Helper()
	r := h.do(http.MethodGet, "/api/commands", "", header...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var list []struct {
		Name string `json:"name"`
	}
	r.json(t, &list)
	var names []string
	for _, c := range list {
		names = append(names, c.Name)
	}
	require.NotEmpty(t, names)
	return names
}

// hostile are the requests of a page of another site, through the
// victim's browser: by DNS rebinding (its own name as Host, its own
// origin), or cross-origin (a foreign, null or sibling Origin, a
// Sec-Fetch-Site that says so or lies), each with its refusal.
func hostile(h *harness) []struct {
	name   string
	header []string
	want   int
	writes bool // only for writes (Sec-Fetch-Site none is a navigation)
} {
	u, _ := url.Parse(h.url)
	port := u.Port()
	type hv = struct {
		name   string
		header []string
		want   int
		writes bool
	}
	return []hv{
		{"DNS rebinding", []string{"Host", "evil.example:" + port, "Origin", "http://evil.example:" + port, "Sec-Fetch-Site", "same-origin"}, http.StatusMisdirectedRequest, false},
		{"DNS rebinding, no Origin", []string{"Host", "evil.example:" + port}, http.StatusMisdirectedRequest, false},
		{"rebinding name without port", []string{"Host", "evil.example"}, http.StatusMisdirectedRequest, false},
		{"rebinding name that looks local", []string{"Host", "127.0.0.1.nip.io:" + port, "Sec-Fetch-Site", "same-origin"}, http.StatusMisdirectedRequest, false},
		{"localhost as a subdomain", []string{"Host", "localhost.evil.example:" + port}, http.StatusMisdirectedRequest, false},
		{"0.0.0.0 as Host", []string{"Host", "0.0.0.0:" + port, "Origin", "http://0.0.0.0:" + port}, http.StatusMisdirectedRequest, false},
		{"loopback Host, another port", []string{"Host", "127.0.0.1:1"}, http.StatusMisdirectedRequest, false},
		{"foreign Origin", []string{"Origin", "https://evil.example"}, http.StatusForbidden, false},
		{"foreign Origin, Sec-Fetch-Site lies", []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "same-origin"}, http.StatusForbidden, false},
		{"Origin null", []string{"Origin", "null"}, http.StatusForbidden, false},
		{"Origin null, Sec-Fetch-Site lies", []string{"Origin", "null", "Sec-Fetch-Site", "same-origin"}, http.StatusForbidden, false},
		{"another local service", []string{"Origin", "http://127.0.0.1:1", "Sec-Fetch-Site", "same-site"}, http.StatusForbidden, false},
		{"another local service, Origin only", []string{"Origin", "http://127.0.0.1:1"}, http.StatusForbidden, false},
		{"another name of this host", []string{"Origin", "http://localhost:" + port}, http.StatusForbidden, false},
		{"Origin with credentials", []string{"Origin", "http://evil@127.0.0.1:" + port}, http.StatusForbidden, false},
		{"Origin of another scheme", []string{"Origin", "file://"}, http.StatusForbidden, false},
		{"Sec-Fetch-Site cross-site", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden, false},
		{"Sec-Fetch-Site same-site", []string{"Sec-Fetch-Site", "same-site"}, http.StatusForbidden, false},
		{"Sec-Fetch-Site none on a write", []string{"Sec-Fetch-Site", "none"}, http.StatusForbidden, true},
	}
}

// TestHTTPAttacks attacks the API as every role of an access
// configuration, as an anonymous client, and as a page of another site
// (DNS rebinding, cross-origin), on a server with access control and on
// one without: every command and read each may not reach. Each attack is
// refused with its JSON error, and the store's last sequence stays as it
// was.
func TestHTTPAttacks(t *testing.T) {
	guarded := newAccessHarness(t)
	open := newHarness(t, memBackend())
	open.setup("mordor")
	open.command("mordor", "session-start", `{}`, http.StatusOK)
	commands := commandNames(t, guarded, bearer(anaToken)...)
	run := &attackRun{}
	with := func(tg target, header ...string) []string {
		return append(append([]string{}, tg.header...), header...)
	}

	t.Run("anonymous", func(t *testing.T) {
		var as []attack
		for _, tg := range targets(guarded, "mordor", commands) {
			as = append(as,
				attack{"no token", tg.method, tg.path, tg.body, tg.header, http.StatusUnauthorized},
				attack{"no token, forged actor", tg.method, tg.path, tg.body, with(tg, web.ActorHeader, "ana"), http.StatusUnauthorized},
				attack{"unknown token", tg.method, tg.path, tg.body, with(tg, bearer("not-a-token-0123456789")...), http.StatusUnauthorized},
			)
			if len(tg.header) == 0 { // the stream alone takes ?access_token=
				sep := map[bool]string{true: "&", false: "?"}[strings.Contains(tg.path, "?")]
				as = append(as, attack{"GM token in the query", tg.method, tg.path + sep + web.AccessTokenParam + "=" + anaToken, tg.body, nil, http.StatusUnauthorized})
			}
		}
		run.send(t, guarded, as)
	})

	t.Run("dashboard", func(t *testing.T) {
		var as []attack
		for _, name := range commands {
			as = append(as,
				attack{"dashboard command", "POST", "/api/campaigns/mordor/commands/" + name, `{"character":"ruisenor"}`, bearer(wallToken), http.StatusForbidden},
				attack{"dashboard command, forged actor", "POST", "/api/campaigns/mordor/commands/" + name, `{}`, append(bearer(wallToken), web.ActorHeader, "ana"), http.StatusForbidden})
		}
		as = append(as, attack{"dashboard creates a campaign", "POST", "/api/campaigns", `{"id":"moria","system":"ryf"}`, bearer(wallToken), http.StatusForbidden})
		run.send(t, guarded, as)
	})

	t.Run("player", func(t *testing.T) {
		var as []attack
		for _, name := range commands {
			path := "/api/campaigns/mordor/commands/" + name
			field, mine := access.PlayerCommand(name)
			if !mine {
				as = append(as,
					attack{"GM command as a player", "POST", path, `{"character":"ruisenor"}`, bearer(beaToken), http.StatusForbidden},
					attack{"GM command as a player, forged actor", "POST", path, `{"character":"ruisenor"}`, append(bearer(beaToken), web.ActorHeader, "ana"), http.StatusForbidden})
				continue
			}
			for _, other := range []string{"lodin", "orco", "gimli", ""} {
				as = append(as, attack{"player command for " + other, "POST", path, `{"` + field + `":"` + other + `","skill":"Pelea","target":"ruisenor"}`, bearer(beaToken), http.StatusForbidden})
			}
			as = append(as,
				attack{"player command, acting field twice", "POST", path, `{"` + field + `":"ruisenor","` + strings.ToUpper(field[:1]) + field[1:] + `":"lodin"}`, bearer(beaToken), http.StatusForbidden},
				attack{"player command in another campaign", "POST", "/api/campaigns/gondor/commands/" + name, `{"` + field + `":"ruisenor"}`, bearer(beaToken), http.StatusForbidden})
		}
		as = append(as, attack{"player creates a campaign", "POST", "/api/campaigns", `{"id":"moria","system":"ryf"}`, bearer(beaToken), http.StatusForbidden})
		for _, tg := range targets(guarded, "gondor", nil) {
			if strings.Contains(tg.path, "/gondor") && tg.method == http.MethodGet {
				as = append(as, attack{"player reads another campaign", tg.method, tg.path, "", with(tg, bearer(beaToken)...), http.StatusForbidden})
			}
		}
		as = append(as, attack{"player follows another campaign by query token", "GET", "/api/campaigns/gondor/events?access_token=" + beaToken, "", []string{"Accept", "text/event-stream"}, http.StatusForbidden})
		run.send(t, guarded, as)
	})

	t.Run("gm of another campaign", func(t *testing.T) {
		var as []attack
		for _, tg := range targets(guarded, "mordor", commands) {
			if strings.Contains(tg.path, "/mordor") {
				as = append(as, attack{"stranger GM", tg.method, tg.path, tg.body, with(tg, bearer(zedToken)...), http.StatusForbidden})
			}
		}
		as = append(as, attack{"stranger GM creates a campaign", "POST", "/api/campaigns", `{"id":"moria","system":"ryf"}`, bearer(zedToken), http.StatusForbidden})
		run.send(t, guarded, as)
	})

	t.Run("oversized bodies", func(t *testing.T) {
		big := `{"character":"ruisenor","skill":"` + strings.Repeat("a", web.MaxBody) + `"}`
		for _, h := range []*harness{guarded, open} {
			var as []attack
			for _, name := range commands {
				as = append(as, attack{"oversized body", "POST", "/api/campaigns/mordor/commands/" + name, big, bearer(anaToken), http.StatusRequestEntityTooLarge})
			}
			as = append(as, attack{"oversized campaign", "POST", "/api/campaigns", `{"id":"moria","system":"ryf","name":"` + strings.Repeat("a", web.MaxBody) + `"}`, bearer(anaToken), http.StatusRequestEntityTooLarge})
			run.send(t, h, as)
		}
	})

	// A page of another site reaches the API through the victim's browser,
	// with the GM's own token (guarded) or as the local host (open).
	for _, mode := range []struct {
		name   string
		h      *harness
		header []string
	}{
		{"cross-site, with access", guarded, bearer(anaToken)},
		{"cross-site, without access", open, nil},
	} {
		t.Run(mode.name, func(t *testing.T) {
			var as []attack
			for _, tg := range targets(mode.h, "mordor", commands) {
				for _, hv := range hostile(mode.h) {
					if hv.writes && tg.method != http.MethodPost {
						continue
					}
					as = append(as, attack{hv.name, tg.method, tg.path, tg.body, with(tg, append(append([]string{}, mode.header...), hv.header...)...), hv.want})
				}
			}
			for _, hv := range hostile(mode.h) {
				if !hv.writes && hv.want == http.StatusMisdirectedRequest {
					as = append(as, attack{hv.name + " (dashboard)", "GET", "/", "", hv.header, hv.want})
				}
			}
			run.send(t, mode.h, as)
		})
	}

	t.Logf("attacks tried %d, refused %d, events recorded %d", run.tried, run.refused, run.recorded)
	require.Equal(t, run.tried, run.refused)
	require.Zero(t, run.recorded)
}

// TestHTTPAllowedOrigins: what a browser on the journal's own page sends
// passes the checks (so that TestHTTPAttacks' refusals are the checks',
// not a server that refuses everything), and the actor header changes
// nothing.
func TestHTTPAllowedOrigins(t *testing.T) {
	open := newHarness(t, memBackend())
	open.setup("mordor")
	u, _ := url.Parse(open.url)
	port := u.Port()
	for _, tc := range []struct {
		name   string
		header []string
	}{
		{"command-line client", nil},
		{"the dashboard's own fetch", []string{"Origin", open.url, "Sec-Fetch-Site", "same-origin"}},
		{"the dashboard on localhost", []string{"Host", "localhost:" + port, "Origin", "http://localhost:" + port, "Sec-Fetch-Site", "same-origin"}},
		{"Origin without Sec-Fetch-Site", []string{"Host", "127.0.0.1:" + port, "Origin", "http://127.0.0.1:" + port}},
		{"localhost with a final dot", []string{"Host", "localhost.:" + port}},
		{"forged actor", []string{web.ActorHeader, "ana"}},
	} {
		r := open.do("POST", "/api/campaigns/mordor/commands/day-new", `{}`, tc.header...)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", tc.name, r.body)
		var res result
		r.json(t, &res)
		require.Equal(t, "api", res.Recorded[0].Event.Actor, tc.name)
		r = open.do("GET", "/api/campaigns/mordor", "", tc.header...)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", tc.name, r.body)
	}
	// A link from another site (a forum post) opens the dashboard; /metrics
	// and /healthz answer any Host (monitoring).
	r := open.do("GET", "/?campaign=mordor", "", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate")
	require.Equal(t, http.StatusOK, r.status)
	for _, path := range []string{"/metrics", "/healthz"} {
		r := open.do("GET", path, "", "Host", "journal:8080")
		require.Equal(t, http.StatusOK, r.status, path)
	}

	// With access: a public host, and the GM's dashboard behind a TLS proxy.
	h := newHarnessWith(t, memBackend(), func(o *web.Options) {
		o.Access = accessConfig(t)
		o.PublicHosts = []string{"journal.example.org", "Table.Example.org:8443"}
	})
	for i, hdr := range [][]string{
		{"Host", "journal.example.org", "Origin", "https://journal.example.org", "Sec-Fetch-Site", "same-origin"},
		{"Host", "journal.example.org:" + port, "Origin", "http://journal.example.org:" + port},
		{"Host", "table.example.org:8443", "Origin", "https://table.example.org:8443"},
	} {
		path, body, want := "/api/campaigns/mordor/commands/day-new", `{}`, http.StatusOK
		if i == 0 {
			path, body, want = "/api/campaigns", `{"id":"mordor","system":"ryf"}`, http.StatusCreated
		}
		r := h.do("POST", path, body, append(bearer(anaToken), hdr...)...)
		require.Equal(t, want, r.status, "%v: %s", hdr, r.body)
	}
	for _, host := range []string{"table.example.org", "table.example.org:443", "evil.journal.example.org", "journal.example.org.evil"} {
		wantError(t, host, h.do("GET", "/api/campaigns", "", append(bearer(anaToken), "Host", host)...), http.StatusMisdirectedRequest)
	}
}

// TestPublicHostsValidated: a bad Options.PublicHosts entry stops New.
func TestPublicHostsValidated(t *testing.T) {
	for _, bad := range []string{"http://journal.example.org", "journal.example.org/x", "*.example.org", "", "a b", "host:0", "host:99999", "host:", "user@host", "::1", "[::1"} {
		require.Error(t, web.ValidPublicHost(bad), bad)
	}
	for _, good := range []string{"journal.example.org", "journal.example.org:8443", "192.168.1.5", "[::1]:8080", "localhost"} {
		require.NoError(t, web.ValidPublicHost(good), good)
	}
}
