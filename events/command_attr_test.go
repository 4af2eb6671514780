package events

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestValidCommand(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"roll", true}, {"hope-spend", true}, {"heal-after-combat", true}, {"a1", true},
		{strings.Repeat("x", MaxCommandLen), true},
		{"", false}, {strings.Repeat("x", MaxCommandLen+1), false}, {"Roll", false}, {"hope spend", false},
		{"-roll", false}, {"1roll", false}, {"roll_x", false}, {"roll\n", false}, {"tirada-ñ", false},
	} {
		err := ValidCommand(tt.name)
		if tt.ok {
			require.NoError(t, err, "%q", tt.name)
			continue
		}
		require.ErrorIs(t, err, ErrInvalidCommand, "%q", tt.name)
	}
}

// TestCommandInDocuments: the command is an optional envelope attribute,
// after requestid; events without it (all events written before it)
// decode and encode as before, events with it take the fast path and
// encode as encoding/json does, and a document with an invalid one is
// refused.
func TestCommandInDocuments(t *testing.T) {
	at := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	spec := Spec{Campaign: "mordor", Kind: KindCampaign, AggregateID: "mordor", Name: Name(TypeDayStarted),
		Type: TypeDayStarted, Actor: "gm", Data: DayStarted{}}
	ids := &RequestIDs{Campaign: "mordor", Request: "req-1", Command: "day-new"}

	old, err := New(spec, ids, at)
	require.NoError(t, err)
	oldDoc, err := Encode(old)
	require.NoError(t, err)
	require.NotContains(t, string(oldDoc), `"command"`, "an event without a command writes no attribute")

	for _, tt := range []struct{ request, want string }{
		{"", `"causationid":"","command":"day-new","data":`},
		{"req-1", `"causationid":"","requestid":"req-1","command":"day-new","data":`},
	} {
		spec.RequestID, spec.Command = tt.request, "day-new"
		e, err := New(spec, ids, at)
		require.NoError(t, err)
		doc, err := Encode(e)
		require.NoError(t, err)
		require.Contains(t, string(doc), tt.want)
		ref, err := referenceEncode(e)
		require.NoError(t, err)
		require.Equal(t, string(ref), string(doc), "Encode writes what encoding/json writes")
		fast, _, ok := readFast(doc, false)
		require.True(t, ok, "readFast gave up on %s", doc)
		require.Equal(t, "day-new", fast.Command)
		require.Equal(t, tt.request, fast.RequestID)
		require.Empty(t, readAgrees(doc))
		got, err := Decode(doc)
		require.NoError(t, err)
		require.Equal(t, "day-new", got.Command)
		require.Empty(t, referenceAgrees(doc))

		for _, bad := range []string{"day new", "Day-new", strings.Repeat("d", MaxCommandLen+1), "d\\u0000", ""} {
			d := bytes.Replace(doc, []byte(`"command":"day-new"`), []byte(`"command":"`+bad+`"`), 1)
			got, err := Decode(d)
			if bad == "" { // an empty attribute is no attribute, as encoding/json reads it
				require.NoError(t, err)
				require.Empty(t, got.Command)
				continue
			}
			require.Error(t, err, "%s", d)
			require.True(t, errors.Is(err, ErrInvalidEvent) && errors.Is(err, ErrInvalidCommand), "%v", err)
			require.Empty(t, readAgrees(d))
		}
	}
	spec.Command = "day new"
	_, err = New(spec, ids, at)
	require.ErrorIs(t, err, ErrInvalidCommand)
}
