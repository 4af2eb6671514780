package recorder

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
)

// TestReport: the text names each event with its id and sequence, and a
// repeated request once; the JSON document has the events with their
// lines, "repeated" only when set, and Describe folds onto the state
// before without refusing an event it cannot describe.
func TestReport(t *testing.T) {
	s := newStream(t)
	d := s.day()
	before := s.fold(1)
	res := command.Result{Events: []events.Recorded{d}}
	lines := Describe(i18n.EN, before, res.Events)
	require.Len(t, lines, 1)
	require.NotEmpty(t, lines[0])
	require.Equal(t, uint64(2), before.LastSeq, "Describe folds the events into before")

	var w bytes.Buffer
	Text(&w, i18n.EN, res, []string{"a new day"})
	require.Equal(t, "a new day\n    event "+d.Event.ID+" · seq 2\n", w.String())

	res.Repeated = true
	w.Reset()
	Text(&w, i18n.EN, res, []string{"a new day"})
	require.Equal(t, "Already recorded under request "+d.Event.RequestID+"; nothing recorded again:\na new day\n    event "+d.Event.ID+" · seq 2\n", w.String())

	doc, err := json.Marshal(Document(res, []string{"a new day"}))
	require.NoError(t, err)
	var got struct {
		Recorded []Recorded `json:"recorded"`
		Repeated *bool      `json:"repeated"`
		Secret   []any      `json:"secret"`
	}
	require.NoError(t, json.Unmarshal(doc, &got))
	require.Len(t, got.Recorded, 1)
	require.Equal(t, uint64(2), got.Recorded[0].Seq)
	require.Equal(t, "a new day", got.Recorded[0].Text)
	require.Equal(t, d.Event.ID, got.Recorded[0].Event.ID)
	require.NotNil(t, got.Repeated)
	require.Nil(t, got.Secret)

	res.Repeated = false
	require.Equal(t, map[string]any{"recorded": []Recorded{{Seq: 2, Text: "x", Event: d.Event}}}, Document(res, []string{"x"}))
}

// TestMerge: several steps' results report as one, in order, repeated if
// any step's was.
func TestMerge(t *testing.T) {
	a := command.Result{Events: []events.Recorded{{Seq: 1}, {Seq: 2}}}
	b := command.Result{Events: []events.Recorded{{Seq: 3}}, Repeated: true}
	all := Merge(a, b)
	require.Equal(t, []events.Recorded{{Seq: 1}, {Seq: 2}, {Seq: 3}}, all.Events)
	require.True(t, all.Repeated)
	require.False(t, Merge(a).Repeated)
}

// TestBodyJSON: a body already JSON is sent as it is; any other is
// marshalled.
func TestBodyJSON(t *testing.T) {
	raw := []byte(`{"b":1, "a":2}`)
	got, err := BodyJSON(raw)
	require.NoError(t, err)
	require.Equal(t, raw, got)
	got, err = BodyJSON(map[string]any{"b": 1, "a": 2})
	require.NoError(t, err)
	require.Equal(t, `{"a":2,"b":1}`, string(got))
}
