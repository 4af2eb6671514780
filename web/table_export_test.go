package web_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/replay"
)

// TestTableExport: GET /api/campaigns/{c}/export is what `journal export`
// writes: one line per event of the campaign, in stream order, each line
// the event's stored bytes (those the chain hashes, as
// /events/{seq}/hash gives them), which replay verifies. It is read as
// the campaign's events are: a player of the campaign may, an anonymous
// client and another campaign's GM may not.
func TestTableExport(t *testing.T) {
	th := newTableHarness(t)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`, nil)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"Sigilo","vs":"media"}`, nil)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-end", `{}`, nil)

	r := th.do(http.MethodGet, "/api/campaigns/mordor/export", "", bearer(beaToken)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	require.Contains(t, r.header.Get("Content-Type"), "application/jsonl")
	lines := strings.Split(strings.TrimSuffix(string(r.body), "\n"), "\n")
	require.Len(t, lines, len(th.events(t, "mordor")), "one line per event")
	var recs []struct {
		Seq uint64 `json:"seq"`
	}
	th.gm(t, "GET", "/api/campaigns/mordor/events?limit=10000", "", &recs)
	require.Len(t, recs, len(lines))
	for i, line := range lines {
		var stored struct {
			Stored string `json:"stored"`
		}
		th.gm(t, "GET", fmt.Sprintf("/api/campaigns/mordor/events/%d/hash", recs[i].Seq), "", &stored)
		want, err := base64.StdEncoding.DecodeString(stored.Stored)
		require.NoError(t, err)
		require.Equal(t, string(want), line, "line %d is the event's stored bytes", i+1)
	}
	rep, err := replay.Verify(context.Background(), replay.JSONLSource(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(r.body)), nil
	}), replay.Options{})
	require.NoError(t, err)
	require.True(t, rep.OK(), "replay verifies the export")
	require.Equal(t, 1, rep.Totals.Verified, "its roll re-derived")

	require.Equal(t, http.StatusUnauthorized, th.do(http.MethodGet, "/api/campaigns/mordor/export", "").status, "anonymous")
	require.Equal(t, http.StatusForbidden, th.do(http.MethodGet, "/api/campaigns/mordor/export", "", bearer(zedToken)...).status, "another campaign's GM")
	require.Equal(t, http.StatusForbidden, th.do(http.MethodGet, "/api/campaigns/nowhere/export", "", bearer(anaToken)...).status, "a campaign not ana's")
}
