package odds_test

import (
	"testing"

	"github.com/campaign-journal/journal/rules/odds"
)

// BenchmarkRyFOdds runs the costliest queries: high level (the longest
// explosion tables, 243 totals) and a difficulty needing many explosions.
func BenchmarkRyFOdds(b *testing.B) {
	qs := []odds.RyFQuery{
		{Base: 12, Level: odds.Mid, Difficulty: 20, Kind: odds.Skill},
		{Base: 15, Level: odds.High, Difficulty: 30, Kind: odds.Combat},
		{Base: 0, Level: odds.High, Difficulty: 600, Kind: odds.Skill},
		{Base: 14, Level: odds.Low, Difficulty: 25, Kind: odds.Attribute},
	}
	for _, q := range qs {
		b.Run(q.Level.String()+"_"+q.Kind.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := odds.RyF(q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTOROdds runs the smallest and largest dice pools.
func BenchmarkTOROdds(b *testing.B) {
	for _, q := range []odds.TORQuery{{Dice: 3, TN: 14, HopeBonus: 3}, {Dice: 10, TN: 40, HopeBonus: 5}} {
		b.Run(string(rune('0'+q.Dice/10))+string(rune('0'+q.Dice%10))+"_dice", func(b *testing.B) {
			for b.Loop() {
				if _, err := odds.TOR(q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkChiSquare tests 10 kept faces.
func BenchmarkChiSquare(b *testing.B) {
	want, _ := odds.KeptProbs(odds.Mid)
	obs := []int{7, 14, 25, 24, 31, 27, 30, 20, 16, 6}
	for b.Loop() {
		if _, err := odds.ChiSquare(obs, want); err != nil {
			b.Fatal(err)
		}
	}
}
