package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// storeCount returns the number of events the harness's store holds.
func (h *harness) storeCount() int {
	h.t.Helper()
	n := 0
	require.NoError(h.t, h.store.Read(context.Background(), events.Query{}, func(events.Recorded) error { n++; return nil }))
	return n
}

// repeatedResult is a command's answer with its repeated flag.
type repeatedResult struct {
	result
	Repeated bool `json:"repeated"`
}

// TestCommandRetriedWithRequestID: a client that sent a command and saw
// no answer (a timeout: the server did record it) sends it again with the
// same request id, as the Idempotency-Key header or the body's request_id:
// nothing more is recorded, and the answer is the original one (the same
// events, the same dice). The same id for another command, an id in both
// places that differ, and an invalid id are refused with one error, and
// record nothing.
func TestCommandRetriedWithRequestID(t *testing.T) {
	h := newHarness(t, jetBackend(false))
	create := `{"id":"mordor","name":"La torre de Mordor","system":"ryf"}`
	first := h.do(http.MethodPost, "/api/campaigns", create, "Idempotency-Key", "create-1")
	require.Equal(t, http.StatusCreated, first.status, "%s", first.body)
	again := h.do(http.MethodPost, "/api/campaigns", create, "Idempotency-Key", "create-1")
	require.Equal(t, http.StatusCreated, again.status, "%s", again.body)
	var a, b repeatedResult
	first.json(t, &a)
	again.json(t, &b)
	require.True(t, b.Repeated)
	require.Equal(t, a.Recorded[0].Event.ID, b.Recorded[0].Event.ID)
	for _, body := range []string{lodinBody, orcoBody} {
		h.command("mordor", "character-create", body, http.StatusCreated)
	}
	h.command("mordor", "session-start", ``, http.StatusOK)

	roll := "/api/campaigns/mordor/commands/roll"
	for _, tt := range []struct {
		name   string
		body   string
		header []string
	}{
		{"header", `{"character":"lodin","skill":"Sigilo"}`, []string{"Idempotency-Key", "roll-h"}},
		{"body", `{"request_id":"roll-b","character":"lodin","skill":"Sigilo"}`, nil},
		{"both", `{"character":"lodin","skill":"Sigilo","request_id":"roll-2"}`, []string{"Idempotency-Key", "roll-2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := h.do(http.MethodPost, roll, tt.body, tt.header...)
			require.Equal(t, http.StatusOK, r.status, "%s", r.body)
			var orig repeatedResult
			r.json(t, &orig)
			require.False(t, orig.Repeated)
			require.Len(t, orig.Recorded, 1)
			n := h.storeCount()
			r = h.do(http.MethodPost, roll, tt.body, tt.header...)
			require.Equal(t, http.StatusOK, r.status, "%s", r.body)
			var retry repeatedResult
			r.json(t, &retry)
			require.True(t, retry.Repeated)
			require.Equal(t, n, h.storeCount(), "the retry recorded again")
			require.Equal(t, orig.Recorded[0].Seq, retry.Recorded[0].Seq)
			require.Equal(t, orig.Recorded[0].Event.ID, retry.Recorded[0].Event.ID)
			require.JSONEq(t, string(orig.Recorded[0].Event.Data), string(retry.Recorded[0].Event.Data))
		})
	}

	n := h.storeCount()
	for _, tt := range []struct {
		name, path, body string
		header           []string
		want             string
	}{
		{"same id, other arguments", roll, `{"character":"orco","skill":"Pelea"}`, []string{"Idempotency-Key", "roll-h"}, "already used for another command"},
		{"same id, other command", "/api/campaigns/mordor/commands/damage", `{"character":"orco","amount":1,"request_id":"roll-b"}`, nil, "already used for another command"},
		{"header and body differ", roll, `{"character":"lodin","skill":"Sigilo","request_id":"x"}`, []string{"Idempotency-Key", "y"}, "differ"},
		{"invalid id", roll, `{"character":"lodin","skill":"Sigilo"}`, []string{"Idempotency-Key", "no spaces"}, "invalid request id"},
		{"id not a string", roll, `{"character":"lodin","skill":"Sigilo","request_id":7}`, nil, "not a string"},
		{"id given twice", roll, `{"request_id":"a","character":"lodin","skill":"Sigilo","request_id":"a"}`, nil, "more than once"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := h.do(http.MethodPost, tt.path, tt.body, tt.header...)
			wantError(t, tt.name, r, http.StatusBadRequest)
			var e errorBody
			require.NoError(t, json.Unmarshal(r.body, &e))
			require.Contains(t, e.Error.MessageEN, tt.want)
			require.Equal(t, n, h.storeCount(), "a refused request recorded something")
		})
	}
}
