package ryf_test

import (
	"testing"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// BenchmarkSkillRoll makes one 1o3d10 skill roll per iteration from a fresh
// journal-dice-v1 stream, as a session does (compare dice.BenchmarkStream3d10).
func BenchmarkSkillRoll(b *testing.B) {
	var seed dice.Seed
	for i := range seed {
		seed[i] = byte(i)
	}
	key := dice.NewKey(seed)
	check := ryf.Check{Kind: ryf.KindSkill, Attribute: ryf.Percepcion, AttributeValue: 8, Skill: "Buscar", Rank: 5,
		TokenSpent: true}.WithDifficulty(ryf.Dificil)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s := key.Stream("camp-1", "sess-1", uint64(i), "")
		if _, err := ryf.Roll(check, s); err != nil {
			b.Fatal(err)
		}
	}
}
