package cluster_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/cluster"
	"github.com/campaign-journal/journal/events/storetest"
)

// TestStoreOnCluster runs the store acceptance suite against the JetStream
// store on a three-server cluster, the stream replicated three times: the
// same contract holds there (conflicts are API error 10164 rather than
// 10071; direct gets may be answered by a follower).
func TestStoreOnCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("cluster test: a three-server cluster per case; skipped in short mode")
	}
	storetest.Run(t, func(t *testing.T) storetest.Store {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		c, err := cluster.Start(ctx, cluster.Options{Dir: t.TempDir()})
		require.NoError(t, err)
		t.Cleanup(c.Shutdown)
		return openStore(t, c, 0)
	})
}

// TestStoreOnClusterPartitioned runs the store acceptance suite on a
// journal of three partitions on a three-server cluster, each partition's
// stream replicated three times.
func TestStoreOnClusterPartitioned(t *testing.T) {
	if testing.Short() {
		t.Skip("cluster test: a three-server cluster per case; skipped in short mode")
	}
	storetest.Run(t, func(t *testing.T) storetest.Store {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		c, err := cluster.Start(ctx, cluster.Options{Dir: t.TempDir()})
		require.NoError(t, err)
		t.Cleanup(c.Shutdown)
		return openPartitioned(t, c, 0, 3)
	})
}

// TestExpectedLastMsgIDWedgesReplicatedStream records why the JetStream
// store looks for a refused append's events by reading the stream instead
// of probing with Nats-Expected-Last-Msg-Id: on a replicated stream,
// nats-server v2.15.2 stops answering requests for the stream after a
// publish refused for a wrong last message id (API error 10070). If this
// test fails after a nats-server upgrade, the server no longer does that.
func TestExpectedLastMsgIDWedgesReplicatedStream(t *testing.T) {
	if testing.Short() {
		t.Skip("cluster test: skipped in short mode")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	c, err := cluster.Start(ctx, cluster.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(c.Shutdown)
	nc, err := c.Connect(0)
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	_, err = js.CreateStream(ctx, jetstream.StreamConfig{Name: "S", Subjects: []string{"s.>"}, Replicas: 3, AllowDirect: true})
	require.NoError(t, err)
	_, err = js.Publish(ctx, "s.a", []byte("1"), jetstream.WithMsgID("m1"))
	require.NoError(t, err)
	get := func() error {
		gctx, gcancel := context.WithTimeout(ctx, 1500*time.Millisecond)
		defer gcancel()
		_, err := nc.RequestWithContext(gctx, "$JS.API.STREAM.MSG.GET.S", []byte(`{"last_by_subj":"s.>"}`))
		return err
	}
	require.NoError(t, get(), "the stream answers before")
	_, err = js.Publish(ctx, "s.a", []byte("2"), jetstream.WithMsgID("m2"), jetstream.WithExpectLastMsgID("nope"))
	require.Error(t, err, "a wrong last message id is refused")
	if err := get(); err == nil {
		t.Fatal("the replicated stream still answers after a refused Nats-Expected-Last-Msg-Id: nats-server fixed it, and jetstore could probe for duplicates that way again")
	}
}
