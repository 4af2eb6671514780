package replay_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
)

// TestLuckStateRestores: a counter restored from the saved state of one
// fed the first k events (both passes, or the second alone), then fed the
// rest, reports exactly what a counter fed every event reports, at every
// k, for RyF and The One Ring rolls, damage and a void.
func TestLuckStateRestores(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 20)
	s := w.start("s1", seedOf(20))
	rollEvs := s.honest(40)
	s.void(rollEvs[0].ID, "wrong roll")
	s.end()
	tw := newWorld(t, "erebor", "tor", 23)
	ts := tw.start("t1", seedOf(24))
	for range 30 {
		ts.torRoll("frodo", 3, 14, "")
	}
	var recs []events.Recorded
	for i, ev := range append(w.evs, tw.evs...) {
		recs = append(recs, events.Recorded{Seq: uint64(i + 1), Event: ev})
	}
	for _, f := range []replay.LuckFilter{{}, {Campaign: "mordor", Character: "lodin"}, {Session: "t1"}} {
		for _, scan := range []bool{true, false} {
			feed := func(l *replay.LuckCounter, rs []events.Recorded) {
				for _, r := range rs {
					l.Add(r)
				}
			}
			all := replay.NewLuckCounter(f)
			if scan {
				for _, r := range recs {
					all.Scan(r)
				}
			}
			feed(all, recs)
			want := all.Report()
			for k := 0; k <= len(recs); k += 7 {
				head := replay.NewLuckCounter(f)
				if scan {
					for _, r := range recs {
						head.Scan(r)
					}
				}
				feed(head, recs[:k])
				b, err := json.Marshal(head.State())
				require.NoError(t, err)
				var st replay.LuckState
				require.NoError(t, json.Unmarshal(b, &st))
				restored, err := replay.RestoreLuckCounter(st)
				require.NoError(t, err)
				feed(restored, recs[k:])
				require.Equal(t, want, restored.Report(), "filter %+v, scan %v, restored after %d of %d events", f, scan, k, len(recs))
			}
		}
	}
}

// TestLuckStateRefusesImpossible: a state no counter could have (counts of
// a die that are not its sides', a count below zero, a void key that is
// not one, a character twice) is refused, not restored into a counter
// that could panic on the next roll.
func TestLuckStateRefusesImpossible(t *testing.T) {
	for name, st := range map[string]replay.LuckState{
		"short die":  {Faces: map[int][]int{10: {1, 2, 3}}},
		"huge die":   {Faces: map[int][]int{1000: make([]int, 1000)}},
		"negative":   {Rolls: -1},
		"kept below": {Kept: [3][10]int{{-1}}},
		"void key":   {Voided: []string{"zz"}},
		"twice": {Characters: []replay.CharacterState{
			{CharacterLuck: replay.CharacterLuck{Campaign: "c", Character: "x"}},
			{CharacterLuck: replay.CharacterLuck{Campaign: "c", Character: "x"}},
		}},
	} {
		_, err := replay.RestoreLuckCounter(st)
		require.Error(t, err, name)
	}
	_, err := replay.RestoreLuckCounter(replay.LuckState{})
	require.NoError(t, err)
}
