package command_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
)

// A weapon defined without a skill takes the default the help promises:
// Armas cuerpo a cuerpo for a melee weapon, the system's ranged skill for
// a ranged one; the event records it, and characters can carry it.
func TestDefineWeaponDefaultSkill(t *testing.T) {
	j := newJournal(t, memstore.New(memstore.Options{}))
	ctx := context.Background()
	for i, tt := range []struct {
		system string
		w      events.WeaponDefined
		want   string
	}{
		{"ryf", events.WeaponDefined{Name: "Daga", Damage: "1d4"}, "Armas cuerpo a cuerpo"},
		{"ryf", events.WeaponDefined{Name: "Arco", Damage: "1d8", Short: 20, Medium: 50, Long: 100}, "Armas a distancia"},
		{"galaxia", events.WeaponDefined{Name: "Daga", Damage: "1d4"}, "Armas cuerpo a cuerpo"},
		{"galaxia", events.WeaponDefined{Name: "Bláster", Damage: "2d6", Short: 20, Medium: 50, Long: 100}, "Armas a fuego livianas"},
		{"ryf", events.WeaponDefined{Name: "Látigo", Damage: "1d4", Skill: "pelea"}, "Pelea"},
	} {
		t.Run(tt.system+"_"+tt.w.Name, func(t *testing.T) {
			camp := fmt.Sprintf("%s-%d", tt.system, i)
			_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: camp, System: tt.system})
			require.NoError(t, err)
			res, err := j.DefineWeapon(ctx, camp, tt.w)
			require.NoError(t, err)
			require.Equal(t, tt.want, payload[*events.WeaponDefined](t, res.Events[0]).Skill)
			_, err = j.CreateCharacter(ctx, camp, command.CreateCharacter{ID: "x", NPC: true, Attributes: "F=5,R=5,D=5,I=5,P=5", Weapons: []string{tt.w.Name}})
			require.NoError(t, err)
		})
	}
}

// A campaign skill may not be named like an attribute: a contest side
// reads an attribute's letter or name as the attribute.
func TestDefineSkillNotNamedLikeAnAttribute(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	ctx := context.Background()
	_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: "m", System: "ryf"})
	require.NoError(t, err)
	before := count(t, store)
	for _, name := range []string{"D", "fuerza", "Percepción", "percepcion"} {
		_, err := j.DefineSkill(ctx, "m", name, "I")
		require.ErrorIs(t, err, command.ErrInvalid, name)
		require.ErrorContains(t, err, "the name of the attribute")
	}
	require.Equal(t, before, count(t, store))
	_, err = j.DefineSkill(ctx, "m", "Fuerza de voluntad", "I")
	require.NoError(t, err)
	_, err = j.DefineSkill(ctx, "m", "Carisma", "P") // no carisma rule: no such attribute
	require.NoError(t, err)
}
