package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/invitetext"
)

// TestInviteCommand: journal invite prints a one-time link and keeps only
// its token's hash beside the access file; bad input records no invite;
// devices list shows it and devices revoke ends it.
func TestInviteCommand(t *testing.T) {
	c := newAccessCLI(t)
	c.add("ana", "--role", "gm", "--campaign", "mordor")
	var inv invitetext.Invited
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "-c", "mordor", "invite", "bea", "--character", "ruisenor", "--url", "https://table.example/")), &inv))
	require.True(t, strings.HasPrefix(inv.Link, "https://table.example/table#invite="), inv.Link)
	token := strings.TrimPrefix(inv.Link, "https://table.example/table#invite=")
	book, err := os.ReadFile(invite.PathFor(c.file))
	require.NoError(t, err)
	require.NotContains(t, string(book), token, "the book keeps the token's hash only")
	fi, err := os.Stat(invite.PathFor(c.file))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no campaign", []string{"invite", "cai", "--character", "lodin"}, "-c ID"},
		{"a player without a character", []string{"-c", "mordor", "invite", "cai"}, "--character"},
		{"an unknown role", []string{"-c", "mordor", "invite", "cai", "--role", "god"}, "--role"},
		{"a viewer with a character", []string{"-c", "mordor", "invite", "cai", "--role", "viewer", "--character", "lodin"}, "only players"},
		{"a bad name", []string{"-c", "mordor", "invite", "Cai Zed", "--character", "lodin"}, "player"},
		{"the access file's gm as a player", []string{"-c", "mordor", "invite", "ana", "--character", "lodin"}, "another name"},
		{"a bad url", []string{"-c", "mordor", "invite", "cai", "--character", "lodin", "--url", "javascript:alert(1)"}, "--url"},
		{"no expiry", []string{"-c", "mordor", "invite", "cai", "--character", "lodin", "--expires", "0s"}, "--expires"},
	} {
		_, stderr, code := c.run(append([]string{"--lang", "en"}, tc.args...)...)
		require.NotZero(t, code, tc.name)
		require.Contains(t, stderr, tc.want, tc.name)
		after, err := os.ReadFile(invite.PathFor(c.file))
		require.NoError(t, err)
		require.Equal(t, string(book), string(after), "%s: the book changed", tc.name)
	}

	list := c.ok("--lang", "en", "-c", "mordor", "devices", "list")
	require.Contains(t, list, inv.Invite)
	require.Contains(t, list, "open until")
	c.ok("devices", "revoke", inv.Invite)
	require.Contains(t, c.ok("--lang", "en", "-c", "mordor", "devices", "list"), "revoked")
	_, stderr, code := c.run("--lang", "en", "devices", "revoke", "d-nothing")
	require.NotZero(t, code)
	require.Contains(t, stderr, "no device or invite")
}

// TestInviteToASecondCampaign: a user of the access file, or one the book
// signed in already, is invited to another campaign under the same name
// (a device's sign-in is its campaign's); only a role other than the
// access file's in the same campaign is refused.
func TestInviteToASecondCampaign(t *testing.T) {
	c := newAccessCLI(t)
	c.add("ana", "--role", "gm", "--campaign", "mordor")
	c.add("bea", "--role", "player", "--campaign", "mordor", "--character", "ruisenor")
	c.ok("-c", "mordor", "invite", "bea", "--character", "ruisenor")
	c.ok("-c", "gondor", "invite", "bea", "--character", "faramir")
	c.ok("-c", "gondor", "invite", "ana", "--role", "gm")
	c.ok("-c", "gondor", "invite", "ana", "--character", "boromir")
	_, stderr, code := c.run("--lang", "en", "-c", "mordor", "invite", "bea", "--role", "gm")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "another name")
	f, err := invite.Open(invite.PathFor(c.file), nil, nil).Load(context.Background())
	require.NoError(t, err)
	require.Len(t, f.Invites, 4)
}
