package command_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// attackRequest seals a roll.request for an attack.
func (d device) attackRequest(t testing.TB, session, id string, r [32]byte, a command.AttackAction) command.RollRequestSigned {
	t.Helper()
	a.Command, a.SeedCommitment = command.CommandAttack, commitmentOf[session]
	b, err := json.Marshal(a)
	require.NoError(t, err)
	c, err := dice.ParseHex32(dice.RevealCommitment(r))
	require.NoError(t, err)
	m := d.seal(t, &signed.Request{Header: signed.Header{Campaign: "mordor", Session: session}, Request: id, Commitment: c, Action: b})
	return command.RollRequestSigned{Character: a.Character, SignedMessage: m}
}

// setupV2Combat is setupV2 with a combat of lodin (ana's) and ruisenor
// (bea's) started in the v1 session (initiative is not wired in v2 yet)
// and bea's key registered.
func setupV2Combat(t *testing.T) (*command.Handler, command.Store, map[string]device) {
	t.Helper()
	ctx := context.Background()
	j, st := openJournal(t, t.TempDir())
	setup(t, j)
	_, err := j.StartCombat(ctx, "mordor", []string{"lodin", "ruisenor"}, "")
	require.NoError(t, err)
	_, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	devs := map[string]device{"lodin": newDevice("ana", 1), "ruisenor": newDevice("bea", 3)}
	gm := newDevice("gm", 2)
	_, err = j.RegisterKey(ctx, "mordor", gm.reg("mordor", command.RoleGM))
	require.NoError(t, err)
	for _, d := range devs {
		_, err = j.MustFor(command.Call{Actor: d.user}).RegisterKey(ctx, "mordor", d.reg("mordor", command.RolePlayer))
		require.NoError(t, err)
	}
	res, err := j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2})
	require.NoError(t, err)
	var started events.SessionStarted
	require.NoError(t, res.Events[0].Event.DecodeData(&started))
	commitmentOf = map[string]string{"s2": started.Commitment}
	_, err = j.MustFor(command.Call{Actor: "ana"}).Contribute(ctx, "mordor", devs["lodin"].contribute(t, j, "s2", 0xaa))
	require.NoError(t, err)
	return j, st, devs
}

// TestV2AttackWithDamage: an attack is one signed request taking two
// nonces, then one reveal drawing the attack from the first and, on a hit,
// the damage from the second with the same r, with v1's consequences.
// It attacks round after round until it has seen a hit and a miss.
func TestV2AttackWithDamage(t *testing.T) {
	ctx := context.Background()
	j, _, devs := setupV2Combat(t)
	weapon := map[string]string{"lodin": "Espada", "ruisenor": "Puños"}
	other := map[string]string{"lodin": "ruisenor", "ruisenor": "lodin"}
	type made struct {
		r     [32]byte
		rolls []events.RollMade
	}
	var all []made
	var nonce uint64
	hits, misses := 0, 0
	for round := 0; round < 60 && (hits == 0 || misses == 0); round++ {
		camp, err := j.Load(ctx, "mordor", 0)
		require.NoError(t, err)
		for _, who := range camp.Combat.Order {
			dev, target := devs[who], other[who]
			id, r := uuid.NewString(), secret(byte(len(all)))
			res, err := j.MustFor(command.Call{Actor: dev.user}).RequestRoll(ctx, "mordor", dev.attackRequest(t, "s2", id, r,
				command.AttackAction{Character: who, Target: target, Weapon: weapon[who], Modifier: missing(round)}))
			require.NoError(t, err)
			var req events.RollRequested
			require.NoError(t, res.Events[0].Event.DecodeData(&req))
			require.Equal(t, []int{int(nonce), int(nonce) + 1}, req.Nonces, "an attack takes two nonces")
			require.Equal(t, "melee", req.Kind)
			require.Equal(t, target, req.Target)

			res, err = j.MustFor(command.Call{Actor: dev.user}).RevealRoll(ctx, "mordor", command.RollRevealSigned{Character: who,
				SignedMessage: dev.seal(t, &signed.Reveal{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: id, R: r})})
			require.NoError(t, err)
			m := made{r: r}
			var out events.AttackResolved
			var taken *events.DamageTaken
			for _, rec := range res.Events {
				switch rec.Event.Type {
				case events.TypeRollMade:
					var e events.RollMade
					require.NoError(t, rec.Event.DecodeData(&e))
					require.Equal(t, id, e.Request)
					m.rolls = append(m.rolls, e)
				case events.TypeAttackResolved:
					require.NoError(t, rec.Event.DecodeData(&out))
				case events.TypeDamageTaken:
					taken = &events.DamageTaken{}
					require.NoError(t, rec.Event.DecodeData(taken))
				}
			}
			require.Equal(t, nonce, m.rolls[0].Nonce)
			if out.Hit {
				hits++
				require.Len(t, m.rolls, 2, "a hit rolls its damage")
				require.Equal(t, "damage", m.rolls[1].Kind)
				require.Equal(t, nonce+1, m.rolls[1].Nonce, "the damage takes the second nonce")
				require.Equal(t, out.Damage, m.rolls[1].Total)
				if out.Damage > 0 {
					require.NotNil(t, taken)
					require.Equal(t, events.DamageTaken{Character: target, Amount: out.Damage, Source: who}, *taken)
					_, err = j.Heal(ctx, "mordor", target, out.Damage) // keep both standing
					require.NoError(t, err)
				}
			} else {
				misses++
				require.Len(t, m.rolls, 1, "a miss rolls no damage")
				require.Nil(t, taken)
			}
			all = append(all, m)
			nonce += 2 // a miss consumes the damage's nonce too
		}
		_, err = j.NextRound(ctx, "mordor")
		require.NoError(t, err)
	}
	require.Positive(t, hits)
	require.Positive(t, misses)

	// Every face is StreamV2's: K with the contribution, the roll's nonce, r.
	seed := seedOf(t, j, nil, "s2")
	var aa [32]byte
	for i := range aa {
		aa[i] = 0xaa
	}
	k := dice.SessionKey(seed, "mordor", "s2", [][32]byte{aa})
	for _, m := range all {
		for _, e := range m.rolls {
			s := dice.StreamV2(k, "mordor", "s2", e.Nonce, m.r)
			var want []int
			for _, n := range e.Draws {
				f, err := s.Roll(n)
				require.NoError(t, err)
				want = append(want, f)
			}
			require.Equal(t, want, e.Faces, "nonce %d", e.Nonce)
		}
	}
}

// TestV2AttackRefusals: each refusal is one clear error and records nothing.
func TestV2AttackRefusals(t *testing.T) {
	ctx := context.Background()
	j, st, devs := setupV2Combat(t)
	camp, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	first := camp.Combat.Order[0]
	second := camp.Combat.Order[1]
	weapon := map[string]string{"lodin": "Espada", "ruisenor": "Puños"}
	ask := func(who string, a command.AttackAction) error {
		a.Character = who
		_, err := j.MustFor(command.Call{Actor: devs[who].user}).RequestRoll(ctx, "mordor", devs[who].attackRequest(t, "s2", uuid.NewString(), secret(7), a))
		return err
	}
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"out of turn", func() error { return ask(second, command.AttackAction{Target: first, Weapon: weapon[second]}) }, "turn"},
		{"no weapon named", func() error { return ask(first, command.AttackAction{Target: second}) }, "names its weapon"},
		{"a weapon not spelt as the rules do", func() error {
			return ask(first, command.AttackAction{Target: second, Weapon: "pelea"})
		}, "name it as the rules do"},
		{"no target", func() error { return ask(first, command.AttackAction{Weapon: weapon[first]}) }, "names its target"},
		{"a range for a melee weapon", func() error {
			return ask(first, command.AttackAction{Target: second, Weapon: weapon[first], Range: "corta"})
		}, "melee weapon"},
		{"an unknown field in the action", func() error {
			a := []byte(`{"command":"attack","seed_commitment":"` + commitmentOf["s2"] + `","character":"` + first + `","target":"` + second + `","weapon":"` + weapon[first] + `","range":"","cover":false,"modifier":0,"token":false,"specialization":false,"damage":99}`)
			c, _ := dice.ParseHex32(dice.RevealCommitment(secret(7)))
			m := devs[first].seal(t, &signed.Request{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: uuid.NewString(), Commitment: c, Action: a})
			_, err := j.MustFor(command.Call{Actor: devs[first].user}).RequestRoll(ctx, "mordor", command.RollRequestSigned{Character: first, SignedMessage: m})
			return err
		}, "unknown field"},
		{"the v1 attack in a v2 session", func() error {
			_, err := j.Attack(ctx, "mordor", command.AttackRequest{Attacker: first, Target: second, Weapon: weapon[first]})
			return err
		}, "not available in a journal-dice-v2 session"},
	}
	before := count(t, st)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			require.ErrorIs(t, err, command.ErrInvalid)
			require.ErrorContains(t, err, tt.want)
			require.Equal(t, before, count(t, st), "nothing recorded")
		})
	}
	// A second attack request while the first is pending.
	require.NoError(t, ask(first, command.AttackAction{Target: second, Weapon: weapon[first]}))
	require.ErrorContains(t, ask(first, command.AttackAction{Target: second, Weapon: weapon[first]}), "already has an attack request pending")
}

// missing is the modifier of the attacks of round i: every other round at -40, so
// that a miss comes at once (but for an explosion), the others plain.
func missing(i int) int {
	if i%2 == 1 {
		return -40
	}
	return 0
}
