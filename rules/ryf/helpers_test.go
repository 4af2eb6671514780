package ryf_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/ryf"
)

func newRules(t testing.TB, opts ryf.Options) *ryf.Rules {
	t.Helper()
	r, err := ryf.New(opts)
	require.NoError(t, err)
	return r
}

func ryfRules(t testing.TB) *ryf.Rules {
	t.Helper()
	return newRules(t, ryf.Options{System: ryf.RyF})
}

func galaxiaRules(t testing.TB) *ryf.Rules {
	t.Helper()
	return newRules(t, ryf.Options{System: ryf.Galaxia})
}

// skillCheck is a plain skill check: attribute av + rank.
func skillCheck(av, rank int) ryf.Check {
	return ryf.Check{Kind: ryf.KindSkill, Attribute: ryf.Percepcion, AttributeValue: av, Skill: "Buscar", Rank: rank}
}

func intsEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
