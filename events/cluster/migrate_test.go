package cluster_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/cluster"
	"github.com/campaign-journal/journal/events/jetstore"
)

// TestMigrateReplicated: a journal of the old layout on a three-server
// cluster (R3) is refused by Open and migrated by Migrate, every message at
// its sequence with its bytes, the backup and the new stream replicated.
func TestMigrateReplicated(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	c, err := cluster.Start(ctx, cluster.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(c.Shutdown)
	nc, err := c.Connect(0, nats.Name("migrate"))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	require.NoError(t, err)

	old := jetstore.StreamConfig(jetstore.Options{Replicas: 3})
	old.Subjects = []string{events.AllFilter}
	old.RePublish = &jetstream.RePublish{Source: events.AllFilter, Destination: "journalfeed.>"}
	for { // the first creation may race the cluster's first elections
		if _, err = js.CreateStream(ctx, old); err == nil || ctx.Err() != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	require.NoError(t, err)
	ids := events.NewV7(time.Now, rand.Reader)
	docs := map[uint64][]byte{}
	for i := range 20 {
		campaign := []string{"mordor", "gondor"}[i%2]
		e, err := events.New(events.Spec{Campaign: campaign, Kind: events.KindCharacter, AggregateID: fmt.Sprintf("c%d", i),
			Name: "created", Type: events.TypeCampaignCreated, Actor: "gm", Data: events.CampaignCreated{Name: "x", System: "ryf"}}, ids, time.Now())
		require.NoError(t, err)
		doc, err := events.Encode(e)
		require.NoError(t, err)
		ack, err := js.Publish(ctx, fmt.Sprintf("journal.%s.char.c%d.created", campaign, i), doc, jetstream.WithMsgID(e.ID))
		require.NoError(t, err)
		docs[ack.Sequence] = doc
	}
	_, err = jetstore.Open(ctx, js, jetstore.Options{Replicas: 3})
	require.ErrorIs(t, err, jetstore.ErrOldLayout)

	m, err := jetstore.Migrate(ctx, js, jetstore.Options{Replicas: 3})
	require.NoError(t, err)
	require.Equal(t, jetstore.Migration{Migrated: true, Messages: 20, Events: 20, Campaigns: 2, Backup: jetstore.BackupStream}, m)
	for _, name := range []string{jetstore.StreamName, jetstore.BackupStream} {
		st, err := js.Stream(ctx, name)
		require.NoError(t, err)
		require.Equal(t, 3, st.CachedInfo().Config.Replicas, name)
		require.Equal(t, uint64(20), st.CachedInfo().State.Msgs, name)
	}
	st := openStore(t, c, 1)
	n := 0
	require.NoError(t, st.Read(ctx, events.Query{}, func(r events.Recorded) error {
		n++
		doc, err := events.Encode(r.Event)
		require.NoError(t, err)
		require.Equal(t, string(docs[r.Seq]), string(doc), "sequence %d", r.Seq)
		return nil
	}))
	require.Equal(t, 20, n)
}
