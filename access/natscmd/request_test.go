package natscmd_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
)

// TestRequestRetriedWithRequestID: a request sent again with the same
// request_id in its body (its first reply lost: the service did record
// it) records nothing more and replies with the original events, for the
// GM and for a player; a player's request_id changes nothing of what the
// player may do; the same id for another command and a malformed id are
// refused and record nothing.
func TestRequestRetriedWithRequestID(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	ana := w.connect(t, "ana", "ana-pw")
	bea := w.connect(t, "bea", "bea-pw")
	for _, tt := range []struct {
		name string
		c    *client
		cmd  string
		body map[string]any
	}{
		{"gm damage", ana, "damage", map[string]any{"character": "orco", "amount": 1, "request_id": "d-1"}},
		{"gm contest", ana, "contest", map[string]any{"a": "lodin", "skill_a": "Sigilo", "b": "orco", "skill_b": "Pelea", "request_id": "c-1"}},
		{"player roll", bea, "roll", map[string]any{"character": "ruisenor", "skill": "Advertir", "request_id": "r-1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			orig, err := natscmd.Request(ctx, tt.c.nc, tt.c.user, "mordor", tt.cmd, tt.body)
			require.NoError(t, err)
			require.False(t, orig.Repeated)
			require.NotEmpty(t, orig.Recorded)
			n := w.count(t)
			retry, err := natscmd.Request(ctx, tt.c.nc, tt.c.user, "mordor", tt.cmd, tt.body)
			require.NoError(t, err)
			require.True(t, retry.Repeated)
			require.Equal(t, n, w.count(t), "the retry recorded again")
			require.Len(t, retry.Recorded, len(orig.Recorded))
			for i := range orig.Recorded {
				require.Equal(t, orig.Recorded[i].Seq, retry.Recorded[i].Seq)
				require.Equal(t, orig.Recorded[i].Event.ID, retry.Recorded[i].Event.ID)
				require.JSONEq(t, string(orig.Recorded[i].Event.Data), string(retry.Recorded[i].Event.Data))
				require.Equal(t, tt.body["request_id"], retry.Recorded[i].Event.RequestID)
			}
		})
	}
	n := w.count(t)
	for _, tt := range []struct {
		name string
		c    *client
		cmd  string
		body any
		want error
	}{
		{"same id, other command", ana, "heal", map[string]any{"character": "orco", "amount": 1, "request_id": "d-1"}, command.ErrInvalid},
		{"player, another's character", bea, "roll", map[string]any{"character": "lodin", "skill": "Sigilo", "request_id": "r-2"}, access.ErrDenied},
		{"player, id not a string", bea, "roll", []byte(`{"character":"ruisenor","skill":"Advertir","request_id":["r"]}`), command.ErrInvalid},
		{"invalid id", ana, "damage", map[string]any{"character": "orco", "amount": 1, "request_id": "a/b"}, command.ErrInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := natscmd.Request(ctx, tt.c.nc, tt.c.user, "mordor", tt.cmd, tt.body)
			require.ErrorIs(t, err, tt.want)
			require.Equal(t, n, w.count(t), "a refused request recorded something")
		})
	}
}

// TestRepliesCarryTheirContentType: a reply, and a refusal, carry the
// header Content-Type: application/json beside the micro error headers.
func TestRepliesCarryTheirContentType(t *testing.T) {
	w := newWorld(t)
	bea := w.connect(t, "bea", "bea-pw")
	for _, tt := range []struct{ cmd, body string }{
		{access.ReadCommand, `{}`},
		{"roll", `{"character":"lodin","skill":"Sigilo"}`}, // another's character: refused
	} {
		m, err := bea.nc.Request(access.CommandSubject("bea", "mordor", tt.cmd), []byte(tt.body), 10*time.Second)
		require.NoError(t, err)
		require.Equal(t, natscmd.ReplyContentType, m.Header.Get("Content-Type"), "%s: headers %v", tt.cmd, m.Header)
	}
}
