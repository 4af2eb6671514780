package replay_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
)

// sessionExport returns the export of a small ended session with a voided
// roll, one line per event.
func sessionExport(t *testing.T) [][]byte {
	t.Helper()
	w := newWorld(t, "mordor", "ryf", 7)
	s := w.start("s1", seedOf(7))
	rolled := s.honest(12)
	s.void(rolled[3].ID, "wrong skill")
	s.end()
	var buf bytes.Buffer
	require.NoError(t, replay.WriteJSONL(&buf, w.evs...))
	return bytes.SplitAfter(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
}

// TestFirstPassSkipsOnlyWhatItMay checks that the first pass of Verify and
// Luck over an export, which skips lines that cannot be of the types it
// reads, gives the report that reading every line gives: with the type of
// a session-ended or void event spelled with an escape, and with a
// malformed line that only the second pass decodes.
func TestFirstPassSkipsOnlyWhatItMay(t *testing.T) {
	ctx := context.Background()
	lines := sessionExport(t)
	var evs []events.Event
	require.NoError(t, replay.ReadJSONL(bytes.NewReader(bytes.Join(lines, nil)), func(ev events.Event) error {
		evs = append(evs, ev)
		return nil
	}))
	want, err := replay.Verify(ctx, replay.Events(evs...), replay.Options{})
	require.NoError(t, err)
	require.True(t, want.OK(), "%+v", want.Mismatches)
	require.Equal(t, 1, want.Totals.Voided)
	wantLuck, err := replay.Luck(ctx, replay.Events(evs...), replay.LuckFilter{Player: "ana"})
	require.NoError(t, err)

	escaped := make([][]byte, len(lines))
	for i, l := range lines {
		for _, typ := range []string{events.TypeSessionEnded, events.TypeEventVoided, events.TypeCharacterCreated} {
			l = bytes.Replace(l, []byte(`"`+typ+`"`), []byte(`"`+strings.Replace(typ, ".", `\u002e`, 1)+`"`), 1)
		}
		escaped[i] = l
	}
	for name, export := range map[string][][]byte{"plain": lines, "escaped types": escaped} {
		t.Run(name, func(t *testing.T) {
			src := replay.JSONLBytes(bytes.Join(export, nil))
			got, err := replay.Verify(ctx, src, replay.Options{})
			require.NoError(t, err)
			require.Equal(t, want, got)
			gotLuck, err := replay.Luck(ctx, src, replay.LuckFilter{Player: "ana"})
			require.NoError(t, err)
			require.Equal(t, wantLuck, gotLuck)
		})
	}

	// Escapes after the envelope's type (the actor "gm" spelled g\u006d;
	// a v2 event's signed message, in data, in practice): the type still
	// decides, and the first pass reads the session's end (its seed), so
	// the rolls before it are verified, not unverifiable.
	t.Run("escapes after the type", func(t *testing.T) {
		quoted := make([][]byte, len(lines))
		n := 0
		for i, l := range lines {
			quoted[i] = bytes.Replace(l, []byte(`"actor":"gm"`), []byte(`"actor":"g\u006d"`), 1)
			if !bytes.Equal(quoted[i], l) && bytes.Contains(l, []byte(`"`+events.TypeSessionEnded+`"`)) {
				n++
			}
		}
		require.Equal(t, 1, n, "the session end's actor is escaped")
		got, err := replay.Verify(ctx, replay.JSONLBytes(bytes.Join(quoted, nil)), replay.Options{})
		require.NoError(t, err)
		require.Equal(t, want, got)
	})

	t.Run("malformed line", func(t *testing.T) {
		bad := append([][]byte(nil), lines...)
		bad[5] = []byte("{\"specversion\":\"1.0\", not json\n")
		src := replay.JSONLBytes(bytes.Join(bad, nil))
		// Verify goes on past it and fails, naming it.
		rep, err := replay.Verify(ctx, src, replay.Options{})
		require.NoError(t, err)
		require.False(t, rep.OK())
		require.Equal(t, 1, rep.Totals.Foreign)
		require.Len(t, rep.Foreign, 1)
		require.Equal(t, 6, rep.Foreign[0].Line)
		require.Contains(t, rep.Foreign[0].String(), "line 6: not a journal event")
		require.Equal(t, len(lines)-1, rep.Totals.Events)
		_, err = replay.Luck(ctx, src, replay.LuckFilter{})
		require.ErrorIs(t, err, replay.ErrMalformed)
		require.ErrorContains(t, err, "line 6")
	})
}
