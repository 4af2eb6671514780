package jetstore

import (
	"crypto/rand"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
)

// TestAckSequence reads the stream sequence and the pending count from
// both forms of a consumer message's reply subject, as
// jetstream.Msg.Metadata does, and refuses what is not one.
func TestAckSequence(t *testing.T) {
	tests := []struct {
		reply        string
		seq, pending uint64
		ok           bool
	}{
		{"$JS.ACK.JOURNAL.cons.1.42.7.1700000000000000000.3", 42, 3, true},
		{"$JS.ACK._.acchash.JOURNAL.cons.1.42.7.1700000000000000000.0.tok", 42, 0, true},
		{"$JS.ACK.hub.acchash.JOURNAL.cons.1.9001.7.1700000000000000000.12", 9001, 12, true},
		{"$JS.ACK.JOURNAL.cons.1.x42.7.1700000000000000000.3", 0, 0, false},
		{"$JS.ACK.JOURNAL.cons.1.42.7", 0, 0, false},
		{"$JS.ACK.hub.acchash.JOURNAL.cons.1.42.7.170", 0, 0, false},
		{"_INBOX.abc", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		seq, pending, ok := ackSequence(tt.reply)
		if seq != tt.seq || pending != tt.pending || ok != tt.ok {
			t.Errorf("ackSequence(%q) = %d, %d, %v; want %d, %d, %v", tt.reply, seq, pending, ok, tt.seq, tt.pending, tt.ok)
		}
	}
}

// TestOrderedWholeStream: an ordered read whose filter covers the whole
// stream (journal.> or journal.*, on one stream or on each of three
// partitions' streams) runs on a consumer without a filter subject, and
// delivers exactly what the consumer filtered on it delivers: every event
// in order, a message on an event subject that is not an event reported
// as foreign, and a message on a subject added to the stream by hand
// (which the filter does not match) neither delivered nor reported.
func TestOrderedWholeStream(t *testing.T) {
	for _, k := range []int{1, 3} {
		t.Run(fmt.Sprint("partitions=", k), func(t *testing.T) {
			ctx := t.Context()
			srv, err := embedded.Start(ctx, embedded.Options{Dir: t.TempDir()})
			require.NoError(t, err)
			t.Cleanup(srv.Shutdown)
			js := srv.JetStream()
			s, err := Open(ctx, js, Options{Partitions: k})
			require.NoError(t, err)
			ids := events.NewV7(time.Now, rand.Reader)
			appendN := func(campaigns, n int) {
				for i := range campaigns * n {
					c := fmt.Sprint("c", i%campaigns)
					ev, err := events.New(events.Spec{Campaign: c, Kind: events.KindCampaign, AggregateID: c, Name: "created", Actor: "gm",
						Type: events.TypeCampaignCreated, Data: events.CampaignCreated{Name: c, System: "ryf"}}, ids, time.Now())
					require.NoError(t, err)
					_, err = s.Append(ctx, events.Expect{}, ev)
					require.NoError(t, err)
				}
			}
			appendN(6, 2)
			// In every stream: a message on an event subject that is not an
			// event, and one on a subject the stream did not capture until
			// someone added it by hand.
			for p, name := range s.streams {
				cfg := PartitionStreamConfig(Options{}, p, k)
				other := fmt.Sprint("other.", p)
				cfg.Subjects = append(cfg.Subjects, other+".>")
				_, err := js.UpdateStream(ctx, cfg)
				require.NoError(t, err)
				_, err = js.Publish(ctx, strings.TrimSuffix(events.PartitionStreamSubjects(p, k), "*")+"c0", []byte("not an event"))
				require.NoError(t, err)
				_, err = js.Publish(ctx, other+".x", []byte(name))
				require.NoError(t, err)
			}
			appendN(6, 2)

			for _, filter := range []string{events.AllFilter, events.StreamSubjects} {
				ts := s.targets(filter)
				require.Len(t, ts, k)
				total := 0
				for _, tg := range ts {
					require.True(t, tg.whole, "%s on %s covers the stream", tg.filter, tg.stream)
					last, err := s.lastOn(ctx, tg.stream, tg.all)
					require.NoError(t, err)
					read := func(tg target) (recs []events.Recorded, foreign []uint64) {
						t.Helper()
						q := events.Query{Subject: filter, OnForeign: func(f events.Foreign) error {
							foreign = append(foreign, f.Seq)
							return nil
						}}
						next, err := s.readOrdered(ctx, q, tg, 1, last, func(r events.Recorded) error {
							recs = append(recs, r)
							return nil
						})
						require.NoError(t, err)
						require.Equal(t, last+1, next)
						return recs, foreign
					}
					got, gotForeign := read(tg)
					filtered := tg
					filtered.whole = false
					want, wantForeign := read(filtered)
					total += len(want)
					require.Len(t, wantForeign, 1, "the message that is not an event in %s", tg.stream)
					require.Equal(t, want, got, "%s on %s", filter, tg.stream)
					require.Equal(t, wantForeign, gotForeign, "%s on %s", filter, tg.stream)
				}
				require.Equal(t, 24, total, "every event of %s", filter)
			}
		})
	}
}

// TestOrderedWholeStreamUnfiltered: the consumer of a read covering the
// whole stream has no filter subject (the server's cheaper path, see
// Store.startOrdered); a read of one campaign keeps its filter.
func TestOrderedWholeStreamUnfiltered(t *testing.T) {
	ctx := t.Context()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	s, err := Open(ctx, srv.JetStream(), Options{})
	require.NoError(t, err)
	one, err := events.CampaignFilter("c0")
	require.NoError(t, err)
	for _, tt := range []struct {
		filter, want string
	}{
		{events.AllFilter, ""},
		{events.StreamSubjects, ""},
		{one, one},
	} {
		tg := s.targets(tt.filter)[0]
		_, stop, err := s.startOrdered(ctx, tg, 1, pipeOptions{})
		require.NoError(t, err)
		stream, err := srv.JetStream().Stream(ctx, tg.stream)
		require.NoError(t, err)
		var filters []string
		for info := range stream.ListConsumers(ctx).Info() {
			filters = append(filters, info.Config.FilterSubject)
			filters = append(filters, info.Config.FilterSubjects...)
		}
		stop()
		require.Equal(t, []string{tt.want}, filters, tt.filter)
	}
}

// TestFilterTest: the pipeline's test of a subject against a filter is
// the server's (events.Match), prefix or not.
func TestFilterTest(t *testing.T) {
	subjects := []string{"journal.c0", "journal.1.c0", "journal.1.c0.x", "journal.", "journal", "journal1.c0", "journal.2.c0", "other.c0", ""}
	for _, filter := range []string{"journal.>", "journal.*", "journal.1.>", "journal.1.*", "journal.*.c0", "journal.c0"} {
		test := filterTest(filter)
		for _, subject := range subjects {
			require.Equal(t, events.Match(filter, subject), test(subject), "%s against %s", subject, filter)
		}
	}
}
