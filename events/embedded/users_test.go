package embedded_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/embedded"
)

// TestUsers: with users, the owner and the processes sharing its folder
// sign in as the owner's privileged user (from server.json, no token);
// configured users sign in with their own permissions; nobody else signs
// in; and the data folder's stream is the same with or without users.
func TestUsers(t *testing.T) {
	dir := t.TempDir()
	plain := start(t, embedded.Options{Dir: dir})
	createStream(t, plain.JetStream())
	plain.Shutdown()

	users := []*server.User{{Username: "reader", Password: "pw", Permissions: &server.Permissions{
		Publish: &server.SubjectPermission{Deny: []string{"t.>"}},
	}}}
	owner := start(t, embedded.Options{Dir: dir, Share: true, Users: users})
	require.Equal(t, uint64(0), lastSeq(t, owner.JetStream()), "the stream made without users is there")
	_, err := owner.JetStream().Publish(t.Context(), "t.a", []byte("x"))
	require.NoError(t, err, "the owner may do everything")
	require.Nil(t, users[0].Account, "the caller's users are copied, not changed")

	b, err := os.ReadFile(filepath.Join(dir, embedded.InfoFile))
	require.NoError(t, err)
	var info map[string]any
	require.NoError(t, json.Unmarshal(b, &info))
	require.NotContains(t, info, "token")
	require.True(t, strings.HasPrefix(info["user"].(string), "journal-owner-"), "server.json names the owner's user: %s", b)

	other := start(t, embedded.Options{Dir: dir})
	require.True(t, other.Remote())
	_, err = other.JetStream().Publish(t.Context(), "t.b", []byte("y"))
	require.NoError(t, err, "a process sharing the folder is privileged too")

	reader, err := nats.Connect(owner.ClientURL(), nats.UserInfo("reader", "pw"))
	require.NoError(t, err)
	defer reader.Close()
	errs := make(chan error, 1)
	reader.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err })
	require.NoError(t, reader.Publish("t.c", []byte("z")))
	require.NoError(t, reader.Flush())
	require.ErrorIs(t, <-errs, nats.ErrPermissionViolation)

	for _, opt := range []nats.Option{nats.Name("anonymous"), nats.UserInfo("reader", "wrong"), nats.Token(info["password"].(string))} {
		if nc, err := nats.Connect(owner.ClientURL(), opt, nats.MaxReconnects(0)); err == nil {
			nc.Close()
			t.Fatal("signed in without a user")
		}
	}
	_, err = embedded.Start(t.Context(), embedded.Options{Dir: t.TempDir(), Users: []*server.User{{Username: "journal-owner-x", Password: "x"}}})
	require.ErrorContains(t, err, "reserved")
}
