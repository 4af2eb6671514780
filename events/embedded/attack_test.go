package embedded_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/embedded"
)

// TestAttackAnonymous: in every way the journal opens a port (the loopback
// share of `journal serve` without an access file, a Listen address without
// users, both, and users with a responder), an anonymous client, a wrong
// token or password, and the journal's internal user names sign in to
// nothing; the stream and the secret are as they were; and server.json,
// which holds the way in, is the owner's alone (mode 0600).
func TestAttackAnonymous(t *testing.T) {
	var tried, refused, recorded int
	for _, mode := range []struct {
		name string
		opts embedded.Options
	}{
		{"share, no access file", embedded.Options{Share: true}},
		{"listen, no access file", embedded.Options{Listen: "127.0.0.1:0"}},
		{"listen and share, no access file", embedded.Options{Listen: "127.0.0.1:0", Share: true}},
		{"users and a responder", embedded.Options{Share: true, Listen: "127.0.0.1:0",
			Users:     []*server.User{{Username: "bea", Password: "bea-pw", Permissions: &server.Permissions{Publish: &server.SubjectPermission{Allow: []string{"cmd.>"}}}}},
			Responder: &server.Permissions{Publish: &server.SubjectPermission{Allow: []string{"_INBOX.>"}}}}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			opts := mode.opts
			opts.Dir = t.TempDir()
			owner := start(t, opts)
			st := createStream(t, owner.JetStream())
			_, err := owner.JetStream().Publish(t.Context(), "t.a", []byte("event"))
			require.NoError(t, err)
			kv, err := owner.JetStream().CreateKeyValue(t.Context(), jetstream.KeyValueConfig{Bucket: "secrets"})
			require.NoError(t, err)
			_, err = kv.Put(t.Context(), "seed", []byte("s3cret"))
			require.NoError(t, err)
			state := func() string {
				info, err := st.Info(t.Context())
				require.NoError(t, err)
				e, err := kv.Get(t.Context(), "seed")
				require.NoError(t, err)
				cfg, err := json.Marshal(info.Config)
				require.NoError(t, err)
				return fmt.Sprintf("%s msgs=%d last=%d seed=%q", cfg, info.State.Msgs, info.State.LastSeq, e.Value())
			}
			before := state()

			if opts.Share {
				fi, err := os.Stat(filepath.Join(opts.Dir, embedded.InfoFile))
				require.NoError(t, err)
				require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "server.json is readable by others")
				b, err := os.ReadFile(filepath.Join(opts.Dir, embedded.InfoFile))
				require.NoError(t, err)
				require.False(t, bytes.Contains(b, []byte("bea-pw")), "server.json carries a user's password")
			}
			require.NotEmpty(t, owner.ClientURL())
			for _, a := range []struct {
				name string
				opt  nats.Option
			}{
				{"no credentials", nats.Name("anonymous")},
				{"a wrong token", nats.Token(strings.Repeat("0", 48))},
				{"an empty token", nats.Token("")},
				{"a guessed user", nats.UserInfo("journal", "journal-change-me")},
				{"the owner's user name", nats.UserInfo("journal-owner-", "")},
				{"a wrong password", nats.UserInfo("bea", "ana-pw")},
			} {
				tried++
				t.Run(a.name, func(t *testing.T) {
					nc, err := nats.Connect(owner.ClientURL(), a.opt, nats.MaxReconnects(0))
					if err == nil {
						// Signed in: try the worst it could do, then fail.
						js, _ := jetstream.New(nc)
						_ = js.DeleteStream(t.Context(), "T")
						nc.Close()
						t.Fatalf("signed in with %s", a.name)
					}
					require.Contains(t, strings.ToLower(err.Error()), "authorization")
					require.Equal(t, before, state(), "the stream or the secret changed")
					refused++
				})
			}
			info, err := st.Info(t.Context())
			require.NoError(t, err)
			recorded += int(info.State.LastSeq) - 1
		})
	}
	t.Logf("anonymous clients: attacks tried %d, refused %d, events recorded by them %d", tried, refused, recorded)
	require.Equal(t, tried, refused)
	require.Zero(t, recorded)
}
