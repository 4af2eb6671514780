package projections

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// TestVoids: the first void of an event marks it, a second changes
// nothing, and events of other types are ignored.
func TestVoids(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ids := events.NewV7(func() time.Time { return now }, rand.NewChaCha8([32]byte{5}))
	void := func(seq uint64, target, reason string) events.Recorded {
		ev, err := events.New(events.Spec{Campaign: "arda", Kind: events.KindCampaign, AggregateID: "arda", Name: "voided",
			Type: events.TypeEventVoided, Actor: "gm", Data: events.EventVoided{EventID: target, Reason: reason}}, ids, now)
		require.NoError(t, err)
		return events.Recorded{Seq: seq, Event: ev}
	}
	v := Voids{}
	first := void(7, "e-1", "dado caído")
	v.Add(first)
	v.Add(void(9, "e-1", "otra vez"))
	other := first
	other.Event.Type = events.TypeRollMade
	other.Seq = 10
	v.Add(other)
	require.Len(t, v, 1)
	require.Equal(t, &VoidMark{Seq: 7, EventID: first.Event.ID, Actor: "gm", Reason: "dado caído"}, v["e-1"])
	require.Equal(t, "89abcdef", ShortID("01234567-89abcdef"))
	require.Equal(t, "abc", ShortID("abc"))
}
