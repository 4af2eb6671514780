package replay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/reproduce"
	"github.com/campaign-journal/journal/rules/ryf"
)

// A roll recorded under a rules version the verifier does not know is
// flagged with the version named, in English and Spanish, and never judged
// by today's rules: its outcome, wrong by today's, is no mismatch. The
// reproduction does not re-run it under other rules either.
func TestUnknownRulesVersionIsFlaggedNotJudged(t *testing.T) {
	r, _, _ := contestSession(t)
	evs := rechain(t, forge(t, r, func(_ events.Event, d *events.RollMade) bool {
		if d.Kind != "attribute" || d.Difficulty == nil || d.Opposed {
			return false
		}
		d.Rules = "ryf/3"
		d.Total += 40 // wrong by ryf/2: a later version may judge otherwise
		return true
	}))
	ctx := context.Background()
	rep, err := replay.Verify(ctx, replay.Events(evs...), replay.Options{})
	require.NoError(t, err)
	require.Zero(t, rep.Totals.Mismatches, reportText(t, rep))
	require.Equal(t, replay.VerdictFlagged, rep.Verdict(), reportText(t, rep))
	var flags []replay.Flag
	for _, s := range rep.Sessions {
		for _, f := range s.Flags {
			if f.Code == replay.FlagUnknownRules {
				flags = append(flags, f)
			}
		}
	}
	require.Len(t, flags, 1, reportText(t, rep))
	require.Contains(t, flags[0].What, `rules ryf/3`)
	require.Contains(t, flags[0].What, ryf.RulesV2)
	require.Contains(t, flags[0].WhatIn(i18n.ES), "las reglas ryf/3")

	rp, err := reproduce.Run(ctx, replay.Events(evs...), replay.Options{})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rp.WriteText(&buf))
	found := 0
	for _, s := range rp.Sessions {
		for _, m := range s.Mismatches {
			require.NotEqual(t, reproduce.MismatchReproduced, m.Kind, buf.String())
			if m.Kind == reproduce.MismatchUnknownRules && strings.Contains(m.What, `"ryf/3"`) {
				found++
			}
		}
	}
	require.Equal(t, 1, found, buf.String())
}

// A contest's sides are of one rules version, flagged opposed as that
// version flags its sides: ryf/2 every side, ryf/1 none.
func TestContestSidesFitTheirRulesVersion(t *testing.T) {
	r, _, _ := contestSession(t)
	// sides rewrites both sides of the first ryf/1 contest.
	sides := func(change func(d *events.RollMade, side int)) []events.Event {
		var evs []events.Event
		side := 0
		for _, x := range r.Records() {
			e := x.Event
			if p, err := e.Payload(); err == nil && side < 2 {
				if d, ok := p.(*events.RollMade); ok && d.Rules == ryf.RulesV1 && (d.Kind == "attribute" || d.Kind == "skill") {
					change(d, side)
					side++
					e.Data = mustJSON(t, d)
				} else if side == 1 {
					side = 0 // not a contest's second side: start again
				}
			}
			evs = append(evs, e)
		}
		require.Equal(t, 2, side)
		return rechain(t, evs)
	}
	for _, tt := range []struct {
		name string
		evs  []events.Event
		what string
	}{
		{"sides of two versions", sides(func(d *events.RollMade, side int) {
			if side == 1 {
				d.Rules = ryf.RulesV2
			}
		}), "different rules"},
		{"ryf/2 sides not flagged", sides(func(d *events.RollMade, _ int) { d.Rules = ryf.RulesV2 }), "not flagged opposed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := replay.Verify(context.Background(), replay.Events(tt.evs...), replay.Options{})
			require.NoError(t, err)
			found := false
			for _, s := range rep.Sessions {
				for _, m := range s.Mismatches {
					found = found || (m.Kind == replay.MismatchInputs && strings.Contains(m.What, tt.what))
				}
			}
			require.True(t, found, reportText(t, rep))
		})
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
