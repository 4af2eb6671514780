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
