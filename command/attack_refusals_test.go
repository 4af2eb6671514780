package command_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events/memstore"
)

// docs/rules.md, "Decisions where the rule texts are silent": a weapon the
// attacker does not carry is refused, naming the ones it carries; an
// unconscious target may be hit, and a dead one too. Refusals record
// nothing.
func TestAttackRefusesUncarriedWeapons(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	setup(t, j)
	ctx := context.Background()
	_, err := j.StartCombat(ctx, "mordor", []string{"lodin", "orco"}, "")
	require.NoError(t, err)
	_, err = j.Damage(ctx, "mordor", "orco", 16, "") // R 4: 16 HP, now 0: unconscious, its turn passes
	require.NoError(t, err)
	refused := func(req command.AttackRequest, want string) {
		t.Helper()
		before := count(t, store)
		_, err := j.Attack(ctx, "mordor", req)
		require.True(t, errors.Is(err, command.ErrInvalid), "err = %v", err)
		require.ErrorContains(t, err, want)
		require.Equal(t, before, count(t, store), "a refusal records nothing")
	}
	refused(command.AttackRequest{Attacker: "lodin", Target: "orco", Weapon: "hacha"}, "Lodin does not carry Hacha; it carries Espada (or unarmed: Pelea)")
	_, err = j.Attack(ctx, "mordor", command.AttackRequest{Attacker: "lodin", Target: "orco", Weapon: "espada"})
	require.NoError(t, err, "an unconscious target may be attacked")
	_, err = j.Damage(ctx, "mordor", "orco", 40, "")
	require.NoError(t, err)
	_, err = j.NextRound(ctx, "mordor")
	require.NoError(t, err)
	refused(command.AttackRequest{Attacker: "lodin", Target: "orco", Weapon: "mandoble"}, "Lodin does not carry Mandoble")
	_, err = j.Attack(ctx, "mordor", command.AttackRequest{Attacker: "lodin", Target: "orco", Weapon: "pelea"})
	require.NoError(t, err, "a dead target may be attacked too (docs/rules.md)")
}
