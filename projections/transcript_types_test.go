package projections_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

// TestTranscriptDescribesEveryType ranges over the registry of event
// types: the transcript has a line of its own for each of them (not the
// bare type it falls back to), so that a type added to the registry
// without a line in Describe cannot pass.
func TestTranscriptDescribesEveryType(t *testing.T) {
	for _, info := range events.Types() {
		c := projections.NewCampaign("c")
		system := "ryf"
		if info.System == events.SystemTOR {
			system = "tor"
		}
		created := events.Recorded{Seq: 1, Event: events.Event{Type: events.TypeCampaignCreated, Campaign: "c"}}
		require.NoError(t, c.ApplyData(created, &events.CampaignCreated{Name: "c", System: system}))
		ev := events.Event{Type: info.Type, Campaign: "c", Session: "s1"}
		line := projections.Describe(c, ev, info.NewData())
		require.NotEmpty(t, line, info.Type)
		require.NotEqual(t, info.Type, line, "the transcript has no line for %s", info.Type)
	}
}

// TestRecordedEventsAgreeWithTheRegistry: what the command layer records
// in a RyF session is filed under the aggregate kind the registry gives
// its type, and is of a type the registry gives to RyF or to any system.
func TestRecordedEventsAgreeWithTheRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, rec := range recordSession(t) {
		info, ok := events.LookupType(rec.Event.Type)
		require.True(t, ok, rec.Event.Type)
		kind, _, err := rec.Event.Aggregate()
		require.NoError(t, err)
		require.Equal(t, info.Kind, kind, "the kind of %s", info.Type)
		require.Contains(t, []string{events.SystemAny, events.SystemRyF}, info.System, info.Type)
		seen[info.Type] = true
	}
	require.GreaterOrEqual(t, len(seen), 10, "the session records too few types to tell")
}
