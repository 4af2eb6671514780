package replay_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/replay"
)

// TestVerifyListsForeignMessages: messages of the stream that are not
// events, among a session's, are each listed by Verify (sequence, subject,
// why), loudly in the text, and fail the report; everything else is
// verified as without them.
func TestVerifyListsForeignMessages(t *testing.T) {
	ctx := context.Background()
	w, _, _ := honestWorld(t, 12)
	want := verify(t, w.evs, replay.Options{})
	require.True(t, want.OK())

	st := memstore.New(memstore.Options{})
	var foreign []uint64
	for i, e := range w.evs {
		_, err := st.Append(ctx, events.Expect{}, e)
		require.NoError(t, err)
		if i == 3 || i == len(w.evs)-1 {
			seq, err := st.PublishRaw(ctx, e.StreamSubject, []byte("forged"))
			require.NoError(t, err)
			foreign = append(foreign, seq)
		}
	}
	src := replay.StoreSource(st.Read, events.Query{})
	got, err := replay.Verify(ctx, src, replay.Options{})
	require.NoError(t, err)
	require.False(t, got.OK())
	require.Equal(t, 2, got.Totals.Foreign)
	require.Len(t, got.Foreign, 2)
	for i, m := range got.Foreign {
		require.Equal(t, foreign[i], m.Seq)
		require.NotEmpty(t, m.Subject)
		require.Contains(t, m.Reason, "invalid event")
	}
	require.Equal(t, want.Sessions, got.Sessions)
	require.Equal(t, want.Totals.Rolls, got.Totals.Rolls)
	require.Equal(t, want.Totals.Verified, got.Totals.Verified)

	var text bytes.Buffer
	require.NoError(t, got.WriteText(&text))
	require.Contains(t, text.String(), fmt.Sprintf("FOREIGN  sequence %d (%s): not a journal event", foreign[0], got.Foreign[0].Subject))
	require.Contains(t, text.String(), "FAILED: ")
	require.Contains(t, text.String(), ", 2 messages that are not events")

	// Outside Verify, a stream's message that is not an event is skipped
	// (EventsOnly), and a line of an export that is not one stops the read.
	luck, err := replay.Luck(ctx, src, replay.LuckFilter{})
	require.NoError(t, err)
	clean, err := replay.Luck(ctx, replay.Events(w.evs...), replay.LuckFilter{})
	require.NoError(t, err)
	require.Equal(t, clean, luck)
	_, err = replay.Luck(ctx, replay.JSONLBytes([]byte("{garbage\n")), replay.LuckFilter{})
	require.ErrorIs(t, err, replay.ErrMalformed)
}
