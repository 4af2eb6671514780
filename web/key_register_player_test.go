package web_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
)

// TestPlayerRegistersOwnKeyOnly attacks key-register as each role and
// anonymously: a player (bea, ruisenor's) registers its own key as a
// player, signed by it, naming its character; it may not register a key
// for another user, as the GM (not even before the campaign has a GM
// key), a bare key, or naming another's character; a dashboard and an
// anonymous client may not register at all. Every refusal records nothing.
func TestPlayerRegistersOwnKeyOnly(t *testing.T) {
	th := newTableHarness(t)
	sealed := func(user, role string, key byte, character string) string {
		reg := device.MustRegister(goKey(key), "mordor", user, role, "laptop")
		b, err := json.Marshal(map[string]string{"character": character, "signed": reg.Signed, "signature": reg.Signature})
		require.NoError(t, err)
		return string(b)
	}
	const path = "/api/campaigns/mordor/commands/key-register"
	for _, tc := range []struct {
		what, token, body string
		status            int
	}{
		{"a player bootstraps the GM's key as its own", beaToken, sealed("bea", "gm", 31, "ruisenor"), http.StatusBadRequest},
		{"a player registers another user's key", beaToken, sealed("ana", "player", 32, "ruisenor"), http.StatusBadRequest},
		{"a player registers a bare key for itself", beaToken, `{"character":"ruisenor","user":"bea","role":"player","public_key":"` + pubHex(goKey(33)) + `"}`, http.StatusBadRequest},
		{"a player names another's character", beaToken, sealed("bea", "player", 34, "lodin"), http.StatusForbidden},
		{"a player names no character", beaToken, sealed("bea", "player", 35, ""), http.StatusForbidden},
		{"a dashboard registers", wallToken, sealed("wall", "player", 36, "ruisenor"), http.StatusForbidden},
		{"a stranger GM registers in another's campaign", zedToken, sealed("zed", "gm", 37, ""), http.StatusForbidden},
		{"anonymous", "", sealed("bea", "player", 38, "ruisenor"), http.StatusUnauthorized},
	} {
		before := th.count(t)
		var hdr []string
		if tc.token != "" {
			hdr = bearer(tc.token)
		}
		r := th.do(http.MethodPost, path, tc.body, hdr...)
		require.Equal(t, tc.status, r.status, "%s: %s", tc.what, r.body)
		require.Equal(t, before, th.count(t), "%s: recorded something", tc.what)
	}

	before := th.count(t)
	r := th.do(http.MethodPost, path, sealed("bea", "player", 39, "ruisenor"), bearer(beaToken)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var res result
	r.json(t, &res)
	require.Equal(t, []string{events.TypeDeviceRegistered}, res.types())
	require.Equal(t, before+1, th.count(t))
	var d events.DeviceRegistered
	require.NoError(t, json.Unmarshal(res.Recorded[0].Event.Data, &d))
	require.Equal(t, "bea", d.User)
	require.Equal(t, "player", d.Role)
	require.Equal(t, "bea", d.By, "registered by its own user: no key-by-other")
}
