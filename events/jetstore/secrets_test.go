package jetstore_test

import (
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/jetstore"
)

// TestSecretsHeldOnce: once a seed is written, nothing that reaches the
// secrets bucket's stream replaces or removes it — not even the journal's
// own all-powerful connection: a second message under its key (a raw
// publish, an empty one with headers only, as a JetStream status reply
// aimed there by a confused deputy would be), a key-value put, delete or
// purge, a purge of the stream. A bucket made before (without the rule)
// gets it when the store opens.
func TestSecretsHeldOnce(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	ctx := t.Context()
	js := srv.JetStream()
	// A bucket as an earlier version made it: no per-subject discard.
	_, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: jetstore.SecretsBucket, Description: "session secrets, written once", History: 1, Storage: jetstream.FileStorage})
	require.NoError(t, err)
	st := openStore(t, srv)
	const key = "seed.mordor.s1"
	seed := []byte("0123456789abcdef0123456789abcdef")
	require.NoError(t, st.PutSecret(ctx, key, seed))

	kv, err := js.KeyValue(ctx, jetstore.SecretsBucket)
	require.NoError(t, err)
	subject := "$KV." + jetstore.SecretsBucket + "." + key
	status := nats.NewMsg(subject)
	status.Header.Set("Status", "404")
	status.Header.Set("Description", "No Messages")
	for name, try := range map[string]func() error{
		"a raw publish":                 func() error { _, err := js.Publish(ctx, subject, []byte("00")); return err },
		"an empty message with headers": func() error { _, err := js.PublishMsg(ctx, status); return err },
		"a key-value put":               func() error { _, err := kv.Put(ctx, key, []byte("x")); return err },
		"a key-value delete":            func() error { return kv.Delete(ctx, key) },
		"a key-value purge":             func() error { return kv.Purge(ctx, key) },
		"a stream purge": func() error {
			s, err := js.Stream(ctx, "KV_"+jetstore.SecretsBucket)
			if err != nil {
				return err
			}
			return s.Purge(ctx)
		},
		"a message delete": func() error {
			s, err := js.Stream(ctx, "KV_"+jetstore.SecretsBucket)
			if err != nil {
				return err
			}
			return s.DeleteMsg(ctx, 1)
		},
	} {
		require.Error(t, try(), "%s replaced or removed the seed", name)
		got, err := st.GetSecret(ctx, key)
		require.NoError(t, err, name)
		require.Equal(t, seed, got, "after %s", name)
	}
	// A second open changes nothing, and the rule holds.
	st2 := openStore(t, srv)
	got, err := st2.GetSecret(ctx, key)
	require.NoError(t, err)
	require.Equal(t, seed, got)
	info, err := js.Stream(ctx, "KV_"+jetstore.SecretsBucket)
	require.NoError(t, err)
	cfg := info.CachedInfo().Config
	require.True(t, cfg.DiscardNewPerSubject && cfg.DenyPurge && cfg.DenyDelete && !cfg.AllowRollup, "%+v", cfg)
	require.EqualValues(t, 1, info.CachedInfo().State.Msgs)
}
