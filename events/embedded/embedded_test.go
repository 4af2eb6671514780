package embedded_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
)

func start(t *testing.T, opts embedded.Options) *embedded.Server {
	t.Helper()
	return embeddedtest.Start(t, opts)
}

func createStream(t *testing.T, js jetstream.JetStream) jetstream.Stream {
	t.Helper()
	st, err := js.CreateOrUpdateStream(t.Context(), jetstream.StreamConfig{Name: "T", Subjects: []string{"t.>"}, Storage: jetstream.FileStorage})
	require.NoError(t, err)
	return st
}

func lastSeq(t *testing.T, js jetstream.JetStream) uint64 {
	t.Helper()
	st, err := js.Stream(t.Context(), "T")
	require.NoError(t, err)
	return st.CachedInfo().State.LastSeq
}

func TestInProcessOnly(t *testing.T) {
	dir := t.TempDir()
	srv := start(t, embedded.Options{Dir: dir, Sync: true})
	if srv.Remote() || srv.ClientURL() != "" {
		t.Fatalf("in-process server: remote %v, url %q; want false, empty", srv.Remote(), srv.ClientURL())
	}
	createStream(t, srv.JetStream())
	_, err := srv.JetStream().Publish(t.Context(), "t.a", []byte("x"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(dir, "jetstream")); err != nil {
		t.Fatalf("no JetStream store in the data folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, embedded.InfoFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a non-sharing server wrote %s: %v", embedded.InfoFile, err)
	}
}

func TestListen(t *testing.T) {
	srv := start(t, embedded.Options{Dir: t.TempDir(), Listen: "127.0.0.1:0"})
	if !strings.HasPrefix(srv.ClientURL(), "nats://127.0.0.1:") {
		t.Fatalf("client url %q", srv.ClientURL())
	}
	// Without users the port is never anonymous: only the owner's random
	// token signs in, and the owner alone knows it (no Share, no
	// server.json).
	if nc, err := nats.Connect(srv.ClientURL(), nats.MaxReconnects(0)); err == nil {
		nc.Close()
		t.Fatal("an anonymous client signed in to a Listen port without users")
	}
	require.NoError(t, srv.Conn().Publish("x", nil))
	require.NoError(t, srv.Conn().Flush())
}

func TestReopen(t *testing.T) {
	dir := t.TempDir()
	srv, err := embedded.Start(t.Context(), embedded.Options{Dir: dir, Sync: true})
	require.NoError(t, err)
	createStream(t, srv.JetStream())
	for range 3 {
		_, err := srv.JetStream().Publish(t.Context(), "t.a", []byte("x"))
		require.NoError(t, err)
	}
	srv.Shutdown()
	srv.Shutdown() // idempotent

	again := start(t, embedded.Options{Dir: dir, Sync: true})
	if got := lastSeq(t, again.JetStream()); got != 3 {
		t.Fatalf("after reopening: last sequence %d, want 3", got)
	}
}

// TestShared: while a sharing server owns the folder, a second Start on it
// connects through the first; once it is gone, the next Start owns it.
func TestShared(t *testing.T) {
	dir := t.TempDir()
	owner, err := embedded.Start(t.Context(), embedded.Options{Dir: dir, Sync: true, Share: true})
	require.NoError(t, err)
	t.Cleanup(owner.Shutdown)
	createStream(t, owner.JetStream())

	b, err := os.ReadFile(filepath.Join(dir, embedded.InfoFile))
	require.NoError(t, err)
	var info struct {
		PID        int
		URL, Token string
	}
	require.NoError(t, json.Unmarshal(b, &info))
	if info.PID != os.Getpid() || info.URL != owner.ClientURL() || info.Token == "" {
		t.Fatalf("%s = %s", embedded.InfoFile, b)
	}
	if _, err := nats.Connect(info.URL); err == nil {
		t.Fatal("connected to the shared port without the token")
	}

	client := start(t, embedded.Options{Dir: dir, Sync: true})
	if !client.Remote() || client.ClientURL() != owner.ClientURL() {
		t.Fatalf("second start: remote %v url %q, want true %q", client.Remote(), client.ClientURL(), owner.ClientURL())
	}
	_, err = client.JetStream().Publish(t.Context(), "t.b", []byte("through the owner"))
	require.NoError(t, err)
	if got := lastSeq(t, owner.JetStream()); got != 1 {
		t.Fatalf("owner sees last sequence %d, want 1", got)
	}
	client.Shutdown()

	owner.Shutdown()
	if _, err := os.Stat(filepath.Join(dir, embedded.InfoFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s left after shutdown: %v", embedded.InfoFile, err)
	}
	next := start(t, embedded.Options{Dir: dir})
	if next.Remote() {
		t.Fatal("start after the owner left did not take the folder")
	}
	if got := lastSeq(t, next.JetStream()); got != 1 {
		t.Fatalf("new owner sees last sequence %d, want 1", got)
	}
}

// TestBusy: a folder owned by a process that does not share it is waited
// for, up to Options.Wait.
func TestBusy(t *testing.T) {
	dir := t.TempDir()
	owner, err := embedded.Start(t.Context(), embedded.Options{Dir: dir})
	require.NoError(t, err)
	t.Cleanup(owner.Shutdown)

	began := time.Now()
	_, err = embedded.Start(t.Context(), embedded.Options{Dir: dir, Wait: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("start on a busy folder: error = %v, want in use", err)
	}
	if time.Since(began) < 200*time.Millisecond {
		t.Fatal("start on a busy folder did not wait")
	}

	// Released while waiting: the waiter takes over.
	go func() {
		time.Sleep(200 * time.Millisecond)
		owner.Shutdown()
	}()
	srv := start(t, embedded.Options{Dir: dir, Wait: 20 * time.Second})
	if srv.Remote() {
		t.Fatal("waiter connected instead of owning")
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := embedded.Start(ctx, embedded.Options{Dir: dir}); !errors.Is(err, context.Canceled) {
		t.Fatalf("start with a canceled context on a busy folder: error = %v", err)
	}
}

// TestStaleInfo: a server.json left by a dead owner is ignored and replaced.
func TestStaleInfo(t *testing.T) {
	dir := t.TempDir()
	stale := `{"pid":1,"url":"nats://127.0.0.1:1","token":"x"}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, embedded.InfoFile), []byte(stale), 0o600))
	srv := start(t, embedded.Options{Dir: dir, Share: true})
	if srv.Remote() {
		t.Fatal("connected to a stale server")
	}
	b, err := os.ReadFile(filepath.Join(dir, embedded.InfoFile))
	require.NoError(t, err)
	if string(b) == stale {
		t.Fatal("stale server.json kept")
	}
}
