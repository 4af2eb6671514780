package replay_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// vectorSeed is the seed of docs/design.md §3's test vectors: bytes 0x00..0x1f.
func vectorSeed() dice.Seed {
	var s dice.Seed
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

func explain(t testing.TB, roll events.Event, s *session, seed *dice.Seed) replay.Explanation {
	t.Helper()
	started := &events.SessionStarted{Algorithm: dice.Algorithm, Commitment: s.seed.Commitment()}
	x, err := replay.Explain(roll, started, seed)
	require.NoError(t, err)
	return x
}

func explainText(t testing.TB, x replay.Explanation) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, x.WriteText(&b))
	return b.String()
}

// TestExplainVectors explains rolls at the nonces of docs/design.md §3's vectors.
func TestExplainVectors(t *testing.T) {
	seed := vectorSeed()
	w := newWorld(t, "camp-1", "ryf", 11)
	s := w.start("sess-1", seed)
	if got, want := seed.Commitment(), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"; got != want {
		t.Fatalf("commitment: got %s, want %s", got, want)
	}
	lodin := w.chars["lodin"]
	attr, err := w.rules.AttributeCheck(lodin, ryf.Fuerza) // attribute rolls never explode: exactly 3d10
	require.NoError(t, err)

	r0 := s.check("lodin", attr.WithDifficulty(15), "") // nonce 0
	r1 := s.check("lodin", attr, "")                    // nonce 1
	tw := newWorld(t, "camp-1", "tor", 12)
	ts := tw.start("sess-1", seed)
	ts.nonce = 2
	r2 := ts.torRoll("frodo", 3, 14, "") // nonce 2: d12, 3d6
	s.nonce = 3
	r3 := s.damage("lodin", "2d6", false)  // nonce 3: 2d6
	r4 := s.damage("lodin", "1d20", false) // nonce 4: d20 first
	s.nonce = 0
	re := s.check("lodin", attr, "lodin") // nonce 0, entropy lodin

	tests := []struct {
		name    string
		roll    events.Event
		message string
		faces   []int
	}{
		{"nonce 0", r0, "journal-dice-v1|camp-1|sess-1|0||", []int{5, 9, 5}},
		{"nonce 1", r1, "journal-dice-v1|camp-1|sess-1|1||", []int{4, 6, 4}},
		{"nonce 2 TOR", r2, "journal-dice-v1|camp-1|sess-1|2||", []int{3, 6, 3, 4}},
		{"nonce 3 2d6", r3, "journal-dice-v1|camp-1|sess-1|3||", []int{1, 4}},
		{"nonce 4 d20", r4, "journal-dice-v1|camp-1|sess-1|4||", []int{18}},
		{"nonce 0 entropy", re, "journal-dice-v1|camp-1|sess-1|0|lodin|", []int{4, 8, 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := explain(t, tt.roll, s, &seed)
			if x.Message != tt.message {
				t.Errorf("message: got %q, want %q", x.Message, tt.message)
			}
			if !slices.Equal(x.Derived, tt.faces) {
				t.Errorf("derived faces: got %v, want %v", x.Derived, tt.faces)
			}
			if !x.Verified || x.FacesMatch == nil || !*x.FacesMatch || !x.RulesAgree || x.SeedMatches == nil || !*x.SeedMatches {
				t.Errorf("got verified %v, verdict %q; want verified", x.Verified, x.Verdict)
			}
			if len(x.Blocks) == 0 || x.Blocks[0].Index != 0 {
				t.Fatalf("blocks: got %+v, want block 0 first", x.Blocks)
			}
		})
	}

	x := explain(t, r0, s, &seed)
	if got, want := x.Blocks[0].Hex, "ccc640960e2f31e9b8a2c5342d22671e1c58239fe15b8b3075028094e01464f5"; got != want {
		t.Errorf("block(0): got %s, want %s", got, want)
	}
	if got := x.Draws[0]; got.Byte != 0xcc || got.Face != 5 || got.Rejected || got.Die != 1 || got.Limit != 250 {
		t.Errorf("first draw: got %+v, want byte 0xcc → 5 (die 1, limit 250)", got)
	}
	if len(x.Rounds) != 1 || x.Rounds[0].Dice != [3]int{5, 9, 5} || x.Rounds[0].Kept != 5 {
		t.Errorf("rounds: got %+v, want one round 5 9 5", x.Rounds)
	}
	if !strings.Contains(x.Rule, "difficulty 15") {
		t.Errorf("rule: got %q, want it judged against difficulty 15", x.Rule)
	}
	x2 := explain(t, r2, s, &seed)
	if x2.Feat == nil || x2.Feat.Feat != 3 || !slices.Equal(x2.Feat.Success, []int{6, 3, 4}) || x2.Feat.Sixes != 1 {
		t.Errorf("TOR feat: got %+v, want feat 3, success 6 3 4, one six", x2.Feat)
	}
	if !strings.Contains(x2.Rule, "TN 14") {
		t.Errorf("TOR rule: got %q, want TN 14", x2.Rule)
	}
}

// TestExplainRejectedByte explains a roll whose stream had a byte rejected.
func TestExplainRejectedByte(t *testing.T) {
	seed := vectorSeed()
	w := newWorld(t, "camp-1", "ryf", 13)
	s := w.start("sess-1", seed)
	key := dice.NewKey(seed)
	found := -1
	for n := uint64(0); n < 500 && found < 0; n++ {
		st := key.Stream("camp-1", "sess-1", n, "")
		st.Trace()
		for range 3 {
			_, err := st.Roll(10)
			require.NoError(t, err)
		}
		for _, d := range st.Draws() {
			if d.Rejected() {
				found = int(n)
			}
		}
	}
	require.GreaterOrEqual(t, found, 0, "no nonce with a rejected byte")
	s.nonce = uint64(found)
	chk, err := w.rules.AttributeCheck(w.chars["mara"], ryf.Inteligencia)
	require.NoError(t, err)
	roll := s.check("mara", chk.WithDifficulty(18), "")

	x := explain(t, roll, s, &seed)
	var rejected []replay.DrawStep
	kept := 0
	for _, d := range x.Draws {
		if d.Rejected {
			rejected = append(rejected, d)
		} else {
			kept++
		}
	}
	if len(rejected) == 0 {
		t.Fatalf("nonce %d: no rejected draw in %+v", found, x.Draws)
	}
	for _, d := range rejected {
		if d.Byte < 250 || d.Face != 0 || d.Limit != 250 {
			t.Errorf("rejected draw: got %+v, want a byte ≥ 250 with no face", d)
		}
	}
	if kept != len(x.Recorded) || len(x.Draws) != kept+len(rejected) {
		t.Errorf("draws: got %d kept of %d, want one per face (%d)", kept, len(x.Draws), len(x.Recorded))
	}
	if !x.Verified {
		t.Errorf("verdict: got %q, want verified", x.Verdict)
	}
	text := explainText(t, x)
	for _, want := range []string{"rejected (", "verdict: verified", "SHA-256 matches the commitment", `journal-dice-v1|camp-1|sess-1|`} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

func TestExplainExplosionsAndVerdicts(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 14)
	seed := seedOf(14)
	s := w.start("s1", seed)
	// Look for a 1o3d10 explosion at level high and a damage explosion.
	var boom, dmg events.Event
	for range 400 {
		if boom.ID == "" {
			chk, err := w.rules.SkillCheck(w.chars["lodin"], "Sigilo", "")
			require.NoError(t, err)
			chk.Specialization = true
			ev := s.check("lodin", chk.WithDifficulty(20), "")
			if rollOf(t, ev).Exploded {
				boom = ev
			}
		}
		if dmg.ID == "" {
			ev := s.damage("orco", "1d4", true)
			if rollOf(t, ev).Exploded {
				dmg = ev
			}
		}
	}
	require.NotEmpty(t, boom.ID)
	require.NotEmpty(t, dmg.ID)

	x := explain(t, boom, s, &seed)
	if len(x.Rounds) < 2 || !x.Rounds[0].Explodes || x.Rounds[0].Kept != 10 || x.Rounds[len(x.Rounds)-1].Explodes {
		t.Errorf("explosion rounds: got %+v, want a kept 10 exploding into another round", x.Rounds)
	}
	if !x.Verified || !strings.Contains(strings.Join(x.Steps, "\n"), "explodes") {
		t.Errorf("explosion: got verified %v, steps %q", x.Verified, x.Steps)
	}
	if x.Inputs.Level != "high" || len(x.Inputs.Terms) == 0 {
		t.Errorf("inputs: got level %q terms %v, want high with terms", x.Inputs.Level, x.Inputs.Terms)
	}

	xd := explain(t, dmg, s, &seed)
	if len(xd.Chains) != 1 || xd.Chains[0].Explosions == 0 || !strings.Contains(xd.Rule, "doubled by the critical") {
		t.Errorf("damage: got chains %+v rule %q, want an exploding chain, doubled", xd.Chains, xd.Rule)
	}

	tests := []struct {
		name     string
		roll     events.Event
		seed     *dice.Seed
		verified bool
		verdict  string
	}{
		{"no seed", boom, nil, false, "seed not yet revealed"},
		{"wrong seed", boom, ptr(seedOf(15)), false, "does not match the session's commitment"},
		{"face forged", editRoll(t, boom, func(rm *events.RollMade) { rm.Faces[2] = rm.Faces[2]%9 + 1 }), &seed, false, "MISMATCH"},
		{"total edited", editRoll(t, boom, func(rm *events.RollMade) { rm.Total-- }), &seed, false, "total: recorded"},
		{"honest", boom, &seed, true, "verified"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := explain(t, tt.roll, s, tt.seed)
			if x.Verified != tt.verified || !strings.Contains(x.Verdict, tt.verdict) {
				t.Errorf("got verified %v verdict %q, want %v and %q", x.Verified, x.Verdict, tt.verified, tt.verdict)
			}
			_ = explainText(t, x)
		})
	}

	if _, err := replay.Explain(w.evs[0], nil, nil); !errors.Is(err, replay.ErrNotRoll) {
		t.Errorf("not a roll: got %v, want ErrNotRoll", err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestExplainEvent(t *testing.T) {
	w, s, rollEvs := honestWorld(t, 6)
	src := replay.Events(w.evs...)
	x, err := replay.ExplainEvent(context.Background(), src, rollEvs[2].ID, nil)
	require.NoError(t, err)
	if !x.Verified || x.Commitment != s.seed.Commitment() || x.Seed != s.seed.String() {
		t.Errorf("got verified %v commitment %s seed %s, want verified with the session's", x.Verified, x.Commitment, x.Seed)
	}
	if _, err := replay.ExplainEvent(context.Background(), src, w.newID(), nil); !errors.Is(err, replay.ErrNotFound) {
		t.Errorf("unknown id: got %v, want ErrNotFound", err)
	}

	// An open session, with the seed given.
	ow := newWorld(t, "mordor", "ryf", 15)
	os := ow.start("s2", seedOf(16))
	r := os.skill("mara", "Medicina", ryf.Dificil)
	osrc := replay.Events(ow.evs...)
	x, err = replay.ExplainEvent(context.Background(), osrc, r.ID, nil)
	require.NoError(t, err)
	if x.Verified || x.Seed != "" {
		t.Errorf("open session without seed: got verified %v seed %q", x.Verified, x.Seed)
	}
	x, err = replay.ExplainEvent(context.Background(), osrc, r.ID, map[string]string{"s2": os.seed.String()})
	require.NoError(t, err)
	if !x.Verified {
		t.Errorf("open session with the seed given: got %q", x.Verdict)
	}
}
