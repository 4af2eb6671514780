package access_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"github.com/campaign-journal/journal/access"
)

// TestReplyAllowed: a service answers only on the requester's own inbox.
func TestReplyAllowed(t *testing.T) {
	tests := []struct {
		user, reply string
		want        bool
	}{
		{"bea", "_INBOX.bea.abc", true},
		{"bea", "_INBOX.bea.abc.1", true},
		{"bea", "_INBOX.bea", false},
		{"bea", "_INBOX.bea.", false},
		{"bea", "_INBOX.bea..x", false},
		{"bea", "_INBOX.bea.x.", false},
		{"bea", "_INBOX.bea.>", false},
		{"bea", "_INBOX.bea.*", false},
		{"bea", "_INBOX.bea.a*", false},
		{"bea", "_INBOX.bea.a b", false},
		{"bea", "_INBOX.bea.a\tb", false},
		{"bea", "_INBOX.beatrix.x", false},
		{"bea", "_INBOX.ana.x", false},
		{"bea", "_INBOX.x", false},
		{"bea", "", false},
		{"bea", "journal.mordor.char.x.roll", false},
		{"bea", "$KV.journal_secrets.seed.mordor.s1", false},
		{"bea", "$JS.API.STREAM.DELETE.JOURNAL", false},
		{"bea", "journal.mordor", false},
		{"bea", "$JS.API.CONSUMER.CREATE.JOURNAL.x.journal.mordor", false},
		{"bea", "journalcmd.ana.mordor.session-end", false},
		{"", "_INBOX..x", false},
		{"*", "_INBOX.*.x", false},
		{">", "_INBOX.>.x", false},
		{"a.b", "_INBOX.a.b.x", false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, access.ReplyAllowed(tt.user, tt.reply), "%q answering on %q", tt.user, tt.reply)
	}
}

// TestResponderPermissionsInboxesOnly: the responder publishes to inboxes
// and nothing else.
func TestResponderPermissionsInboxesOnly(t *testing.T) {
	p := access.ResponderPermissions()
	require.Equal(t, []string{"_INBOX.>"}, p.Publish.Allow)
	require.Contains(t, p.Subscribe.Allow, access.CommandPrefix+".>")
}

// TestExampleCredentials: every credential of deploy/access.example.json
// is recognised (its passwords are the documented "<name>-change-me",
// bcrypt-hashed; its tokens "<name>-token-change-me"), in the file's form
// and in plain text; credentials of one's own are not.
func TestExampleCredentials(t *testing.T) {
	c, err := access.Load(filepath.Join("..", "deploy", "access.example.json"))
	require.NoError(t, err)
	found := c.ExampleCredentials()
	passwords, tokens := 0, 0
	for _, u := range c.Users {
		if u.Password != "" {
			passwords++
			require.NoError(t, bcrypt.CompareHashAndPassword([]byte(u.Password), []byte(u.Name+"-change-me")), "the documented password of %s", u.Name)
			require.True(t, access.ExamplePassword(u.Name+"-change-me"))
		}
		if len(u.Tokens) > 0 {
			tokens++
			require.Contains(t, u.Tokens, access.HashToken(u.Name+"-token-change-me"), "the documented token of %s", u.Name)
		}
	}
	require.Len(t, found, passwords+tokens, strings.Join(found, "\n"))

	plain, err := access.New(
		access.User{Name: "ana", Role: access.RoleGM, Campaign: "mordor", Password: "ana-change-me"},
		access.User{Name: "x", Role: access.RoleDashboard, Campaign: "mordor", Tokens: []string{"wall-token-change-me"}},
	)
	require.NoError(t, err)
	require.Len(t, plain.ExampleCredentials(), 2, "plain text forms of the examples")
	require.Empty(t, testConfig(t).ExampleCredentials(), "credentials of one's own")
	require.False(t, access.ExamplePassword(""))
	var none *access.Config
	require.Empty(t, none.ExampleCredentials())
}

// TestFeedPermissions: a user subscribes to its own inboxes and its
// campaign's feed, every campaign's for a campaign "*", and no JetStream
// subject is allowed to it: the same whatever the journal's partitions,
// in the server's users and in the cluster's configuration.
func TestFeedPermissions(t *testing.T) {
	p := access.Permissions(access.User{Name: "bea", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"ruisenor"}})
	require.Equal(t, []string{"_INBOX.bea.>", "journalfeed.mordor"}, p.Subscribe.Allow)
	for _, s := range p.Publish.Allow {
		require.True(t, strings.HasPrefix(s, access.CommandPrefix+".bea.mordor."), "bea may publish %s", s)
	}
	for _, d := range []string{"$JS.>", "$KV.>", "$SYS.>", "journal.>", "journalfeed.>", "_INBOX.>"} {
		require.Contains(t, p.Publish.Deny, d)
	}
	all := access.Permissions(access.User{Name: "wall", Role: access.RoleDashboard, Campaign: "*"})
	require.Equal(t, []string{"_INBOX.wall.>", "journalfeed.*"}, all.Subscribe.Allow)
	require.Equal(t, []string{"journalcmd.wall.*.events"}, all.Publish.Allow)
	cfg, err := access.New(access.User{Name: "bea", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"ruisenor"}, Password: "x"})
	require.NoError(t, err)
	require.Contains(t, cfg.NATSConfig(), `"journalfeed.mordor"`)
	require.NotContains(t, cfg.NATSConfig(), "$JS.API.CONSUMER")
}
