package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

// TestRuleNamesRoute: the names the GM's pickers offer are the rules'
// (RyF's skills in docs/rules.md's order with their attributes, the
// attributes by letter; The One Ring's skills with their English names),
// for any reader of the campaign, and nobody else.
func TestRuleNamesRoute(t *testing.T) {
	type names struct {
		System string `json:"system"`
		Skills []struct {
			Name, Attribute, English string
		} `json:"skills"`
		Attributes []struct{ Name, Letter string } `json:"attributes"`
	}
	th := newTableHarness(t)
	var n names
	r := th.do(http.MethodGet, "/api/campaigns/mordor/names", "", bearer(beaToken)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	r.json(t, &n)
	require.Equal(t, "ryf", n.System)
	require.Equal(t, "Advertir/Notar", n.Skills[0].Name)
	require.Equal(t, "P", n.Skills[0].Attribute)
	var skills []string
	for _, s := range n.Skills {
		skills = append(skills, s.Name)
	}
	require.Contains(t, skills, "Sigilo")
	require.NotContains(t, skills, "Advertir", "the rules spell it Advertir/Notar")
	require.Equal(t, "Fuerza", n.Attributes[0].Name)
	require.Equal(t, "F", n.Attributes[0].Letter)
	wantError(t, "a stranger asks", th.do(http.MethodGet, "/api/campaigns/mordor/names", "", bearer(zedToken)...), http.StatusForbidden)

	tt := newTableHarnessFor(t, memBackend(), true)
	tt.gm(t, "GET", "/api/campaigns/mordor/names", "", &n)
	require.Equal(t, "tor", n.System)
	found := false
	for _, s := range n.Skills {
		if s.Name == "Persuadir" {
			found = s.English != ""
		}
	}
	require.True(t, found, "The One Ring's Persuadir, with its English name")
}

// TestGMInviteRoute: the GM makes an invite from the page, which a device
// then redeems as one made by journal invite; a player, a viewer, another
// campaign's GM and bad bodies are refused with one message each, and no
// invite is made.
func TestGMInviteRoute(t *testing.T) {
	th := newTableHarness(t)
	var got struct {
		Token, Link, Invite, User, Role, Campaign string
	}
	th.gm(t, "POST", "/api/campaigns/mordor/invites", `{"user":"cai","characters":["lodin"]}`, &got)
	require.Equal(t, "/table#invite="+got.Token, got.Link)
	require.Equal(t, "player", got.Role)
	require.Equal(t, "mordor", got.Campaign)
	var peek struct{ User, Campaign, Role string }
	r := th.do(http.MethodGet, "/api/invites/"+got.Token, "")
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	r.json(t, &peek)
	require.Equal(t, "cai", peek.User)

	before := len(inviteRows(t, th))
	for _, tc := range []struct {
		what, token, body string
		status            int
		want              string
	}{
		{"a player invites", beaToken, `{"user":"eve","characters":["ruisenor"]}`, http.StatusForbidden, "game master"},
		{"a viewer invites", wallToken, `{"user":"eve","role":"viewer"}`, http.StatusForbidden, "game master"},
		{"another campaign's GM", zedToken, `{"user":"eve","role":"viewer"}`, http.StatusForbidden, ""},
		{"no character", anaToken, `{"user":"eve"}`, http.StatusBadRequest, "character"},
		{"an unknown character", anaToken, `{"user":"eve","characters":["gollum"]}`, http.StatusBadRequest, "gollum"},
		{"a bad role", anaToken, `{"user":"eve","role":"king"}`, http.StatusBadRequest, "king"},
		{"a name the access file gives another role", anaToken, `{"user":"bea","role":"gm"}`, http.StatusBadRequest, "another name"},
		{"too long", anaToken, `{"user":"eve","role":"viewer","expires_hours":100000}`, http.StatusBadRequest, "expires_hours"},
		{"an unknown field", anaToken, `{"user":"eve","role":"viewer","admin":true}`, http.StatusBadRequest, "admin"},
	} {
		r := th.do(http.MethodPost, "/api/campaigns/mordor/invites", tc.body, bearer(tc.token)...)
		wantError(t, tc.what, r, tc.status)
		require.True(t, strings.Contains(string(r.body), tc.want), "%s: %s", tc.what, r.body)
	}
	require.Len(t, inviteRows(t, th), before, "a refused invite is not made")

	// A name the access file gives in another campaign is invited here,
	// as journal invite does (TestInviteToASecondCampaign): a device's
	// sign-in is its campaign's.
	th.gm(t, "POST", "/api/campaigns/mordor/invites", `{"user":"zed","characters":["lodin"]}`, &got)
	require.Equal(t, "zed", got.User)
	require.Len(t, inviteRows(t, th), before+1)
}

func inviteRows(t *testing.T, th *tableHarness) []map[string]any {
	t.Helper()
	var rows []map[string]any
	th.gm(t, "GET", "/api/campaigns/mordor/devices", "", &rows)
	return rows
}

// TestCombatSidesRecorded: a combat's start records every participant's
// side (the party's characters, the enemies' NPCs), and the campaign's
// combat shows them.
func TestCombatSidesRecorded(t *testing.T) {
	th := newTableHarness(t)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v1"}`, nil)
	th.gm(t, "POST", "/api/campaigns/mordor/commands/combat-start", `{"participants":["lodin","orco","ruisenor"]}`, nil)
	started, _ := eventsOfType[events.CombatStarted](t, th, events.TypeCombatStarted)
	require.Len(t, started, 1)
	want := map[string]string{"lodin": "party", "ruisenor": "party", "orco": "enemies"}
	require.Equal(t, want, started[0].Sides)
	var c projections.Campaign
	th.gm(t, "GET", "/api/campaigns/mordor", "", &c)
	require.Equal(t, want, c.Combat.Sides)
}
