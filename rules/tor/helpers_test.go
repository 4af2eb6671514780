package tor_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/tor"
)

// lodin is the seed text's example character: Atletismo 3, Cuerpo 4
// (favoured 6).
func lodin() tor.Character {
	return tor.Character{
		Name:    "Lodin",
		Culture: "Enanos de las Montañas Azules",
		Attributes: tor.Attributes{
			Cuerpo:  tor.Score{Basic: 4, Favoured: 6},
			Corazon: tor.Score{Basic: 5, Favoured: 7},
			Mente:   tor.Score{Basic: 3, Favoured: 5},
		},
		Skills: tor.Ratings{
			"Atletismo": {Rank: 3},
			"Saber":     {Rank: 2, Favoured: true},
			"Guerrear":  {Rank: 1},
		},
		Hope:    8,
		MaxHope: 12,
		Traits:  []string{"Navegar en bote", "Herrería", "Fiero"},
	}
}

// skill looks a skill up for test setup.
func skill(t *testing.T, name string) tor.Skill {
	t.Helper()
	s, err := tor.LookupSkill(name)
	require.NoError(t, err)
	return s
}

// roll judges exact faces (feat die first) for test setup.
func roll(t *testing.T, tn int, faces ...int) tor.Result {
	t.Helper()
	require.NotEmpty(t, faces)
	res, err := tor.Roll(dice.NewFaces(faces...), len(faces)-1, tn)
	require.NoError(t, err)
	return res
}
