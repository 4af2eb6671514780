package replay_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

func luck(t testing.TB, evs []events.Event, f replay.LuckFilter) replay.LuckReport {
	t.Helper()
	r, err := replay.Luck(context.Background(), replay.Events(evs...), f)
	require.NoError(t, err)
	return r
}

func distribution(t testing.TB, r replay.LuckReport, name string) replay.Distribution {
	t.Helper()
	for _, d := range r.Distributions {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no distribution %q in %v", name, r.Distributions)
	return replay.Distribution{}
}

func character(r replay.LuckReport, id string) (replay.CharacterLuck, bool) {
	for _, c := range r.Characters {
		if c.Character == id {
			return c, true
		}
	}
	return replay.CharacterLuck{}, false
}

// TestLuckCounts checks every count against a count made here from the events.
func TestLuckCounts(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 20)
	s := w.start("s1", seedOf(20))
	rollEvs := s.honest(60)
	s.void(rollEvs[0].ID, "wrong roll")
	s.end()

	// Count by hand.
	faces := map[int][]int{6: make([]int, 6), 10: make([]int, 10)}
	kept := map[string][]int{"low": make([]int, 10), "mid": make([]int, 10), "high": make([]int, 10)}
	type stats struct{ rolls, succ, crit, fumble, nat1, dealt, taken int }
	want := map[string]*stats{"lodin": {}, "mara": {}, "orco": {}}
	total := 0
	for _, ev := range rollEvs {
		switch ev.Type {
		case events.TypeDamageTaken:
			var d events.DamageTaken
			require.NoError(t, ev.DecodeData(&d))
			want[d.Character].taken += d.Amount
			want[d.Source].dealt += d.Amount
		case events.TypeRollMade:
			rm := rollOf(t, ev)
			total++
			sides, err := rolls.Dice(rm)
			require.NoError(t, err)
			for i, f := range rm.Faces {
				faces[sides[i]][f-1]++
			}
			if rm.Kind != rolls.KindDamage {
				for _, k := range rm.Kept {
					kept[rm.Level][k-1]++
				}
			}
			if ev.ID == rollEvs[0].ID {
				continue // voided
			}
			st := want[rm.Character]
			st.rolls++
			if rm.Kind == rolls.KindDamage {
				continue
			}
			if rm.Outcome == "success" || rm.Outcome == "critical" {
				st.succ++
			}
			if rm.Critical {
				st.crit++
			}
			if rm.Fumble {
				st.fumble++
			}
			if rm.Natural1 {
				st.nat1++
			}
		}
	}

	r := luck(t, w.evs, replay.LuckFilter{})
	if r.Rolls != total || r.Voided != 1 || r.Skipped != 0 {
		t.Errorf("rolls: got %d (%d voided, %d skipped), want %d (1 voided, 0 skipped)", r.Rolls, r.Voided, r.Skipped, total)
	}
	for _, tt := range []struct {
		name string
		want []int
	}{
		{"d10", faces[10]}, {"d6", faces[6]}, {"d12", make([]int, 12)},
		{"kept d10 low", kept["low"]}, {"kept d10 mid", kept["mid"]}, {"kept d10 high", kept["high"]},
	} {
		d := distribution(t, r, tt.name)
		if fmt.Sprint(d.Observed) != fmt.Sprint(tt.want) {
			t.Errorf("%s observed: got %v, want %v", tt.name, d.Observed, tt.want)
		}
		n := 0
		for _, o := range tt.want {
			n += o
		}
		if d.N != n {
			t.Errorf("%s n: got %d, want %d", tt.name, d.N, n)
		}
		if n > 0 {
			if d.Fit == nil || d.Fit.DF != len(tt.want)-1 || d.Fit.PValue < 0 || d.Fit.PValue > 1 {
				t.Errorf("%s fit: got %+v, want df %d and a p-value", tt.name, d.Fit, len(tt.want)-1)
			}
			sum := 0.0
			for _, e := range d.Expected {
				sum += e
			}
			if sum < float64(n)-1e-6 || sum > float64(n)+1e-6 {
				t.Errorf("%s expected counts sum to %v, want %d", tt.name, sum, n)
			}
		} else if d.Fit != nil {
			t.Errorf("%s: a fit with no observations", tt.name)
		}
	}
	for id, st := range want {
		c, ok := character(r, id)
		if !ok {
			t.Errorf("no stats for %s", id)
			continue
		}
		got := stats{c.Rolls, c.Successes, c.Criticals, c.Fumbles, c.Natural1s, c.DamageDealt, c.DamageTaken}
		if got != *st {
			t.Errorf("%s: got %+v, want %+v", id, got, *st)
		}
	}
	if c, _ := character(r, "mara"); c.Player != "bea" {
		t.Errorf("mara's player: got %q, want bea", c.Player)
	}
}

func TestLuckFilters(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 21)
	s1 := w.start("s1", seedOf(21))
	s1.honest(12)
	s1.end()
	s2 := w.start("s2", seedOf(22))
	s2.honest(6)
	tests := []struct {
		name  string
		f     replay.LuckFilter
		chars []string
	}{
		{"all", replay.LuckFilter{}, []string{"lodin", "mara", "orco"}},
		{"player bea", replay.LuckFilter{Player: "bea"}, []string{"mara"}},
		{"character orco", replay.LuckFilter{Character: "orco"}, []string{"orco"}},
		{"nobody", replay.LuckFilter{Player: "zoe"}, nil},
		{"other campaign", replay.LuckFilter{Campaign: "gondor"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := luck(t, w.evs, tt.f)
			var got []string
			for _, c := range r.Characters {
				got = append(got, c.Character)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.chars) {
				t.Errorf("characters: got %v, want %v", got, tt.chars)
			}
		})
	}
	all := luck(t, w.evs, replay.LuckFilter{})
	one := luck(t, w.evs, replay.LuckFilter{Session: "s2"})
	if one.Rolls == 0 || one.Rolls >= all.Rolls || one.Rolls != int(s2.nonce) {
		t.Errorf("session s2: got %d rolls, want %d (of %d)", one.Rolls, s2.nonce, all.Rolls)
	}
}

// TestLuckFairAndLoaded: the stream's faces fit their distributions; faces
// that always show 10 do not.
func TestLuckFairAndLoaded(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 22)
	s := w.start("s1", seedOf(23))
	for range 1500 {
		chk, err := w.rules.SkillCheck(w.chars["lodin"], "Pelea", "")
		require.NoError(t, err)
		s.check("lodin", chk.WithDifficulty(15), "")
	}
	tw := newWorld(t, "erebor", "tor", 23)
	ts := tw.start("t1", seedOf(24))
	for range 600 {
		ts.torRoll("frodo", 3, 14, "")
	}
	r := luck(t, append(w.evs, tw.evs...), replay.LuckFilter{})
	for _, name := range []string{"d10", "kept d10 mid", "d12", "d6"} {
		d := distribution(t, r, name)
		if d.Fit == nil || d.Fit.PValue < 1e-4 {
			t.Errorf("%s from the committed stream: got fit %+v, want a p-value above 1e-4", name, d.Fit)
		}
	}

	var loaded []events.Event
	for _, ev := range w.evs {
		if ev.Type == events.TypeRollMade {
			ev = editRoll(t, ev, func(rm *events.RollMade) {
				for i := range rm.Faces {
					rm.Faces[i] = 1 + i%2*9 // 1, 10, 1, …
				}
			})
		}
		loaded = append(loaded, ev)
	}
	d := distribution(t, luck(t, loaded, replay.LuckFilter{}), "d10")
	if d.Fit == nil || d.Fit.PValue > 1e-9 {
		t.Errorf("loaded d10: got fit %+v, want a p-value near 0", d.Fit)
	}

	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	text := b.String()
	for _, want := range []string{"d10: n=", "chi²=", "kept d10 mid", "d12: n=", "#", "|", "exp", "character"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "\n") < 10+10+12+6 {
		t.Errorf("text has too few histogram rows:\n%s", text)
	}
}

// TestLuckSkipsUnreadableRolls: rolls whose dice cannot be read are counted
// as skipped, never crash.
func TestLuckSkipsUnreadableRolls(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 24)
	s := w.start("s1", seedOf(25))
	ev := s.skill("lodin", "Sigilo", ryf.Media)
	bad := []events.Event{
		editRoll(t, ev, func(rm *events.RollMade) { rm.Faces = []int{0, 11, 3} }),
		editRoll(t, ev, func(rm *events.RollMade) { rm.Kind = "damage"; rm.Dice = "zz" }),
		editRoll(t, ev, func(rm *events.RollMade) { rm.Level = "cosmic"; rm.Kept = []int{99} }),
	}
	r := luck(t, append(w.evs, bad...), replay.LuckFilter{})
	if r.Skipped != 2 || r.Rolls != 2 {
		t.Errorf("got %d rolls, %d skipped; want 2 and 2", r.Rolls, r.Skipped)
	}
}
