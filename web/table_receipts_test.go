package web_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// The event-hash route gives a device the campaign's event at a sequence
// as stored (its hash and bytes), to those who may read the campaign only,
// and nothing of another campaign's sequence.
func TestEventHashRoute(t *testing.T) {
	h := newAccessHarness(t)
	call := func(token, path string, want int) response {
		t.Helper()
		var hdr []string
		if token != "" {
			hdr = bearer(token)
		}
		r := h.do(http.MethodGet, path, "", hdr...)
		require.Equal(t, want, r.status, "%s: %s", path, r.body)
		return r
	}
	var got struct {
		Seq    uint64 `json:"seq"`
		Event  string `json:"event"`
		Hash   string `json:"hash"`
		Stored string `json:"stored"`
	}
	call(beaToken, "/api/campaigns/mordor/events/1/hash", 200).json(t, &got)
	b, err := base64.StdEncoding.DecodeString(got.Stored)
	require.NoError(t, err)
	sum := sha256.Sum256(b)
	require.Equal(t, hex.EncodeToString(sum[:]), got.Hash)
	require.Equal(t, uint64(1), got.Seq)
	require.NotEmpty(t, got.Event)
	call("", "/api/campaigns/mordor/events/1/hash", 401)
	call(zedToken, "/api/campaigns/mordor/events/1/hash", 403)
	call(beaToken, "/api/campaigns/mordor/events/0/hash", 400)
	call(beaToken, "/api/campaigns/mordor/events/x/hash", 400)
	call(beaToken, "/api/campaigns/mordor/events/999999/hash", 404)
}
