package command_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// pathRequest seals a roll.request for any action (its seed commitment
// filled in) for acting.
func (d device) pathRequest(t testing.TB, id string, r [32]byte, acting string, action any) command.RollRequestSigned {
	t.Helper()
	b, err := json.Marshal(action)
	require.NoError(t, err)
	c, err := dice.ParseHex32(dice.RevealCommitment(r))
	require.NoError(t, err)
	m := d.seal(t, &signed.Request{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: id, Commitment: c, Action: b})
	return command.RollRequestSigned{Character: acting, SignedMessage: m}
}

func (d device) pathReveal(t testing.TB, id string, r [32]byte, acting string) command.RollRevealSigned {
	return command.RollRevealSigned{Character: acting,
		SignedMessage: d.seal(t, &signed.Reveal{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: id, R: r})}
}

// setupV2Paths is setupV2 with bea's key registered and both players'
// contributions: ana plays lodin, bea ruisenor, orco is the GM's NPC.
func setupV2Paths(t *testing.T) (*command.Handler, command.Store, map[string]device) {
	t.Helper()
	ctx := context.Background()
	j, st, ana, _ := setupV2(t)
	bea := newDevice("bea", 3)
	_, err := j.MustFor(command.Call{Actor: "bea"}).RegisterKey(ctx, "mordor", bea.reg("mordor", command.RolePlayer))
	require.NoError(t, err)
	_, err = j.MustFor(command.Call{Actor: "ana"}).Contribute(ctx, "mordor", ana.contribute(t, j, "s2", 0xaa))
	require.NoError(t, err)
	return j, st, map[string]device{"ana": ana, "bea": bea}
}

// decoded returns the events of res by type, decoded.
func madeOf(t *testing.T, res command.Result) (rolls []events.RollMade, others map[string]events.Recorded) {
	t.Helper()
	others = map[string]events.Recorded{}
	for _, rec := range res.Events {
		if rec.Event.Type == events.TypeRollMade {
			var e events.RollMade
			require.NoError(t, rec.Event.DecodeData(&e))
			rolls = append(rolls, e)
			continue
		}
		others[rec.Event.Type] = rec
	}
	return rolls, others
}

// checkFaces re-derives every roll's faces from K (the seed, ana's
// contribution), the roll's nonce and r.
func checkFaces(t *testing.T, seed dice.Seed, r [32]byte, rolls []events.RollMade) {
	t.Helper()
	var aa [32]byte
	for i := range aa {
		aa[i] = 0xaa
	}
	k := dice.SessionKey(seed, "mordor", "s2", [][32]byte{aa})
	for _, e := range rolls {
		s := dice.StreamV2(k, "mordor", "s2", e.Nonce, r)
		var want []int
		for _, n := range e.Draws {
			f, err := s.Roll(n)
			require.NoError(t, err)
			want = append(want, f)
		}
		require.Equal(t, want, e.Faces, "roll of %s, nonce %d", e.Character, e.Nonce)
		require.Equal(t, signed.Hex32(r).String(), e.Reveal)
	}
}

// TestV2Contest: a contest is one signed request taking two nonces (side
// A's, side B's), then one reveal drawing both rolls with the same r and
// recording the verdict, as a player of either side; a tie may be re-rolled
// once, a non-tie never.
func TestV2Contest(t *testing.T) {
	ctx := context.Background()
	j, _, devs := setupV2Paths(t)
	var all []events.RollMade
	var rs [][32]byte
	tie, won := "", ""
	var nonce uint64
	// Attribute sides of equal base (Percepción 8 each: 16), so that a tie
	// comes soon; bea requests every other one, acting for her side.
	for i := 0; i < 200 && (tie == "" || won == ""); i++ {
		who, acting := "ana", "lodin"
		if i%2 == 1 {
			who, acting = "bea", "ruisenor"
		}
		dev := devs[who]
		id, r := uuid.NewString(), secret(byte(i))
		act := command.ContestAction{Command: "contest", SeedCommitment: commitmentOf["s2"],
			A: command.ContestSideAction{Character: "lodin", Attribute: "P"},
			B: command.ContestSideAction{Character: "ruisenor", Attribute: "P"}}
		res, err := j.MustFor(command.Call{Actor: who}).RequestRoll(ctx, "mordor", dev.pathRequest(t, id, r, acting, act))
		require.NoError(t, err)
		var req events.RollRequested
		require.NoError(t, res.Events[0].Event.DecodeData(&req))
		require.Equal(t, []int{int(nonce), int(nonce) + 1}, req.Nonces, "a contest takes two nonces")
		require.Equal(t, "contest", req.Kind)
		require.Equal(t, "ruisenor", req.B)

		res, err = j.MustFor(command.Call{Actor: who}).RevealRoll(ctx, "mordor", dev.pathReveal(t, id, r, acting))
		require.NoError(t, err)
		made, others := madeOf(t, res)
		require.Len(t, made, 2)
		require.Equal(t, []uint64{nonce, nonce + 1}, []uint64{made[0].Nonce, made[1].Nonce})
		require.Equal(t, []string{"lodin", "ruisenor"}, []string{made[0].Character, made[1].Character})
		require.True(t, made[0].Opposed && made[1].Opposed)
		var out events.ContestResolved
		require.NoError(t, others[events.TypeContestResolved].Event.DecodeData(&out))
		require.Equal(t, res.Events[0].Event.ID, out.RollA)
		require.Equal(t, res.Events[1].Event.ID, out.RollB)
		if out.Tie && tie == "" {
			tie = others[events.TypeContestResolved].Event.ID
		}
		if !out.Tie && won == "" {
			won = others[events.TypeContestResolved].Event.ID
		}
		switch {
		case made[0].Total > made[1].Total && !made[0].Natural1:
			require.Equal(t, "lodin", out.Winner)
		case made[1].Total > made[0].Total && !made[1].Natural1:
			require.Equal(t, "ruisenor", out.Winner)
		}
		all = append(all, made...)
		for range made {
			rs = append(rs, r)
		}
		nonce += 2
	}
	require.NotEmpty(t, tie, "no tie in 200 contests of equal sides")

	// A non-tie may not be re-rolled; a re-roll must use the same sides.
	rematch := func(id string, a, b command.ContestSideAction) error {
		act := command.ContestAction{Command: "contest", SeedCommitment: commitmentOf["s2"], A: a, B: b, Rematch: id}
		_, err := j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", devs["ana"].pathRequest(t, uuid.NewString(), secret(0xee), "lodin", act))
		return err
	}
	pA := command.ContestSideAction{Character: "lodin", Attribute: "P"}
	pB := command.ContestSideAction{Character: "ruisenor", Attribute: "P"}
	require.ErrorContains(t, rematch(won, pA, pB), "not a tie")
	require.ErrorContains(t, rematch(tie, command.ContestSideAction{Character: "lodin", Attribute: "D"}, pB), "same skills or attributes")

	id, r := uuid.NewString(), secret(0xf0)
	act := command.ContestAction{Command: "contest", SeedCommitment: commitmentOf["s2"], A: pA, B: pB, Rematch: tie}
	_, err := j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", devs["ana"].pathRequest(t, id, r, "lodin", act))
	require.NoError(t, err)
	require.ErrorContains(t, rematch(tie, pA, pB), "already re-rolls that tie")
	res, err := j.MustFor(command.Call{Actor: "ana"}).RevealRoll(ctx, "mordor", devs["ana"].pathReveal(t, id, r, "lodin"))
	require.NoError(t, err)
	made, others := madeOf(t, res)
	var out events.ContestResolved
	require.NoError(t, others[events.TypeContestResolved].Event.DecodeData(&out))
	require.Equal(t, tie, out.Rematch)
	require.ErrorContains(t, rematch(tie, pA, pB), "already re-rolled")
	all = append(all, made...)
	rs = append(rs, r, r)

	seed := seedOf(t, j, nil, "s2")
	for i := range all {
		checkFaces(t, seed, rs[i], all[i:i+1])
	}
}

// TestV2PathRefusals: every refusal of the new paths is one clear error
// and records nothing.
func TestV2PathRefusals(t *testing.T) {
	ctx := context.Background()
	j, st, devs := setupV2Paths(t)
	ana := devs["ana"]
	sc := commitmentOf["s2"]
	side := func(ch, skill, attr string) command.ContestSideAction {
		return command.ContestSideAction{Character: ch, Skill: skill, Attribute: attr}
	}
	contest := func(a, b command.ContestSideAction) command.ContestAction {
		return command.ContestAction{Command: "contest", SeedCommitment: sc, A: a, B: b}
	}
	tokenB := contest(side("lodin", "Sigilo", ""), side("ruisenor", "Advertir/Notar", ""))
	tokenB.B.Token = true
	tests := []struct {
		name   string
		acting string
		action any
		want   string
	}{
		{"a contest of two others", "lodin", contest(side("ruisenor", "Advertir/Notar", ""), side("orco", "Pelea", "")), "between ruisenor and orco"},
		{"a contest with oneself", "lodin", contest(side("lodin", "Sigilo", ""), side("lodin", "Pelea", "")), "two different characters"},
		{"a skill by prefix", "lodin", contest(side("lodin", "sig", ""), side("orco", "Pelea", "")), "name it as the rules do"},
		{"an attribute by name", "lodin", contest(side("lodin", "", "percepcion"), side("orco", "Pelea", "")), "by its letter"},
		{"a side naming nothing", "lodin", contest(side("lodin", "", ""), side("orco", "Pelea", "")), ""},
		{"the other side's token", "lodin", tokenB, "its player's to spend"},
		{"a rematch of no contest", "lodin", command.ContestAction{Command: "contest", SeedCommitment: sc, A: side("lodin", "Sigilo", ""), B: side("orco", "Pelea", ""), Rematch: "0191b4a0-0000-7000-8000-000000000000"}, "no contest"},
		{"an unknown member", "lodin", map[string]any{"command": "contest", "seed_commitment": sc, "a": side("lodin", "Sigilo", ""), "b": side("orco", "Pelea", ""), "rematch": "", "winner": "lodin"}, "unknown field"},
		{"another seed", "lodin", command.ContestAction{Command: "contest", SeedCommitment: "00", A: side("lodin", "Sigilo", ""), B: side("orco", "Pelea", "")}, "seed commitment"},
		{"a combat start not naming the acting character", "lodin", command.InitiativeAction{Command: "combat-start", SeedCommitment: sc, Participants: []string{"ruisenor", "orco"}, Token: []string{}}, "not a participant"},
		{"a combat start of one", "lodin", command.InitiativeAction{Command: "combat-start", SeedCommitment: sc, Participants: []string{"lodin"}, Token: []string{}}, "at least two"},
		{"a combat start without its token list", "lodin", map[string]any{"command": "combat-start", "seed_commitment": sc, "participants": []string{"lodin", "orco"}}, `no member "token"`},
		{"a contest without its rematch member", "lodin", map[string]any{"command": "contest", "seed_commitment": sc, "a": side("lodin", "Sigilo", ""), "b": side("orco", "Pelea", "")}, `no member "rematch"`},
		{"a contest side without its modifier", "lodin", map[string]any{"command": "contest", "seed_commitment": sc, "a": side("lodin", "Sigilo", ""),
			"b": map[string]any{"character": "orco", "skill": "Pelea", "attribute": "", "token": false, "specialization": false}, "rematch": ""}, `action.b: no member "modifier"`},
		{"a healing without its character", "lodin", map[string]any{"command": "heal-after-combat", "seed_commitment": sc}, `no member "character"`},
		{"another's token at the initiative", "lodin", command.InitiativeAction{Command: "combat-start", SeedCommitment: sc, Participants: []string{"lodin", "ruisenor"}, Token: []string{"ruisenor"}}, "its player's to spend"},
		{"an NPC's token", "lodin", command.InitiativeAction{Command: "combat-start", SeedCommitment: sc, Participants: []string{"lodin", "orco"}, Token: []string{"orco"}}, ""},
		{"a healing with no combat before", "lodin", command.HealAction{Command: "heal-after-combat", SeedCommitment: sc, Character: "lodin"}, "no combat"},
		{"a healing for another", "lodin", command.HealAction{Command: "heal-after-combat", SeedCommitment: sc, Character: "ruisenor"}, "the signed action for ruisenor"},
	}
	before := count(t, st)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", ana.pathRequest(t, uuid.NewString(), secret(1), tc.acting, tc.action))
			require.True(t, errors.Is(err, command.ErrInvalid) || errors.Is(err, command.ErrNotFound), "%v", err)
			require.ErrorContains(t, err, tc.want)
			require.Equal(t, before, count(t, st), "a refused request records nothing")
		})
	}
	// The v1 commands draw nothing in a v2 session.
	_, err := j.Contest(ctx, "mordor", command.ContestRequest{A: "lodin", SkillA: "Sigilo", B: "orco", SkillB: "Pelea"})
	require.ErrorIs(t, err, command.ErrV2NotWired)
	_, err = j.StartCombat(ctx, "mordor", []string{"lodin", "orco"}, "")
	require.ErrorIs(t, err, command.ErrV2NotWired)
	require.Equal(t, before, count(t, st))
}

// TestV2InitiativeAndHealing: a combat start is one request taking a
// nonce per participant and one reveal rolling every initiative and
// starting the combat in the rules' order; after it, each participant's
// healing is a request and a reveal, once per combat.
func TestV2InitiativeAndHealing(t *testing.T) {
	ctx := context.Background()
	j, st, devs := setupV2Paths(t)
	ana := devs["ana"]
	id, r := uuid.NewString(), secret(0x30)
	act := command.InitiativeAction{Command: "combat-start", SeedCommitment: commitmentOf["s2"],
		Participants: []string{"lodin", "ruisenor", "orco"}, Token: []string{"lodin"}}
	res, err := j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", ana.pathRequest(t, id, r, "lodin", act))
	require.NoError(t, err)
	var req events.RollRequested
	require.NoError(t, res.Events[0].Event.DecodeData(&req))
	require.Equal(t, []int{0, 1, 2}, req.Nonces, "one nonce per participant")
	require.Equal(t, []string{"lodin"}, req.Tokens)
	_, err = j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", ana.pathRequest(t, uuid.NewString(), secret(2), "lodin", act))
	require.ErrorContains(t, err, "already requested")

	res, err = j.MustFor(command.Call{Actor: "ana"}).RevealRoll(ctx, "mordor", ana.pathReveal(t, id, r, "lodin"))
	require.NoError(t, err)
	made, others := madeOf(t, res)
	require.Len(t, made, 3)
	var rolls []events.RollMade
	totals := map[string]int{}
	for i, e := range made {
		require.Equal(t, uint64(i), e.Nonce)
		require.Equal(t, "initiative", e.Kind)
		require.Equal(t, e.Character == "lodin", e.Token)
		totals[e.Character] = e.Total
	}
	rolls = append(rolls, made...)
	var started events.CombatStarted
	require.NoError(t, others[events.TypeCombatStarted].Event.DecodeData(&started))
	require.Equal(t, totals, started.Totals)
	require.Len(t, started.Order, 3)
	for i := 1; i < 3; i++ {
		require.GreaterOrEqual(t, totals[started.Order[i-1]], totals[started.Order[i]], "highest first")
	}
	camp, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, started.Order, camp.Combat.Order)

	// Some damage, the end of the combat, then lodin's healing.
	_, err = j.Damage(ctx, "mordor", "lodin", 5, "orco")
	require.NoError(t, err)
	_, err = j.EndCombat(ctx, "mordor")
	require.NoError(t, err)
	heal := command.HealAction{Command: "heal-after-combat", SeedCommitment: commitmentOf["s2"], Character: "lodin"}
	hid, hr := uuid.NewString(), secret(0x50)
	res, err = j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", ana.pathRequest(t, hid, hr, "lodin", heal))
	require.NoError(t, err)
	req = events.RollRequested{}
	require.NoError(t, res.Events[0].Event.DecodeData(&req))
	require.Equal(t, uint64(3), req.Nonce)
	require.Empty(t, req.Nonces)
	_, err = j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", ana.pathRequest(t, uuid.NewString(), secret(3), "lodin", heal))
	require.ErrorContains(t, err, "already has a healing request pending")
	_, err = j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", ana.pathRequest(t, uuid.NewString(), secret(5), "lodin",
		command.InitiativeAction{Command: "combat-start", SeedCommitment: commitmentOf["s2"], Participants: []string{"lodin", "orco"}, Token: []string{}}))
	require.ErrorContains(t, err, "healing after the last combat is pending")
	res, err = j.MustFor(command.Call{Actor: "ana"}).RevealRoll(ctx, "mordor", ana.pathReveal(t, hid, hr, "lodin"))
	require.NoError(t, err)
	made, others = madeOf(t, res)
	require.Len(t, made, 1)
	require.Equal(t, "heal", made[0].Kind)
	require.Equal(t, []int{6}, made[0].Draws)
	var healed events.Healed
	require.NoError(t, others[events.TypeHealed].Event.DecodeData(&healed))
	require.Equal(t, min(made[0].Total, 5), healed.Amount, "at most the damage taken")
	before := count(t, st)
	_, err = j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", ana.pathRequest(t, uuid.NewString(), secret(4), "lodin", heal))
	require.ErrorContains(t, err, "once per combat")
	require.Equal(t, before, count(t, st))

	seed := seedOf(t, j, nil, "s2")
	checkFaces(t, seed, r, rolls)
	checkFaces(t, seed, hr, made)
}
