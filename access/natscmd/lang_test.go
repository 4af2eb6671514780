package natscmd_test

import (
	"encoding/json"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
)

// TestRefusalInTheRequestsLanguage: a refusal's reply carries its message
// in the request's Accept-Language header (English without one), and the
// English format string and arguments it was rendered from.
func TestRefusalInTheRequestsLanguage(t *testing.T) {
	w := newWorld(t)
	ana := w.connect(t, "ana", "ana-pw")
	for lang, want := range map[string]string{"es-ES,es;q=0.9": "no hay personaje", "en": "no character", "": "no character"} {
		msg := nats.NewMsg(access.CommandSubject("ana", "mordor", "damage"))
		msg.Data = []byte(`{"character":"gandalf","amount":1}`)
		if lang != "" {
			msg.Header.Set("Accept-Language", lang)
		}
		res, err := ana.nc.RequestMsgWithContext(t.Context(), msg)
		require.NoError(t, err)
		var reply natscmd.Reply
		require.NoError(t, json.Unmarshal(res.Data, &reply), "%s", res.Data)
		require.Equal(t, "not_found", reply.Code)
		require.Contains(t, reply.Message, want, "Accept-Language %q", lang)
		require.Contains(t, reply.Error, "no character", "error stays English")
		require.NotEmpty(t, reply.Key)
		require.Contains(t, reply.Args, "gandalf")
	}
}
