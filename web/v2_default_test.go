package web_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestSessionStartDefaultOverHTTP: over HTTP, as on the CLI, a session
// started without "dice" is journal-dice-v2 once the campaign has a
// registered device key (a GM key alone too), v1 before; "dice" v2 is
// honoured either way, "dice" v1 only before any key (no downgrade: a 400
// naming why, nothing recorded); the session-started event records the
// algorithm.
func TestSessionStartDefaultOverHTTP(t *testing.T) {
	h := newHarness(t, jetBackend(false))
	h.setup("mordor")
	key := func() string {
		pub, _, err := ed25519.GenerateKey(rand.Reader)
		require.NoError(t, err)
		return signed.PublicKey(pub).String()
	}
	started := func(body string) string {
		t.Helper()
		res := h.command("mordor", "session-start", body, http.StatusOK)
		for _, r := range res.Recorded {
			if r.Event.Type == events.TypeSessionStarted {
				var d events.SessionStarted
				require.NoError(t, r.Event.DecodeData(&d))
				h.command("mordor", "session-end", ``, http.StatusOK)
				return d.Algorithm
			}
		}
		t.Fatalf("session-start %s recorded %v", body, res.types())
		return ""
	}
	require.Equal(t, dice.Algorithm, started(``), "no key: v1")
	require.Equal(t, dice.AlgorithmV2, started(`{"dice":"v2"}`), "v2 asked for explicitly, without any player key")
	_, gmKey, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	gmReg, err := json.Marshal(command.RegisterKey{SignedMessage: device.MustRegister(gmKey, "mordor", "api", "gm", "")}) // the server's own identity (no access control)
	require.NoError(t, err)
	h.command("mordor", "key-register", string(gmReg), http.StatusOK)
	require.Equal(t, dice.AlgorithmV2, started(`{}`), "a GM key alone: v2")
	h.command("mordor", "key-register", fmt.Sprintf(`{"user":"ana","role":"player","public_key":%q}`, key()), http.StatusOK)
	require.Equal(t, dice.AlgorithmV2, started(``), "a player's key: v2 by default")
	require.Equal(t, dice.AlgorithmV2, started(`{"title":"La torre"}`), "a player's key: v2 by default")
	before := h.count(t)
	r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`)
	require.Equal(t, http.StatusBadRequest, r.status, "%s", r.body)
	require.Contains(t, string(r.body), "no journal-dice-v1 session once device keys are registered")
	require.Equal(t, before, h.count(t), "v1 asked for explicitly: refused, nothing recorded")
}
