package command_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// lastRecorded is the campaign's last event as st stores it.
func lastRecorded(t *testing.T, st command.Store, campaign string) events.Recorded {
	t.Helper()
	filter, err := events.CampaignFilter(campaign)
	require.NoError(t, err)
	var last events.Recorded
	require.NoError(t, st.Read(context.Background(), events.Query{Subject: filter}, func(r events.Recorded) error {
		last = r
		return nil
	}))
	require.NotNil(t, last.Raw)
	return last
}

// A proxy (or the host) shows a player's device another history than the
// journal holds: the device signs what it saw, and the journal refuses the
// message with one conflict naming the sequence, recording nothing. A
// message whose seen is the journal's own head is recorded.
func TestV2SeenDiffersIsRefused(t *testing.T) {
	ctx := context.Background()
	j, st, ana, _ := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	last := lastRecorded(t, st, "mordor")
	forged := append([]byte(nil), last.Raw...)
	forged[len(forged)-2] ^= 1 // the bytes the proxy showed for the same event

	// Another campaign's event at a sequence this campaign does not hold.
	_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: "gondor", System: "ryf"})
	require.NoError(t, err)
	other := lastRecorded(t, st, "gondor")

	for name, seen := range map[string]*signed.Seen{
		"forged bytes":        signed.SeenOf(last.Seq, forged),
		"another campaign's":  signed.SeenOf(other.Seq, other.Raw),
		"beyond the journal":  signed.SeenOf(other.Seq+10, last.Raw),
		"an earlier sequence": signed.SeenOf(last.Seq-1, last.Raw),
	} {
		t.Run(name, func(t *testing.T) {
			before := lastRecorded(t, st, "mordor").Seq
			msg := ana.contribute(t, j, "s2", 0xaa)
			m, err := signed.Parse(msg.Signed)
			require.NoError(t, err)
			c := m.(*signed.Contribute)
			c.Seen = seen
			msg.SignedMessage = ana.seal(t, c)
			_, err = aj.Contribute(ctx, "mordor", msg)
			require.ErrorIs(t, err, command.ErrSeenDiffers)
			require.ErrorIs(t, err, events.ErrConcurrency, "a conflict")
			require.Contains(t, err.Error(), "your device saw a different history at #")
			require.Equal(t, before, lastRecorded(t, st, "mordor").Seq, "nothing recorded")
		})
	}

	msg := ana.contribute(t, j, "s2", 0xaa)
	m, err := signed.Parse(msg.Signed)
	require.NoError(t, err)
	c := m.(*signed.Contribute)
	head := lastRecorded(t, st, "mordor")
	c.Seen = signed.SeenOf(head.Seq, head.Raw)
	msg.SignedMessage = ana.seal(t, c)
	_, err = aj.Contribute(ctx, "mordor", msg)
	require.NoError(t, err, "the journal's own head")
}
