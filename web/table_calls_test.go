package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/web"
)

// sharedBackend opens the same store every time (each with a fresh
// checkpoint bucket): a second harness on it is serve restarted.
func sharedBackend() backend {
	st := memstore.New(memstore.Options{})
	return backend{"memstore-shared", func(testing.TB) (web.Store, live.KV) { return st, live.NewMemKV() }}
}

// callJSON is a roll call as the table's routes answer it.
type callJSON struct {
	ID         string            `json:"id"`
	Characters []string          `json:"characters"`
	Skill      string            `json:"skill"`
	Attribute  string            `json:"attribute"`
	Vs         string            `json:"vs"`
	Note       string            `json:"note"`
	By         string            `json:"by"`
	Created    string            `json:"created"`
	Answered   map[string]string `json:"answered"`
}

// TestRollCallsSurviveARestart: the GM's roll calls are events. A call
// names its skill as the rules do (canonicalised when unambiguous,
// refused with the rules' suggestion otherwise); a double tap with one
// Idempotency-Key makes one call; a player answers once (a second roll
// naming the call is a conflict, "already answered", whatever its request
// id; a retry with the same one records nothing), only for its own
// character and only while the call is open; only the GM makes and closes
// calls; and after serve restarts, the call, who answered it and its ids
// are all there.
func TestRollCallsSurviveARestart(t *testing.T) {
	b := sharedBackend()
	setup := func() *harness {
		return newHarnessWith(t, b, func(o *web.Options) { o.Access = accessConfig(t) })
	}
	h := setup()
	as := func(token, method, path, body string, want int, hdr ...string) response {
		t.Helper()
		if token != "" {
			hdr = append(hdr, bearer(token)...)
		}
		r := h.do(method, "/api/campaigns/mordor"+path, body, hdr...)
		require.Equal(t, want, r.status, "%s %s %s: %s", method, path, body, r.body)
		return r
	}
	h.do("POST", "/api/campaigns", `{"id":"mordor","name":"La torre de Mordor","system":"ryf"}`, bearer(anaToken)...)
	for _, body := range []string{lodinBody, ruisenorBody} {
		as(anaToken, "POST", "/commands/character-create", body, http.StatusCreated)
	}
	as(anaToken, "POST", "/commands/session-start", `{"dice":"v1"}`, http.StatusOK)

	// The skill is checked when the call is made.
	for _, tc := range []struct{ name, body, want string }{
		{"an unknown skill", `{"characters":["ruisenor"],"skill":"Sigolo"}`, "Sigilo"},
		{"an unknown character", `{"characters":["nadie"],"skill":"Sigilo"}`, "nadie"},
		{"an unknown difficulty", `{"characters":["ruisenor"],"skill":"Sigilo","vs":"dura"}`, "dura"},
		{"no skill nor attribute", `{"characters":["ruisenor"]}`, "skill"},
		{"a character twice", `{"characters":["ruisenor","ruisenor"],"skill":"Sigilo"}`, "twice"},
	} {
		before := h.count(t)
		r := h.do("POST", "/api/campaigns/mordor/calls", tc.body, bearer(anaToken)...)
		require.GreaterOrEqual(t, r.status, 400, tc.name)
		require.Contains(t, string(r.body), tc.want, tc.name)
		require.Equal(t, before, h.count(t), "%s: recorded something", tc.name)
	}
	// Not the GM: refused, nothing recorded.
	body := `{"characters":["ruisenor","lodin"],"skill":"advertir","vs":"media","note":"un ruido arriba"}`
	before := h.count(t)
	as("", "POST", "/calls", body, 401)
	as(beaToken, "POST", "/calls", body, 403)
	as(wallToken, "POST", "/calls", body, 403)
	as(zedToken, "POST", "/calls", body, 403)
	require.Equal(t, before, h.count(t))

	// A double tap: one call.
	var first, again callJSON
	as(anaToken, "POST", "/calls", body, 200, "Idempotency-Key", "tap-call-1").json(t, &first)
	as(anaToken, "POST", "/calls", body, 200, "Idempotency-Key", "tap-call-1").json(t, &again)
	require.Equal(t, before+1, h.count(t), "a double tap records one call")
	require.Equal(t, first, again)
	require.Equal(t, "call-1", first.ID)
	require.Equal(t, "Advertir/Notar", first.Skill, "named as the rules do")
	require.Equal(t, "ana", first.By)
	require.Equal(t, "un ruido arriba", first.Note)
	require.Empty(t, first.Answered)
	var sigilo callJSON
	as(anaToken, "POST", "/calls", `{"characters":["lodin"],"skill":"sigilo"}`, 200).json(t, &sigilo)
	require.Equal(t, "call-2", sigilo.ID)
	require.Equal(t, "Sigilo", sigilo.Skill)

	// bea answers for ruisenor, once.
	roll := `{"character":"ruisenor","skill":"Advertir/Notar","vs":"media","call":"call-1"}`
	before = h.count(t)
	as(beaToken, "POST", "/commands/roll", `{"character":"lodin","skill":"Sigilo","call":"call-2"}`, 403)                         // another's character
	as(beaToken, "POST", "/commands/roll", `{"character":"ruisenor","skill":"Sigilo","call":"call-2"}`, 400)                      // a call not for ruisenor
	as(beaToken, "POST", "/commands/roll", `{"character":"ruisenor","skill":"Pelea","vs":"media","call":"call-1"}`, 400)          // another skill
	as(beaToken, "POST", "/commands/roll", `{"character":"ruisenor","skill":"Advertir/Notar","vs":"fácil","call":"call-1"}`, 400) // an easier one
	as(beaToken, "POST", "/commands/roll", `{"character":"ruisenor","skill":"Advertir/Notar","call":"call-9"}`, 404)
	require.Equal(t, before, h.count(t))
	var rolled struct {
		Recorded []struct {
			Event struct{ ID, Type string } `json:"event"`
		} `json:"recorded"`
	}
	as(beaToken, "POST", "/commands/roll", roll, 200, "Idempotency-Key", "tap-roll-1").json(t, &rolled)
	require.Equal(t, before+2, h.count(t), "the roll and its answer")
	as(beaToken, "POST", "/commands/roll", roll, 200, "Idempotency-Key", "tap-roll-1") // a retry: recorded once
	require.Equal(t, before+2, h.count(t))
	r := as(beaToken, "POST", "/commands/roll", roll, 409, "Idempotency-Key", "tap-roll-2") // a second tap, another id
	require.Contains(t, string(r.body), "already answered")
	wantError(t, "a second answer", r, 409)
	require.Equal(t, before+2, h.count(t))

	// The GM closes call-2; a player cannot.
	as(beaToken, "POST", "/calls/call-2/close", "", 403)
	as(anaToken, "POST", "/calls/call-2/close", "", 200, "Idempotency-Key", "tap-close-1")
	as(anaToken, "POST", "/calls/call-2/close", "", 200, "Idempotency-Key", "tap-close-1") // a retry
	as(anaToken, "POST", "/calls/call-2/close", "", 409)                                   // closed already
	r = as(anaToken, "POST", "/commands/roll", `{"character":"lodin","skill":"Sigilo","call":"call-2"}`, 409)
	require.Contains(t, string(r.body), "closed")

	// serve restarts: the calls are there, with who answered.
	h = setup()
	var calls []callJSON
	as(beaToken, "GET", "/calls", "", 200).json(t, &calls)
	require.Len(t, calls, 1)
	require.Equal(t, "call-1", calls[0].ID)
	require.Equal(t, map[string]string{"ruisenor": rolled.Recorded[0].Event.ID}, calls[0].Answered)
	require.Equal(t, "un ruido arriba", calls[0].Note)
	r = as(beaToken, "POST", "/commands/roll", roll, 409)
	require.Contains(t, string(r.body), "already answered", "still answered after the restart")
	var next callJSON
	as(anaToken, "POST", "/calls", `{"characters":["lodin"],"attribute":"F"}`, 200).json(t, &next)
	require.Equal(t, "call-3", next.ID, "ids are not given twice across a restart")
	require.True(t, strings.HasPrefix(next.Created, "20"))
	// The same commands on the commands route.
	as(beaToken, "POST", "/commands/call", `{"characters":["lodin"],"skill":"Pelea"}`, 403)
	as(anaToken, "POST", "/commands/call", `{"characters":["lodin"],"skill":"Pelea"}`, 200)
	as(beaToken, "POST", "/commands/call-close", `{"call":"call-4"}`, 403)
	as(anaToken, "POST", "/commands/call-close", `{"call":"call-4"}`, 200)
	as(beaToken, "GET", "/calls", "", 200).json(t, &calls)
	require.Len(t, calls, 2)
}

// TestRecentLinesSurviveARestart: the table's log (/recent) after serve
// restarts from the live projection's checkpoint (which keeps the state,
// not the lines) still has the lines of the events before it, in the
// page's language.
func TestRecentLinesSurviveARestart(t *testing.T) {
	st, kv := memstore.New(memstore.Options{}), live.NewMemKV()
	b := backend{"memstore-kv-shared", func(testing.TB) (web.Store, live.KV) { return st, kv }}
	h := newHarnessWith(t, b, func(o *web.Options) { o.Access = accessConfig(t) })
	as := func(h *harness, method, path, body string, want int) response {
		t.Helper()
		r := h.do(method, path, body, append(bearer(anaToken), "Accept-Language", "en")...)
		require.Equal(t, want, r.status, "%s %s: %s", method, path, r.body)
		return r
	}
	as(h, "POST", "/api/campaigns", `{"id":"mordor","name":"La torre de Mordor","system":"ryf"}`, http.StatusCreated)
	as(h, "POST", "/api/campaigns/mordor/commands/character-create", lodinBody, http.StatusCreated)
	as(h, "POST", "/api/campaigns/mordor/calls", `{"characters":["lodin"],"skill":"sigilo","note":"la puerta"}`, http.StatusOK)
	var recent struct {
		Lines []struct {
			Seq  uint64 `json:"seq"`
			Text string `json:"text"`
		} `json:"lines"`
	}
	as(h, "GET", "/api/campaigns/mordor/recent", "", 200).json(t, &recent)
	require.Len(t, recent.Lines, 3)
	before := recent.Lines
	require.Eventually(t, func() bool { keys, _ := kv.Keys(context.Background()); return len(keys) > 0 }, 5*time.Second, 20*time.Millisecond)
	time.Sleep(500 * time.Millisecond) // the checkpoint of the last event

	h2 := newHarnessWith(t, b, func(o *web.Options) { o.Access = accessConfig(t) })
	as(h2, "GET", "/api/campaigns/mordor/recent", "", 200).json(t, &recent)
	require.Equal(t, before, recent.Lines, "the same lines after the restart")
	require.Contains(t, recent.Lines[2].Text, "call-1")
}
