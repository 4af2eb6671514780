package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/cluster"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
)

// TestReplicasCLICluster: a journal created on a three-server cluster with
// --replicas 3 keeps its three replicas (stream, secrets and checkpoint
// buckets) through commands without --replicas, a read-only log and a
// session start among them; a command with --replicas 1 is refused with
// one usage error line, changing nothing.
func TestReplicasCLICluster(t *testing.T) {
	if testing.Short() {
		t.Skip("cluster test: skipped in short mode")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cl, err := cluster.Start(ctx, cluster.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(cl.Shutdown)
	c := newCLI(t)
	c.dir = filepath.Join(c.dir, "unused")
	onCluster := func(args ...string) []string { return append([]string{"--nats", cl.URLs(0)}, args...) }
	nc, err := cl.Connect(1)
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	requireReplicas := func(after string) {
		t.Helper()
		for _, name := range []string{jetstore.StreamName, "KV_" + jetstore.SecretsBucket, "KV_" + live.Bucket} {
			s, err := js.Stream(ctx, name)
			require.NoError(t, err, name)
			require.Equal(t, 3, s.CachedInfo().Config.Replicas, "%s after %s", name, after)
		}
	}

	c.ok(onCluster("--replicas", "3", "campaign", "create", "aa", "--system", "ryf")...)
	requireReplicas("campaign create --replicas 3")
	c.ok(onCluster("-c", "aa", "log")...)
	requireReplicas("log")
	c.ok(onCluster("-c", "aa", "session", "start")...)
	requireReplicas("session start")

	out, errb, code := c.run(onCluster("--lang", "en", "--replicas", "1", "-c", "aa", "session", "end")...)
	require.Equal(t, exitUsage, code, "stdout: %s", out)
	require.Equal(t, "journal: --replicas 1: jetstore: replicas: this journal has 3, not 1 (the number of replicas is fixed when the journal is created)\n", errb)
	_, errb, code = c.run(onCluster("--json", "--replicas", "1", "-c", "aa", "log")...)
	require.Equal(t, exitUsage, code)
	var doc struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(errb), &doc), errb)
	require.Equal(t, "usage", doc.Error.Code)
	requireReplicas("--replicas 1, refused")
	c.ok(onCluster("--replicas", "3", "-c", "aa", "session", "end")...)
	// Verified; the session, ended with no roll, is flagged empty.
	out, errb, code = c.run(onCluster("--lang", "en", "replay")...)
	require.Equal(t, exitFlagged, code, "stdout: %s\nstderr: %s", out, errb)
	require.Contains(t, out, "session s1 ended with no roll")
}

// TestReplicasCLIEmbedded: the embedded server's journal has one replica:
// --replicas 1 (or none) opens it, --replicas 3 is refused with one usage
// error line.
func TestReplicasCLIEmbedded(t *testing.T) {
	c := newCLI(t)
	_, errb, code := c.run("--lang", "en", "--replicas", "3", "campaign", "create", "aa", "--system", "ryf")
	require.Equal(t, exitUsage, code)
	require.Equal(t, "journal: --replicas 3: the embedded server is one node, its journal has 1 replica (--replicas is for a journal on a cluster, with --nats)\n", errb)
	require.False(t, embedded.HasJournal(c.dir), "nothing created")
	c.ok("--replicas", "1", "campaign", "create", "aa", "--system", "ryf")
	c.ok("-c", "aa", "log")
	_, _, code = c.run("--replicas", "3", "-c", "aa", "log")
	require.Equal(t, exitUsage, code)
}
