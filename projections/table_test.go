package projections_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

// TestCallFold: a call is open until closed; an answer marks its
// character; the cancellation of the v2 request that answered frees the
// character; a proposal ends with its event's void; the state survives
// JSON (a checkpoint) with its counters.
func TestCallFold(t *testing.T) {
	c := projections.NewCampaign("c")
	seq := uint64(0)
	apply := func(typ string, data any) {
		t.Helper()
		seq++
		ev := events.Event{ID: typ + string(rune('a'+seq)), Type: typ, Campaign: "c", Session: "s1", Time: time.Unix(int64(seq), 0)}
		require.NoError(t, c.ApplyData(events.Recorded{Seq: seq, Event: ev}, data))
	}
	apply(events.TypeCampaignCreated, &events.CampaignCreated{Name: "c", System: "ryf"})
	apply(events.TypeCallMade, &events.CallMade{Call: "call-1", Characters: []string{"lodin", "ruisenor"}, Skill: "Sigilo", By: "ana"})
	apply(events.TypeCallMade, &events.CallMade{Call: "call-2", Characters: []string{"lodin"}, Attribute: "F", By: "ana"})
	apply(events.TypeCallAnswered, &events.CallAnswered{Call: "call-1", Character: "lodin", Event: "e1", Request: "r1", By: "cai"})
	apply(events.TypeCallAnswered, &events.CallAnswered{Call: "call-1", Character: "ruisenor", Event: "e2", By: "bea"})
	require.Equal(t, map[string]string{"lodin": "e1", "ruisenor": "e2"}, c.OpenCall("call-1").Answered)
	apply(events.TypeRollCancelled, &events.RollCancelled{Request: "r1", Reason: "x"})
	require.Equal(t, map[string]string{"ruisenor": "e2"}, c.OpenCall("call-1").Answered, "the cancelled request's answer is freed")
	apply(events.TypeCallClosed, &events.CallClosed{Call: "call-2", By: "ana"})
	require.Nil(t, c.OpenCall("call-2"))
	require.Len(t, c.Calls, 1)
	require.Equal(t, 2, c.CallsMade)

	apply(events.TypeVoidProposed, &events.VoidProposed{Proposal: "void-1", EventID: "e2", Reason: "r", Roller: "bea", By: "ana"})
	apply(events.TypeVoidConsented, &events.VoidConsented{Proposal: "void-1", EventID: "e2", User: "bea", Signed: "s", Signature: "sig"})
	require.Equal(t, "s", c.OpenVoidProposal("void-1").ConsentSigned)
	apply(events.TypeEventVoided, &events.EventVoided{EventID: "e2", Reason: "r"})
	require.Nil(t, c.OpenVoidProposal("void-1"), "the void ends the proposal")
	require.Equal(t, 1, c.VoidsProposed)
}
