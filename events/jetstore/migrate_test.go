package jetstore_test

import (
	"crypto/rand"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// oldStreamConfig is the JOURNAL stream as versions before 2026-12-01
// made it: every subject under journal.>, republished on journalfeed.>.
func oldStreamConfig() jetstream.StreamConfig {
	cfg := jetstore.StreamConfig(jetstore.Options{})
	cfg.Subjects = []string{events.AllFilter}
	cfg.RePublish = &jetstream.RePublish{Source: events.AllFilter, Destination: "journalfeed.>"}
	return cfg
}

// writeOldLayout writes a journal as the earlier versions did: each event
// under journal.<campaign>.<kind>.<id>.<event>, with Nats-Msg-Id and, on
// each append, the wildcard expectation on journal.<campaign>.>; plus one
// foreign message. It returns the documents by sequence.
func writeOldLayout(t *testing.T, srv *embedded.Server) map[uint64][]byte {
	t.Helper()
	ctx := t.Context()
	js := srv.JetStream()
	_, err := js.CreateStream(ctx, oldStreamConfig())
	require.NoError(t, err)
	ids := events.NewV7(time.Now, rand.Reader)
	docs := map[uint64][]byte{}
	last := map[string]uint64{}
	publish := func(campaign string, kind events.Kind, id, name, session string, typ string, data any) {
		e, err := events.New(events.Spec{Campaign: campaign, Kind: kind, AggregateID: id, Name: name,
			Type: typ, Session: session, Actor: "gm", Data: data}, ids, time.Now())
		require.NoError(t, err)
		doc, err := events.Encode(e)
		require.NoError(t, err)
		m := &nats.Msg{Subject: fmt.Sprintf("journal.%s.%s.%s.%s", campaign, kind, id, name), Data: doc, Header: nats.Header{}}
		m.Header.Set(jetstream.MsgIDHeader, e.ID)
		m.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(last[campaign], 10))
		m.Header.Set(jetstream.ExpectedLastSubjSeqSubjHeader, "journal."+campaign+".>")
		ack, err := js.PublishMsg(ctx, m)
		require.NoError(t, err)
		last[campaign] = ack.Sequence
		docs[ack.Sequence] = doc
	}
	for _, c := range []string{"mordor", "gondor"} {
		publish(c, events.KindCampaign, c, "created", "", events.TypeCampaignCreated, events.CampaignCreated{Name: c, System: "ryf"})
		for i := range 5 {
			publish(c, events.KindCharacter, fmt.Sprintf("c%d", i), "created", "s1", events.TypeCampaignCreated, events.CampaignCreated{Name: "x", System: "ryf"})
		}
	}
	ack, err := js.Publish(ctx, "journal.mordor.char.c1.roll", []byte("not an event"))
	require.NoError(t, err)
	docs[ack.Sequence] = []byte("not an event")
	return docs
}

// TestMigrate: a journal of the old layout is refused by Open, untouched;
// Migrate copies every message to the same sequence with the same bytes
// under its campaign's subject, keeps a backup, leaves the secrets alone,
// and says what it did; the migrated journal opens and reads; a second
// Migrate does nothing.
func TestMigrate(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	ctx := t.Context()
	js := srv.JetStream()
	docs := writeOldLayout(t, srv)
	kv, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: jetstore.SecretsBucket, History: 1, Storage: jetstream.FileStorage})
	require.NoError(t, err)
	_, err = kv.Create(ctx, "mordor.s1", []byte("seed"))
	require.NoError(t, err)

	_, err = jetstore.Open(ctx, js, jetstore.Options{})
	require.ErrorIs(t, err, jetstore.ErrOldLayout)
	stream, err := js.Stream(ctx, jetstore.StreamName)
	require.NoError(t, err)
	require.Equal(t, uint64(len(docs)), stream.CachedInfo().State.Msgs, "open changed the old stream")
	require.NotNil(t, stream.CachedInfo().Config.RePublish, "open changed the old stream's config")

	m, err := jetstore.Migrate(ctx, js, jetstore.Options{})
	require.NoError(t, err)
	require.Equal(t, jetstore.Migration{Migrated: true, Messages: 13, Events: 12, Foreign: 1, Campaigns: 2, Sessions: 2, Backup: jetstore.BackupStream}, m)

	s, err := jetstore.Open(ctx, js, jetstore.Options{})
	require.NoError(t, err)
	var got []uint64
	var foreign []uint64
	require.NoError(t, s.Read(ctx, events.Query{OnForeign: func(f events.Foreign) error {
		foreign = append(foreign, f.Seq)
		require.Equal(t, "journal.mordor", f.Subject)
		return nil
	}}, func(r events.Recorded) error {
		got = append(got, r.Seq)
		doc, err := events.Encode(r.Event)
		require.NoError(t, err)
		require.Equal(t, string(docs[r.Seq]), string(doc), "event at %d", r.Seq)
		require.Equal(t, "journal."+r.Event.Campaign, r.Subject)
		return nil
	}))
	require.Len(t, got, 12)
	require.Equal(t, []uint64{13}, foreign)
	for seq, doc := range docs {
		msg, err := stream.GetMsg(ctx, seq) // the old handle names the new stream too
		require.NoError(t, err)
		require.Equal(t, string(doc), string(msg.Data), "sequence %d", seq)
	}
	mordor, _ := events.CampaignFilter("mordor")
	last, err := s.Last(ctx, mordor)
	require.NoError(t, err)
	_, err = s.Append(ctx, events.ExpectLast(mordor, last), testEvent(t, "mordor", "c1", "after"))
	require.NoError(t, err, "append after the migration")

	backup, err := js.Stream(ctx, jetstore.BackupStream)
	require.NoError(t, err)
	info := backup.CachedInfo()
	require.Equal(t, uint64(len(docs)), info.State.Msgs)
	require.Nil(t, info.Config.Mirror)
	require.True(t, info.Config.DenyDelete && info.Config.DenyPurge)
	old, err := backup.GetMsg(ctx, 2)
	require.NoError(t, err)
	require.Equal(t, "journal.mordor.char.c0.created", old.Subject)
	require.Equal(t, string(docs[2]), string(old.Data))

	secret, err := s.GetSecret(ctx, "mordor.s1")
	require.NoError(t, err)
	require.Equal(t, "seed", string(secret))

	again, err := jetstore.Migrate(ctx, js, jetstore.Options{})
	require.NoError(t, err)
	require.False(t, again.Migrated)
}

// TestMigrateResumes: a migration interrupted after the old stream was
// deleted (the backup holds everything, the new JOURNAL a part) is
// refused by Open and finished by Migrate.
func TestMigrateResumes(t *testing.T) {
	srv := startServer(t, t.TempDir(), false)
	ctx := t.Context()
	js := srv.JetStream()
	docs := writeOldLayout(t, srv)
	m, err := jetstore.Migrate(ctx, js, jetstore.Options{})
	require.NoError(t, err)
	require.True(t, m.Migrated)
	// Make the interrupted state: a new JOURNAL with the first 4 copies.
	for { // the server removes a deleted stream's files after answering
		require.NoError(t, js.DeleteStream(ctx, jetstore.StreamName))
		st, err := js.CreateStream(ctx, jetstore.StreamConfig(jetstore.Options{}))
		require.NoError(t, err)
		if st.CachedInfo().State.Msgs == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for seq := uint64(1); seq <= 4; seq++ {
		msg, err := js.Stream(ctx, jetstore.BackupStream)
		require.NoError(t, err)
		raw, err := msg.GetMsg(ctx, seq)
		require.NoError(t, err)
		_, err = js.Publish(ctx, "journal.mordor", raw.Data, jetstream.WithExpectLastSequence(seq-1))
		require.NoError(t, err)
	}
	_, err = jetstore.Open(ctx, js, jetstore.Options{})
	require.ErrorIs(t, err, jetstore.ErrOldLayout)

	m, err = jetstore.Migrate(ctx, js, jetstore.Options{})
	require.NoError(t, err)
	require.Equal(t, uint64(len(docs)), m.Messages)
	_, err = jetstore.Open(ctx, js, jetstore.Options{})
	require.NoError(t, err)
}
