package projections_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
)

// TestTranscriptStateRestores: a transcript restored from the saved state
// of one that folded the first k events of a campaign with every kind of
// event, then fed the rest, has the last lines and the campaign state of
// one that folded them all, at every k, for a session and for the whole
// campaign, in both languages.
func TestTranscriptStateRestores(t *testing.T) {
	var recs []events.Recorded
	for _, r := range everyKind(t) {
		if r.Event.Campaign == "d" {
			recs = append(recs, r)
		}
	}
	for _, session := range []string{"", "s1"} {
		for _, lang := range []i18n.Lang{i18n.EN, i18n.ES} {
			fold := func(tr *projections.Transcript, from, to int) {
				for _, r := range recs[from:to] {
					require.NoError(t, tr.Apply(r))
				}
			}
			all := projections.NewTranscript("d", session)
			all.Lang = lang
			fold(all, 0, len(recs))
			wantCampaign, err := json.Marshal(all.Campaign)
			require.NoError(t, err)
			for k := range len(recs) + 1 {
				head := projections.NewTranscript("d", session)
				head.Lang = lang
				fold(head, 0, k)
				b, err := json.Marshal(head.State(3))
				require.NoError(t, err)
				var st projections.TranscriptState
				require.NoError(t, json.Unmarshal(b, &st))
				tr, err := projections.RestoreTranscript(st)
				require.NoError(t, err)
				fold(tr, k, len(recs))
				require.Equal(t, len(all.Lines), tr.Dropped+len(tr.Lines), "session %q, %s, restored after %d", session, lang, k)
				require.Equal(t, all.Lines[tr.Dropped:], tr.Lines, "session %q, %s, restored after %d", session, lang, k)
				got, err := json.Marshal(tr.Campaign)
				require.NoError(t, err)
				require.JSONEq(t, string(wantCampaign), string(got), "restored after %d", k)
			}
		}
	}
}

// TestTranscriptStateRefusesImpossible: a state without a campaign, or
// with lines out of order, after the campaign's last event or of another
// session, is refused.
func TestTranscriptStateRefusesImpossible(t *testing.T) {
	c := projections.NewCampaign("d")
	c.LastSeq = 10
	for name, st := range map[string]projections.TranscriptState{
		"no campaign":   {},
		"out of order":  {Campaign: c, Lines: []projections.Line{{Seq: 4}, {Seq: 3}}},
		"after last":    {Campaign: c, Lines: []projections.Line{{Seq: 11}}},
		"other session": {Campaign: c, Session: "s1", Lines: []projections.Line{{Seq: 2, Session: "s2"}}},
		"dropped below": {Campaign: c, Dropped: -1},
	} {
		_, err := projections.RestoreTranscript(st)
		require.Error(t, err, name)
	}
	_, err := projections.RestoreTranscript(projections.TranscriptState{Campaign: c, Lines: []projections.Line{{Seq: 3}}})
	require.NoError(t, err)
}
