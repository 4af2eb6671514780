package replay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/reproduce"
	"github.com/campaign-journal/journal/rules/ryf"
)

// contestSession records an initiative with a token spent, then contests
// of every shape: attribute sides (which
// explode and have a natural 1 since docs/rules.md 1.5 decided so), sides with
// the token, the specialization, modifiers and a GM-named attribute, a
// re-rolled tie, and contests recorded the way the journal did before that
// decision (Legacy: attribute sides not flagged opposed). It returns how
// many attribute sides showed a first kept die of 1 or 10, new and legacy.
func contestSession(t *testing.T) (r *recorder, special, legacySpecial int) {
	t.Helper()
	r = newRecorder(t, "duel")
	ctx, j, c := r.Ctx, r.J, r.Campaign
	r.Do("campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "ryf"})
	})
	for _, req := range []command.CreateCharacter{
		{ID: "lodin", Player: "ana", Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=4,Sigilo=5,Diagnosis=2", Specialization: "Sigilo"},
		{ID: "orco", NPC: true, Attributes: "F=7,R=4,D=5,I=3,P=4", Skills: "Pelea=4"},
	} {
		r.Do("character "+req.ID, func() (command.Result, error) { return j.CreateCharacter(ctx, c, req) })
	}
	r.Do("session", func() (command.Result, error) { return j.StartSession(ctx, c, "s1", "") })
	count := func(res command.Result) int {
		n := 0
		for _, x := range res.Events[:2] {
			p, err := x.Event.Payload()
			require.NoError(t, err)
			if d := p.(*events.RollMade); d.Kind == "attribute" && (d.Kept[0] == 1 || d.Kept[0] == 10) {
				n++
			}
		}
		return n
	}
	r.Do("initiative with a token", func() (command.Result, error) {
		return j.StartCombatWith(ctx, c, command.CombatStart{Participants: []string{"lodin", "orco"}, Token: []string{"lodin"}})
	})
	r.Do("combat end", func() (command.Result, error) { return j.EndCombat(ctx, c) })
	r.Do("token back", func() (command.Result, error) { return j.ReturnToken(ctx, c, "lodin") })
	r.Do("options", func() (command.Result, error) {
		return j.Contest(ctx, c, command.ContestRequest{A: "lodin", SkillA: "sigilo", AttrA: "P", TokenA: true, SpecA: true, ModA: -1,
			B: "orco", SkillB: "D", ModB: 2, EntropyB: "gm"})
	})
	tie := ""
	for i := 0; i < 200 && (special == 0 || legacySpecial == 0 || tie == ""); i++ {
		res := r.Do("attributes", func() (command.Result, error) {
			return j.Contest(ctx, c, command.ContestRequest{A: "lodin", SkillA: "F", B: "orco", SkillB: "F", ModB: 2, EntropyA: fmt.Sprint(i)})
		})
		special += count(res)
		var v events.ContestResolved
		require.NoError(t, res.Events[2].Event.DecodeData(&v))
		if v.Tie && tie == "" {
			tie = res.Events[2].Event.ID
		}
		res = r.Do("legacy", func() (command.Result, error) {
			return j.Contest(ctx, c, command.ContestRequest{A: "lodin", SkillA: "D", B: "orco", SkillB: "R", EntropyB: fmt.Sprint(i), Rules: ryf.RulesV1})
		})
		legacySpecial += count(res)
	}
	require.NotEmpty(t, tie, "no tie to re-roll")
	critical := false
	for i := 0; i < 50 && !critical; i++ {
		res := r.Do("critical", func() (command.Result, error) {
			return j.Contest(ctx, c, command.ContestRequest{A: "lodin", SkillA: "F", ModA: 20, B: "orco", SkillB: "F", EntropyA: fmt.Sprint(i)})
		})
		var v events.ContestResolved
		require.NoError(t, res.Events[2].Event.DecodeData(&v))
		critical = v.Critical
	}
	require.True(t, critical, "no contest won with a critical")
	r.Do("rematch", func() (command.Result, error) {
		return j.Contest(ctx, c, command.ContestRequest{A: "lodin", SkillA: "fuerza", B: "orco", SkillB: "F", ModB: 5, Rematch: tie})
	})
	r.Do("attribute roll", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "lodin", Attribute: "D", Vs: "20"})
	})
	r.Do("end", func() (command.Result, error) { return j.EndSession(ctx, c) })
	return r, special, legacySpecial
}

// Contests with attribute sides verify and reproduce, and so do contests
// recorded before opposed attribute rolls exploded: verification judges a
// roll by its recorded inputs, reproduction re-runs a recorded contest with
// the rules it was recorded under.
func TestContestsVerifyAndReproduce(t *testing.T) {
	r, special, legacySpecial := contestSession(t)
	require.Positive(t, special, "some new attribute side shows a kept 1 or 10")
	require.Positive(t, legacySpecial, "some legacy attribute side shows a kept 1 or 10")
	ctx := context.Background()
	for name, src := range map[string]replay.Source{
		"export": replay.JSONLBytes(r.Export()),
		"store":  replay.Records(r.Records()),
		// As recorded before roll events named their rules version: read
		// as ryf/1, or ryf/2 for the sides flagged opposed.
		"without versions": replay.Events(rechain(t, withoutRules(t, r))...),
	} {
		t.Run(name, func(t *testing.T) {
			rep, err := replay.Verify(ctx, src, replay.Options{})
			require.NoError(t, err)
			require.True(t, rep.OK(), reportText(t, rep))
			require.Equal(t, replay.StatusVerified, rep.Sessions[0].Status)

			rp, err := reproduce.Run(ctx, src, replay.Options{})
			require.NoError(t, err)
			if !rp.OK() {
				var buf bytes.Buffer
				require.NoError(t, rp.WriteText(&buf))
				t.Fatalf("reproduction differs:\n%s", buf.String())
			}
			require.Equal(t, reproduce.StatusIdentical, rp.Sessions[0].Status)
		})
	}
}

// withoutRules returns the recorded events with the rules member of every
// roll event removed, as the journal recorded them before it had one.
func withoutRules(t *testing.T, r *recorder) []events.Event {
	t.Helper()
	var evs []events.Event
	n := 0
	for _, x := range r.Records() {
		e := x.Event
		if e.Type == events.TypeRollMade {
			var m map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(e.Data, &m))
			if _, ok := m["rules"]; ok {
				delete(m, "rules")
				b, err := json.Marshal(m)
				require.NoError(t, err)
				e.Data = b
				n++
			}
		}
		evs = append(evs, e)
	}
	require.Positive(t, n, "no roll named its rules")
	return evs
}

// A legacy attribute side judged by the new rules would disagree with its
// record whenever it shows a kept 1 or 10: the flag is what keeps it
// verifiable, and flipping it is caught.
func TestContestOpposedFlagIsJudged(t *testing.T) {
	r, _, legacySpecial := contestSession(t)
	require.Positive(t, legacySpecial)
	var evs []events.Event
	flipped := 0
	for _, x := range r.Records() {
		e := x.Event
		if p, err := e.Payload(); err == nil {
			if d, ok := p.(*events.RollMade); ok && d.Kind == "attribute" && !d.Opposed && len(d.Kept) > 0 && (d.Kept[0] == 1 || d.Kept[0] == 10) {
				d.Opposed = true
				b, err := json.Marshal(d)
				require.NoError(t, err)
				e.Data = b
				flipped++
			}
		}
		evs = append(evs, e)
	}
	require.Equal(t, legacySpecial, flipped)
	rep, err := replay.Verify(context.Background(), replay.Events(evs...), replay.Options{})
	require.NoError(t, err)
	require.False(t, rep.OK(), "a legacy side judged as opposed disagrees with its record")
}

// forge returns the recorded events with the data of the first event that
// change accepts rewritten by it.
func forge[T any](t *testing.T, r *recorder, change func(e events.Event, d *T) bool) []events.Event {
	t.Helper()
	var evs []events.Event
	done := false
	for _, x := range r.Records() {
		e := x.Event
		if p, err := e.Payload(); err == nil && !done {
			if d, ok := p.(*T); ok && change(e, d) {
				b, err := json.Marshal(d)
				require.NoError(t, err)
				e.Data, done = b, true
			}
		}
		evs = append(evs, e)
	}
	require.True(t, done, "nothing to tamper with")
	return evs
}

// rechain recomputes the prevhash of every chained event after the first
// from the stored bytes of the one before, as a journal that had recorded
// the events so would have chained them.
func rechain(t *testing.T, evs []events.Event) []events.Event {
	t.Helper()
	for i := 1; i < len(evs); i++ {
		if evs[i].PrevHash == "" {
			continue
		}
		raw, err := events.Encode(evs[i-1])
		require.NoError(t, err)
		evs[i].PrevHash = events.ChainHash(raw)
	}
	return evs
}

// Verification re-judges every contest's verdict from its rolls, and
// refuses a roll flagged opposed outside a contest, a contest naming other
// rolls, and a pair flagged differently.
func TestVerifyCatchesForgedContests(t *testing.T) {
	r, _, _ := contestSession(t)
	tests := []struct {
		name string
		evs  []events.Event
		kind replay.MismatchKind
		what string
	}{
		{"verdict flipped", forge(t, r, func(_ events.Event, d *events.ContestResolved) bool {
			if d.Tie || d.Rematch != "" {
				return false
			}
			if d.Winner == d.A {
				d.Winner = d.B
			} else {
				d.Winner = d.A
			}
			return true
		}), replay.MismatchRules, "contest verdict"},
		{"tie claimed", forge(t, r, func(_ events.Event, d *events.ContestResolved) bool {
			if d.Tie {
				return false
			}
			d.Winner, d.Tie, d.Reason = "", true, "equal totals"
			return true
		}), replay.MismatchRules, "contest verdict"},
		{"a lone roll flagged opposed", forge(t, r, func(_ events.Event, d *events.RollMade) bool {
			if d.Kind != "attribute" || d.Difficulty == nil {
				return false
			}
			d.Opposed = true
			return true
		}), replay.MismatchInputs, "no contest names"},
		{"one side flagged, the other not", forge(t, r, func(_ events.Event, d *events.RollMade) bool {
			if !d.Opposed || d.Kind != "attribute" || d.Kept[0] == 1 || d.Kept[0] == 10 {
				return false
			}
			d.Opposed = false
			return true
		}), replay.MismatchInputs, "flagged opposed, the other not"},
		{"critical claimed", forge(t, r, func(_ events.Event, d *events.ContestResolved) bool {
			if d.Critical {
				return false
			}
			d.Critical = true
			return true
		}), replay.MismatchRules, "critical"},
		{"other rolls named", forge(t, r, func(_ events.Event, d *events.ContestResolved) bool {
			d.RollA = d.RollB
			return true
		}), replay.MismatchInputs, "not the two rolls recorded just before it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := replay.Verify(context.Background(), replay.Events(tt.evs...), replay.Options{})
			require.NoError(t, err)
			require.False(t, rep.OK())
			found := false
			for _, s := range rep.Sessions {
				for _, m := range s.Mismatches {
					if m.Kind == tt.kind && strings.Contains(m.What, tt.what) {
						found = true
					}
				}
			}
			require.True(t, found, reportText(t, rep))
		})
	}
}

// A contest recorded before the journal recorded a winner's critical has
// none: it still verifies and reproduces.
func TestContestsWithoutTheCriticalStillVerify(t *testing.T) {
	r, _, _ := contestSession(t)
	evs := rechain(t, forge(t, r, func(_ events.Event, d *events.ContestResolved) bool {
		if !d.Critical {
			return false
		}
		d.Critical = false
		return true
	}))
	ctx := context.Background()
	rep, err := replay.Verify(ctx, replay.Events(evs...), replay.Options{})
	require.NoError(t, err)
	require.True(t, rep.OK(), reportText(t, rep))
	rp, err := reproduce.Run(ctx, replay.Events(evs...), replay.Options{})
	require.NoError(t, err)
	if !rp.OK() {
		var buf bytes.Buffer
		require.NoError(t, rp.WriteText(&buf))
		t.Fatalf("reproduction differs:\n%s", buf.String())
	}
}
