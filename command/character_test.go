package command_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events/memstore"
)

// Character creation reports every problem at once, in one line, and
// records nothing: an unknown specialization or weapon, or a list that
// does not parse, hides none of the other violations.
func TestCreateCharacterReportsEverythingAtOnce(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	ctx := context.Background()
	_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"})
	require.NoError(t, err)
	_, err = j.CreateCampaign(ctx, command.CreateCampaign{ID: "arda", System: "tor"})
	require.NoError(t, err)
	before := count(t, store)
	for _, tt := range []struct {
		name     string
		campaign string
		req      command.CreateCharacter
		want     []string
	}{
		{"unknown specialization", "mordor", command.CreateCharacter{ID: "c", Player: "p", Attributes: "F=8,R=7,D=9,I=8,P=8",
			Skills: "Pelea=5,Sigilo=7", Specialization: "Bogus"},
			[]string{`specialization: unknown skill "Bogus"`, "skill_creation_max: Sigilo = 7", "attribute_plus_skill: Sigilo 7 + Destreza 9"}},
		{"unknown weapon", "mordor", command.CreateCharacter{ID: "c", Player: "p", Attributes: "F=8,R=7,D=9,I=8,P=8,F=3",
			Skills: "Pelea=6", Specialization: "Pelea", Weapons: []string{"Lanza", "Espada", "Arco"}},
			[]string{"given twice", "skill_creation_max: Pelea = 6", `weapon: unknown weapon "Lanza"`, `unknown weapon "Arco"`}},
		{"bad lists", "mordor", command.CreateCharacter{ID: "c", Player: "p", Attributes: "F=8;R=7;D:9;I=8;Q=8",
			Skills: "Pelea=5,Cocina=1,Sigilo=9", Specialization: "pelea"},
			[]string{`unknown attribute "Q"`, `unknown skill "Cocina"`, "Sigilo = 9"}},
		{"The One Ring", "arda", command.CreateCharacter{ID: "c", Player: "p", Attributes: "Cuerpo=3/5,Corazon=6/8,Mente=5",
			Skills: "Saber=9,Cocina=1", Specialization: "Saber"},
			[]string{"RyF options", "--attrs", `--skills`, "--hope"}},
		{"The One Ring: rules of parsed attributes too", "arda", command.CreateCharacter{ID: "c", Player: "p", Attributes: "Cuerpo=0/5,Corazon=6/4,Mente=5/7",
			Skills: "Bogus=1", MaxHope: 3},
			[]string{"attributes.cuerpo.basic", "attributes.corazon.favoured", "--skills"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := j.CreateCharacter(ctx, tt.campaign, tt.req)
			require.ErrorIs(t, err, command.ErrInvalid)
			for _, w := range tt.want {
				require.ErrorContains(t, err, w)
			}
			require.False(t, strings.Contains(err.Error(), "\n"), "one line: %s", err)
			require.Equal(t, before, count(t, store))
		})
	}
}

// A character's player is a user id: "Ana" is recorded as ana (the user a
// device logs in as), and a name that is no user id is refused, recording
// nothing.
func TestCharacterPlayerIsAUserID(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := newJournal(t, store)
	ctx := context.Background()
	_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"})
	require.NoError(t, err)
	ok := command.CreateCharacter{ID: "lodin", Player: " Ana ", Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Sigilo=3", Specialization: "Sigilo"}
	_, err = j.CreateCharacter(ctx, "mordor", ok)
	require.NoError(t, err)
	camp, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, "ana", camp.Characters["lodin"].Player)
	before := count(t, store)
	bad := ok
	bad.ID, bad.Player = "bilbo", "Ana María"
	_, err = j.CreateCharacter(ctx, "mordor", bad)
	require.ErrorIs(t, err, command.ErrInvalid)
	require.ErrorContains(t, err, "a player is a user id")
	require.Equal(t, before, count(t, store))
}
