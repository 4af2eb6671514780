package natscmd_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
)

// TestAttackFollowPartitioned: on a journal of three partitions (mordor
// in JOURNAL-2, gondor in JOURNAL-1), every role of mordor follows its
// campaign with a nats.go ordered consumer on its partition's stream and
// subject, journal.2.mordor, receiving exactly its events; and none can
// follow it, or anything, on another partition's stream, nor another
// campaign on its own stream or gondor's, nor every campaign of a
// partition, nor use the stream of one partition (JOURNAL, absent).
// Nothing changes.
func TestAttackFollowPartitioned(t *testing.T) {
	const k = 3
	mp, gp := events.Partition("mordor", k), events.Partition("gondor", k)
	require.NotEqual(t, mp, gp, "the test needs mordor and gondor in two partitions")
	var a tally
	for _, mode := range []struct {
		name string
		mode serviceMode
	}{{"embedded", onResponder}, {"cluster config file", onConfigFile}} {
		t.Run(mode.name, func(t *testing.T) { attackFollowPartitioned(t, &a, newWorldPartitioned(t, mode.mode, k), k) })
	}
	a.log(t, "following on partitions")
	require.Equal(t, a.tried.Load(), a.refused.Load())
	require.Zero(t, a.recorded.Load())
}

func attackFollowPartitioned(t *testing.T, a *tally, w *world, k int) {
	ctx := t.Context()
	require.Equal(t, k, w.store.Partitions())
	mordorStream, gondorStream := jetstore.CampaignStream("mordor", k), jetstore.CampaignStream("gondor", k)
	mordorSubject, _ := events.PartitionSubject("mordor", k)
	gondorSubject, _ := events.PartitionSubject("gondor", k)
	other := jetstore.PartitionStream((events.Partition("mordor", k) + 1) % k) // neither's... or gondor's
	if other == gondorStream {
		other = jetstore.PartitionStream((events.Partition("mordor", k) + 2) % k)
	}
	mordor := func() []uint64 {
		var seqs []uint64
		require.NoError(t, w.store.Read(ctx, events.Query{Subject: "journal.mordor"}, func(r events.Recorded) error {
			seqs = append(seqs, r.Seq)
			return nil
		}))
		return seqs
	}
	require.NotEmpty(t, mordor())
	bea := w.connect(t, "bea", "bea-pw")
	for _, user := range []string{"ana", "bea", "wall"} {
		c := w.connect(t, user, user+"-pw")
		js, err := jetstream.New(c.nc)
		require.NoError(t, err)
		cons, err := js.OrderedConsumer(ctx, mordorStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{mordorSubject}})
		require.NoError(t, err, "%s follows mordor on %s", user, mordorStream)
		it, err := cons.Messages()
		require.NoError(t, err)
		next := func() events.Recorded {
			t.Helper()
			done := make(chan jetstream.Msg, 1)
			go func() {
				if m, err := it.Next(); err == nil {
					done <- m
				}
			}()
			select {
			case m := <-done:
				require.Equal(t, mordorSubject, m.Subject(), "stored on its partition's subject")
				meta, err := m.Metadata()
				require.NoError(t, err)
				rec, err := events.DecodeRecorded(meta.Sequence.Stream, "journal.mordor", m.Data())
				require.NoError(t, err)
				return rec
			case <-time.After(10 * time.Second):
				t.Fatal("the ordered consumer delivered nothing")
				return events.Recorded{}
			}
		}
		for _, want := range mordor() {
			rec := next()
			require.Equal(t, want, rec.Seq, "%s follows mordor", user)
			require.Equal(t, "mordor", rec.Event.Campaign)
		}
		reply, err := natscmd.Request(ctx, bea.nc, "bea", "mordor", "roll", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
		require.NoError(t, err)
		require.Equal(t, reply.Recorded[0].Event.ID, next().Event.ID, "%s sees the new roll", user)
		it.Stop()
	}

	ordered := func(c *client, stream string, filters ...string) func(t *testing.T) {
		return func(t *testing.T) {
			js, err := jetstream.New(c.nc)
			require.NoError(t, err)
			octx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			created := make(chan error, 1)
			go func() {
				_, err := js.OrderedConsumer(octx, stream, jetstream.OrderedConsumerConfig{FilterSubjects: filters})
				created <- err
			}()
			suffix := ""
			if len(filters) == 1 {
				suffix = "." + filters[0]
			}
			c.violationLike(t, "$JS.API.CONSUMER.CREATE."+stream+".", suffix)
			cancel() // refused: no answer will come
			require.Error(t, <-created, "ordered consumer created")
		}
	}
	pull := func(c *client, stream string) func(t *testing.T) {
		return func(t *testing.T) {
			subject := "$JS.API.CONSUMER.MSG.NEXT." + stream + ".x"
			require.NoError(t, c.nc.PublishRequest(subject, c.nc.NewRespInbox(), []byte(`{"batch":1}`)))
			require.NoError(t, c.nc.Flush())
			c.violation(t, "Publish", subject)
		}
	}
	otherSubject := "journal." + other[len(jetstore.StreamName)+1:] + ".mordor"
	for _, user := range []string{"ana", "bea", "wall"} {
		c := w.connect(t, user, user+"-pw")
		role, _ := w.cfg.ByName(user)
		who := string(role.Role) + " " + user + " "
		for _, tt := range []struct {
			name string
			run  func(t *testing.T)
		}{
			{"follows its campaign on another partition's stream", ordered(c, other, otherSubject)},
			{"follows its campaign on gondor's stream", ordered(c, gondorStream, "journal."+gondorStream[len(jetstore.StreamName)+1:]+".mordor")},
			{"follows gondor on gondor's stream", ordered(c, gondorStream, gondorSubject)},
			{"follows gondor on its own stream", ordered(c, mordorStream, "journal."+mordorStream[len(jetstore.StreamName)+1:]+".gondor")},
			{"follows every campaign of its partition", ordered(c, mordorStream, "journal."+mordorStream[len(jetstore.StreamName)+1:]+".*")},
			{"follows every campaign of its stream", ordered(c, mordorStream, "journal.>")},
			{"follows its campaign's one-partition subject", ordered(c, mordorStream, "journal.mordor")},
			{"follows on the one-partition stream", ordered(c, jetstore.StreamName, "journal.mordor")},
			{"pulls from another partition's stream", pull(c, other)},
			{"pulls from gondor's stream", pull(c, gondorStream)},
		} {
			w.attack(t, a, who+tt.name, tt.run)
		}
	}
	// dov, of gondor, follows gondor on its stream and cannot on mordor's.
	dov := w.connect(t, "dov", "dov-pw")
	js, err := jetstream.New(dov.nc)
	require.NoError(t, err)
	_, err = js.OrderedConsumer(ctx, gondorStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{gondorSubject}})
	require.NoError(t, err, "dov follows gondor on %s", gondorStream)
	w.attack(t, a, "player dov follows mordor on mordor's stream", ordered(dov, mordorStream, mordorSubject))
}
