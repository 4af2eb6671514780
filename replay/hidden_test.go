package replay_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
)

// secretSession records a v1 session with a free roll, three GM secret
// rolls (one revealed by the GM, two at the session's end) and returns
// its records.
func secretSession(t *testing.T) []events.Recorded {
	r := newRecorder(t, "mordor")
	ctx, j, c := r.Ctx, r.J, r.Campaign
	r.Do("campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "ryf"})
	})
	r.Do("lodin", func() (command.Result, error) {
		return j.CreateCharacter(ctx, c, command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "ana",
			Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Pelea"})
	})
	r.Do("start", func() (command.Result, error) { return j.StartSession(ctx, c, "s1", "") })
	r.Do("free", func() (command.Result, error) {
		return j.MustFor(command.Call{Actor: "ana"}).FreeRoll(ctx, c, command.FreeRollRequest{Character: "lodin", Dice: "2d10+3", Note: "trampa"})
	})
	first := r.Do("secret", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "media", Secret: true})
	})
	r.Do("secret free", func() (command.Result, error) {
		return j.FreeRoll(ctx, c, command.FreeRollRequest{Dice: "1d20", Secret: true})
	})
	r.Do("secret free", func() (command.Result, error) {
		return j.FreeRoll(ctx, c, command.FreeRollRequest{Dice: "3d6-2", Secret: true, Note: "emboscada"})
	})
	r.Do("reveal", func() (command.Result, error) { return j.Reveal(ctx, c, first.Events[0].Event.ID) })
	r.Do("end", func() (command.Result, error) { return j.EndSession(ctx, c) })
	return r.Records()
}

func verifyRecs(t *testing.T, recs []events.Recorded) replay.Report {
	t.Helper()
	rep, err := replay.Verify(t.Context(), replay.Records(recs), replay.Options{Now: time.Now()})
	require.NoError(t, err)
	require.Len(t, rep.Sessions, 1)
	return rep
}

// editData rewrites the data of the first event of type typ for which
// pick returns true.
func editData(t *testing.T, recs []events.Recorded, typ string, pick func(map[string]any) bool, edit func(map[string]any)) []events.Recorded {
	t.Helper()
	out := append([]events.Recorded(nil), recs...)
	for i, r := range out {
		if r.Event.Type != typ {
			continue
		}
		var d map[string]any
		require.NoError(t, json.Unmarshal(r.Event.Data, &d))
		if !pick(d) {
			continue
		}
		edit(d)
		b, err := json.Marshal(d)
		require.NoError(t, err)
		out[i].Event.Data = b
		return out
	}
	t.Fatalf("no %s event to edit", typ)
	return nil
}

func TestSecretRollsVerify(t *testing.T) {
	recs := secretSession(t)
	rep := verifyRecs(t, recs)
	require.True(t, rep.OK(), "%+v", rep.Sessions[0].Mismatches)
	sr := rep.Sessions[0]
	require.Equal(t, 4, sr.Rolls)
	require.Equal(t, 4, sr.Verified)
	require.Empty(t, sr.Flags)

	revealed := func(d map[string]any) bool { return d["hidden"] != nil }
	t.Run("faces changed in a reveal", func(t *testing.T) {
		bad := editData(t, recs, events.TypeRollMade, func(d map[string]any) bool { return revealed(d) && d["kind"] == "free" }, func(d map[string]any) {
			f := d["faces"].([]any)
			f[0] = float64(int(f[0].(float64))%20 + 1)
			d["total"] = d["total"].(float64) + 1
		})
		rep := verifyRecs(t, bad)
		require.False(t, rep.OK())
		require.Equal(t, replay.MismatchFaces, rep.Sessions[0].Mismatches[0].Kind)
	})
	t.Run("inputs chosen after the fact", func(t *testing.T) {
		bad := editData(t, recs, events.TypeRollMade, revealed, func(d map[string]any) { d["entropy"] = "other" })
		rep := verifyRecs(t, bad)
		require.False(t, rep.OK())
		require.Equal(t, replay.MismatchInputs, rep.Sessions[0].Mismatches[0].Kind)
		require.Contains(t, rep.Sessions[0].Mismatches[0].WhatIn(i18n.ES), "no es la tirada secreta")
	})
	t.Run("a reveal left out", func(t *testing.T) {
		var kept []events.Recorded
		dropped := false
		for _, r := range recs {
			if !dropped && r.Event.Type == events.TypeRollMade {
				var d events.RollMade
				require.NoError(t, r.Event.DecodeData(&d))
				if d.Hidden != "" && d.Kind == "free" {
					dropped = true
					continue
				}
			}
			kept = append(kept, r)
		}
		var evs []events.Event
		for _, r := range kept {
			evs = append(evs, r.Event)
		}
		rep, err := replay.Verify(t.Context(), replay.Events(rechain(t, evs)...), replay.Options{Now: time.Now()})
		require.NoError(t, err)
		require.True(t, rep.OK(), "%+v", rep.Sessions[0].Mismatches)
		var got []replay.FlagCode
		for _, f := range rep.Sessions[0].Flags {
			got = append(got, f.Code)
		}
		require.Equal(t, []replay.FlagCode{replay.FlagHiddenUnrevealed}, got)
		require.Contains(t, rep.Sessions[0].Flags[0].WhatIn(i18n.ES), "nunca se reveló")
	})
	t.Run("a reveal of nothing hidden", func(t *testing.T) {
		bad := editData(t, recs, events.TypeRollMade, revealed, func(d map[string]any) { d["hidden"] = "01a00000-0000-7000-8000-000000000000" })
		rep := verifyRecs(t, bad)
		require.False(t, rep.OK())
	})
}

func TestExplainFreeAndRevealedRolls(t *testing.T) {
	recs := secretSession(t)
	var seed *dice.Seed
	var started events.SessionStarted
	for _, r := range recs {
		switch r.Event.Type {
		case events.TypeSessionStarted:
			require.NoError(t, r.Event.DecodeData(&started))
		case events.TypeSessionEnded:
			var d events.SessionEnded
			require.NoError(t, r.Event.DecodeData(&d))
			s, err := dice.ParseSeed(d.Seed)
			require.NoError(t, err)
			seed = &s
		}
	}
	n := 0
	for _, r := range recs {
		if r.Event.Type != events.TypeRollMade {
			continue
		}
		x, err := replay.Explain(r.Event, &started, seed)
		require.NoError(t, err)
		require.True(t, x.Verified, "%s: %s", r.Event.ID, x.Verdict)
		var d events.RollMade
		require.NoError(t, r.Event.DecodeData(&d))
		if d.Kind == "free" {
			require.Contains(t, x.Rule, "free roll "+d.Dice)
			n++
		}
		if d.Hidden != "" {
			require.Contains(t, strings.Join(x.Steps, "\n"), d.Hidden)
		}
	}
	require.Equal(t, 3, n)
}

// A free roll and a secret free roll in a The One Ring campaign verify
// like the others (they are not The One Ring's rolls).
func TestFreeRollsTOR(t *testing.T) {
	r := newRecorder(t, "arda")
	ctx, j, c := r.Ctx, r.J, r.Campaign
	r.Do("campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "tor"})
	})
	r.Do("bilbo", func() (command.Result, error) {
		return j.CreateCharacter(ctx, c, command.CreateCharacter{ID: "bilbo", Name: "Bilbo", Player: "ana", Attributes: "Cuerpo=3/5,Corazón=6/8,Mente=5/7",
			Skills: "Atención=3*,Sigilo=3", MaxHope: 6, Culture: "Hobbits de la Comarca", Traits: []string{"Ladrón", "Ojo avizor"}})
	})
	r.Do("start", func() (command.Result, error) { return j.StartSession(ctx, c, "t1", "") })
	r.Do("free", func() (command.Result, error) {
		return j.MustFor(command.Call{Actor: "ana"}).FreeRoll(ctx, c, command.FreeRollRequest{Character: "bilbo", Dice: "1d12+2d6"})
	})
	r.Do("secret", func() (command.Result, error) {
		return j.FreeRoll(ctx, c, command.FreeRollRequest{Dice: "1d12", Secret: true})
	})
	_, err := j.Roll(ctx, c, command.RollRequest{Character: "bilbo", Skill: "Sigilo", Secret: true})
	require.ErrorIs(t, err, command.ErrInvalid)
	r.Do("end", func() (command.Result, error) { return j.EndSession(ctx, c) })
	rep := verifyRecs(t, r.Records())
	require.True(t, rep.OK(), "%+v", rep.Sessions[0].Mismatches)
	require.Equal(t, 2, rep.Sessions[0].Verified)
}
