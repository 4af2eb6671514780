package jetstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
)

// TestReadLast: the last message on a campaign's subject, delivered as
// Read delivers it (an event to fn, a message that is not one to
// OnForeign), with its sequence; 0 and nothing delivered on a subject
// without messages; a filter over several partitions' streams is
// refused as unsupported.
func TestReadLast(t *testing.T) {
	ctx := context.Background()
	srv := startServer(t, t.TempDir(), false)
	st := openStore(t, srv)
	subject, err := events.CampaignSubject("mordor")
	require.NoError(t, err)
	last := func() (uint64, []events.Recorded, []events.Foreign) {
		var recs []events.Recorded
		var foreign []events.Foreign
		seq, err := st.ReadLast(ctx, events.Query{Subject: subject, OnForeign: func(f events.Foreign) error {
			foreign = append(foreign, f)
			return nil
		}}, func(r events.Recorded) error { recs = append(recs, r); return nil })
		require.NoError(t, err)
		return seq, recs, foreign
	}
	seq, recs, foreign := last()
	require.Zero(t, seq)
	require.Empty(t, recs)
	require.Empty(t, foreign)

	a, c, b := testEvent(t, "mordor", "lodin", "a"), testEvent(t, "erebor", "bilbo", "c"), testEvent(t, "mordor", "ruisenor", "b")
	for _, e := range []events.Event{a, c} {
		_, err = st.Append(ctx, events.Expect{}, e)
		require.NoError(t, err)
	}
	seqs, err := st.Append(ctx, events.Expect{}, b)
	require.NoError(t, err)
	seq, recs, foreign = last()
	require.Equal(t, seqs[0], seq)
	require.Len(t, recs, 1)
	require.Equal(t, b.ID, recs[0].Event.ID)
	require.Equal(t, seq, recs[0].Seq)
	require.Equal(t, subject, recs[0].Subject)
	require.Empty(t, foreign)

	// A message published past the store, not an event.
	ack, err := srv.JetStream().Publish(ctx, subject, []byte("not an event"))
	require.NoError(t, err)
	seq, recs, foreign = last()
	require.Equal(t, ack.Sequence, seq)
	require.Empty(t, recs)
	require.Len(t, foreign, 1)
	require.Equal(t, ack.Sequence, foreign[0].Seq)

	_, err = st.ReadLast(ctx, events.Query{Subject: "journal.>"}, func(events.Recorded) error { return nil })
	require.NoError(t, err, "one stream: its last message")
	p := openPartitioned(t, startServer(t, t.TempDir(), false), 3)
	_, err = p.ReadLast(ctx, events.Query{Subject: "journal.>"}, func(events.Recorded) error { return nil })
	require.ErrorIs(t, err, errors.ErrUnsupported)
	require.ErrorIs(t, err, jetstore.ErrLastSpansStreams)
}
