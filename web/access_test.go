package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/web"
)

// Tokens of the users of accessConfig.
const (
	anaToken  = "ana-token-0123456789"  // gm of mordor
	beaToken  = "bea-token-0123456789"  // player of mordor: ruisenor
	wallToken = "wall-token-0123456789" // dashboard of mordor
	zedToken  = "zed-token-0123456789"  // gm of gondor: a stranger to mordor
)

func accessConfig(t testing.TB) *access.Config {
	t.Helper()
	cfg, err := access.New(
		access.User{Name: "ana", Role: access.RoleGM, Campaign: "mordor", Tokens: []string{anaToken}},
		access.User{Name: "bea", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"ruisenor"}, Tokens: []string{access.HashToken(beaToken)}},
		access.User{Name: "wall", Role: access.RoleDashboard, Campaign: "mordor", Tokens: []string{wallToken}},
		access.User{Name: "zed", Role: access.RoleGM, Campaign: "gondor", Tokens: []string{zedToken}},
	)
	require.NoError(t, err)
	return cfg
}

func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

// count returns the number of events stored.
func (h *harness) count(t testing.TB) uint64 {
	t.Helper()
	n, err := h.store.Last(context.Background(), events.AllFilter)
	require.NoError(t, err)
	return n
}

// newAccessHarness is a harness with access control, mordor set up by its
// GM (lodin, ruisenor, orco, a session in play) and gondor by its own GM.
func newAccessHarness(t testing.TB) *harness {
	t.Helper()
	h := newHarnessWith(t, memBackend(), func(o *web.Options) { o.Access = accessConfig(t) })
	as := func(token, method, path, body string, want int) response {
		t.Helper()
		r := h.do(method, path, body, bearer(token)...)
		require.Equal(t, want, r.status, "%s %s: %s", method, path, r.body)
		return r
	}
	as(anaToken, "POST", "/api/campaigns", `{"id":"mordor","name":"La torre de Mordor","system":"ryf"}`, http.StatusCreated)
	for _, body := range []string{lodinBody, ruisenorBody, orcoBody} {
		as(anaToken, "POST", "/api/campaigns/mordor/commands/character-create", body, http.StatusCreated)
	}
	as(anaToken, "POST", "/api/campaigns/mordor/commands/session-start", `{}`, http.StatusOK)
	as(zedToken, "POST", "/api/campaigns", `{"id":"gondor","system":"ryf"}`, http.StatusCreated)
	as(zedToken, "POST", "/api/campaigns/gondor/commands/character-create", lodinBody, http.StatusCreated)
	return h
}

// TestAccessRefused: with access control, every forbidden request is
// refused with the right status and records nothing.
func TestAccessRefused(t *testing.T) {
	h := newAccessHarness(t)
	roll := "/api/campaigns/mordor/commands/roll"
	cases := []struct {
		name         string
		method, path string
		body         string
		header       []string
		want         int
	}{
		{"list without a token", "GET", "/api/campaigns", "", nil, 401},
		{"read without a token", "GET", "/api/campaigns/mordor", "", nil, 401},
		{"roll without a token", "POST", roll, `{"character":"ruisenor","skill":"Pelea"}`, nil, 401},
		{"create a campaign without a token", "POST", "/api/campaigns", `{"id":"moria","system":"ryf"}`, nil, 401},
		{"commands without a token", "GET", "/api/commands", "", nil, 401},
		{"unknown route without a token", "GET", "/api/nope", "", nil, 401},
		{"wrong method without a token", "DELETE", "/api/campaigns/mordor", "", nil, 401},
		{"unknown token", "POST", roll, `{"character":"ruisenor","skill":"Pelea"}`, bearer("not-a-token-0123456789"), 401},
		{"hashed token as the token", "GET", "/api/campaigns", "", bearer(access.HashToken(beaToken)), 401},
		{"basic auth", "GET", "/api/campaigns", "", []string{"Authorization", "Basic YW5hOmFuYQ=="}, 401},
		{"empty bearer", "GET", "/api/campaigns", "", []string{"Authorization", "Bearer "}, 401},
		{"query token outside the event stream", "GET", "/api/campaigns/mordor?access_token=" + beaToken, "", nil, 401},
		{"query token on the JSON events", "GET", "/api/campaigns/mordor/events?access_token=" + beaToken, "", nil, 401},
		{"query token on a command", "POST", roll + "?access_token=" + anaToken, `{"character":"ruisenor","skill":"Pelea"}`, nil, 401},

		{"player rolls for another's character", "POST", roll, `{"character":"lodin","skill":"Sigilo"}`, bearer(beaToken), 403},
		{"player rolls for an NPC", "POST", roll, `{"character":"orco","skill":"Pelea"}`, bearer(beaToken), 403},
		{"player rolls for nobody", "POST", roll, `{"skill":"Pelea"}`, bearer(beaToken), 403},
		{"player smuggles a second character field", "POST", roll, `{"character":"ruisenor","Character":"lodin","skill":"Pelea"}`, bearer(beaToken), 403},
		{"player sends a non-object body (bad input, not a permission problem)", "POST", roll, `["ruisenor"]`, bearer(beaToken), 400},
		{"player attacks as another", "POST", "/api/campaigns/mordor/commands/attack", `{"attacker":"orco","target":"ruisenor"}`, bearer(beaToken), 403},
		{"player damages", "POST", "/api/campaigns/mordor/commands/damage", `{"character":"lodin","amount":5}`, bearer(beaToken), 403},
		{"player grants XP", "POST", "/api/campaigns/mordor/commands/xp", `{"character":"ruisenor","amount":10}`, bearer(beaToken), 403},
		{"player ends the session", "POST", "/api/campaigns/mordor/commands/session-end", `{}`, bearer(beaToken), 403},
		{"player creates a character", "POST", "/api/campaigns/mordor/commands/character-create", `{"id":"gimli","attributes":"F=8,R=7,D=9,I=8,P=8"}`, bearer(beaToken), 403},
		{"player creates a campaign", "POST", "/api/campaigns", `{"id":"moria","system":"ryf"}`, bearer(beaToken), 403},
		{"player reads another campaign", "GET", "/api/campaigns/gondor", "", bearer(beaToken), 403},
		{"player reads another campaign's characters", "GET", "/api/campaigns/gondor/characters/lodin", "", bearer(beaToken), 403},
		{"player reads another campaign's events", "GET", "/api/campaigns/gondor/events", "", bearer(beaToken), 403},
		{"player rolls in another campaign", "POST", "/api/campaigns/gondor/commands/roll", `{"character":"ruisenor"}`, bearer(beaToken), 403},
		{"dashboard rolls", "POST", roll, `{"character":"ruisenor","skill":"Pelea"}`, bearer(wallToken), 403},
		{"dashboard starts a day", "POST", "/api/campaigns/mordor/commands/day-new", `{}`, bearer(wallToken), 403},
		{"dashboard creates a campaign", "POST", "/api/campaigns", `{"id":"moria","system":"ryf"}`, bearer(wallToken), 403},
		{"stranger reads mordor", "GET", "/api/campaigns/mordor", "", bearer(zedToken), 403},
		{"stranger reads mordor's transcript", "GET", "/api/campaigns/mordor/transcript", "", bearer(zedToken), 403},
		{"stranger reads mordor's stats", "GET", "/api/campaigns/mordor/stats", "", bearer(zedToken), 403},
		{"stranger damages in mordor", "POST", "/api/campaigns/mordor/commands/damage", `{"character":"lodin","amount":5}`, bearer(zedToken), 403},
		{"stranger creates mordor's neighbour", "POST", "/api/campaigns", `{"id":"moria","system":"ryf"}`, bearer(zedToken), 403},
		{"stranger follows mordor", "GET", "/api/campaigns/mordor/events?access_token=" + zedToken, "", []string{"Accept", "text/event-stream"}, 403},
		{"unknown token on the event stream", "GET", "/api/campaigns/mordor/events?access_token=nope-nope-nope-nope", "", []string{"Accept", "text/event-stream"}, 401},
	}
	before := h.count(t)
	for _, tc := range cases {
		r := h.do(tc.method, tc.path, tc.body, tc.header...)
		wantError(t, tc.name, r, tc.want)
		if tc.want == http.StatusUnauthorized && !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q, want Bearer", tc.name, r.header.Get("WWW-Authenticate"))
		}
		if n := h.count(t); n != before {
			t.Fatalf("%s: %d events stored, want %d: a refused request recorded something", tc.name, n, before)
		}
	}
}

// TestAccessAllowed: what each role may do succeeds, and the events carry
// the user's name.
func TestAccessAllowed(t *testing.T) {
	h := newAccessHarness(t)
	post := func(token, name, body string) result {
		t.Helper()
		// The actor header is ignored under access control: the token names the actor.
		r := h.do("POST", "/api/campaigns/mordor/commands/"+name, body, append(bearer(token), web.ActorHeader, "Gandalf")...)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", name, r.body)
		var res result
		r.json(t, &res)
		return res
	}
	res := post(beaToken, "roll", `{"character":"ruisenor","skill":"Pelea"}`)
	require.Equal(t, []string{events.TypeRollMade}, res.types())
	require.Equal(t, "bea", res.Recorded[0].Event.Actor)
	res = post(anaToken, "damage", `{"character":"lodin","amount":2}`)
	require.Equal(t, "ana", res.Recorded[0].Event.Actor)

	var sheet map[string]any
	r := h.do("GET", "/api/campaigns/mordor/characters/lodin", "", bearer(beaToken)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	r.json(t, &sheet)
	for _, token := range []string{anaToken, beaToken, wallToken} {
		for _, path := range []string{"/api/campaigns/mordor", "/api/campaigns/mordor/transcript", "/api/campaigns/mordor/events", "/api/commands"} {
			r := h.do("GET", path, "", bearer(token)...)
			require.Equal(t, http.StatusOK, r.status, "GET %s: %s", path, r.body)
		}
	}

	// The campaign list shows what each may read.
	for token, want := range map[string][]string{anaToken: {"mordor"}, beaToken: {"mordor"}, wallToken: {"mordor"}, zedToken: {"gondor"}} {
		var list []struct {
			ID string `json:"id"`
		}
		r := h.do("GET", "/api/campaigns", "", bearer(token)...)
		require.Equal(t, http.StatusOK, r.status)
		r.json(t, &list)
		var ids []string
		for _, c := range list {
			ids = append(ids, c.ID)
		}
		require.Equal(t, want, ids, "campaigns of token %s", token)
	}

	// The event stream takes the token from the query (EventSource sends
	// no headers) or from the header.
	s := h.stream("/api/campaigns/mordor/events?from=1&access_token=" + wallToken)
	ev := s.next(t, 5*time.Second)
	require.Equal(t, uint64(1), ev.ID)
	s = h.stream("/api/campaigns/mordor/events?from=1", bearer(beaToken)...)
	require.Equal(t, uint64(1), s.next(t, 5*time.Second).ID)

	// The dashboard, metrics and health stay public.
	for _, path := range []string{"/", "/static/app.js", "/metrics", "/healthz"} {
		r := h.do("GET", path, "")
		require.Equal(t, http.StatusOK, r.status, "GET %s", path)
	}
}

// TestCommandNamesMatchNATS: the HTTP API and the NATS command service know
// the same commands, and every player command (access.PlayerCommand, whose
// acting-character field both read) is one of them.
func TestCommandNamesMatchNATS(t *testing.T) {
	h := newHarness(t, memBackend())
	var list []struct {
		Name string          `json:"name"`
		Body json.RawMessage `json:"body"`
	}
	h.get("/api/commands", http.StatusOK, &list)
	names := []string{"campaign-create"} // POST /api/campaigns
	fields := map[string]map[string]json.RawMessage{}
	for _, c := range list {
		names = append(names, c.Name)
		var body map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(c.Body, &body))
		fields[c.Name] = body
	}
	slices.Sort(names)
	nats := natscmd.Commands()
	slices.Sort(nats)
	require.Equal(t, nats, names)
	for _, c := range access.PlayerCommands() {
		field, ok := access.PlayerCommand(c)
		require.True(t, ok, c)
		require.Contains(t, names, c)
		require.Contains(t, fields[c], field, "the body of %s names its acting character %q", c, field)
	}
}
