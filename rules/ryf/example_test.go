package ryf_test

import (
	"errors"
	"fmt"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// A skill roll with the text's exploding faces: (3,10,10) keeps 10 and rolls
// again, (3,4,7) keeps 4; the die part is 14.
func ExampleRoll() {
	rules, _ := ryf.New(ryf.Options{System: ryf.RyF})
	pc := ryf.Character{
		Attributes: map[ryf.Attr]int{ryf.Fuerza: 8, ryf.Resistencia: 7, ryf.Destreza: 9, ryf.Inteligencia: 8, ryf.Percepcion: 8},
		Skills:     map[string]int{"Buscar": 4},
	}
	check, _ := rules.SkillCheck(pc, "buscar", "") // Percepción + Buscar
	difficulty, _ := ryf.ParseDifficulty("difícil")
	check = check.WithDifficulty(difficulty)

	res, err := ryf.Roll(check, dice.NewFaces(3, 10, 10, 3, 4, 7))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("level:", res.Level, res.LevelReasons)
	fmt.Println("faces:", res.Faces(), "kept:", res.Kept())
	fmt.Println("total:", res.Base, "+", res.DiePart, "=", res.Total, "vs", difficulty, "→", res.Outcome)
	// Output:
	// level: mid [base mid]
	// faces: [3 10 10 3 4 7] kept: [10 4]
	// total: 12 + 14 = 26 vs 20 → success
}

// The level of a roll and why: the wounded character of the text (HP 7)
// spends its token.
func ExampleComputeLevel() {
	level, reasons := ryf.ComputeLevel(ryf.LevelInput{
		TokenSpent:    true,
		Incapacitated: ryf.StatusOf(7) == ryf.StatusIncapacitated,
	})
	fmt.Println(level)
	for _, r := range reasons {
		fmt.Println(r)
	}
	fmt.Println(ryf.Low.Keep([3]int{3, 5, 6}), level.Keep([3]int{3, 5, 6}))
	// Output:
	// mid
	// base mid
	// +1 level: token spent
	// -1 level: incapacitated (HP 10 or less)
	// 3 5
}

// Skills are found without accents, in any case and by unique prefix.
func ExampleRules_LookupSkill() {
	rules, _ := ryf.New(ryf.Options{System: ryf.Galaxia})
	for _, name := range []string{"advertir", "INGENIERIA", "armas de e", "armas a"} {
		s, err := rules.LookupSkill(name)
		if err != nil {
			fmt.Println(err, errors.Is(err, ryf.ErrAmbiguous))
			continue
		}
		fmt.Printf("%s (%s)\n", s.Name, s.Attr)
	}
	// Output:
	// Advertir/Notar (P)
	// Ingeniería de motores (I)
	// Armas de energía (F)
	// ambiguous skill "armas a": could be Armas a distancia, Armas a fuego livianas true
}

// Character creation reports every broken rule at once.
func ExampleRules_ValidateCharacter() {
	rules, _ := ryf.New(ryf.Options{System: ryf.RyF})
	attrs, _ := rules.ParseAttributes("F=10,R=9,D=9,I=8,P=8")
	skills, _ := rules.ParseSkills("Pelea=6,Sigilo=3")
	err := rules.ValidateCharacter(ryf.Character{Attributes: attrs, Skills: skills})

	var invalid *ryf.InvalidCharacterError
	if errors.As(err, &invalid) {
		for _, v := range invalid.Violations {
			fmt.Println(v)
		}
	}
	fmt.Println(errors.Is(err, ryf.ErrInvalidCharacter))
	// Output:
	// skill_creation_max: Pelea = 6, at most 5 at creation
	// attribute_plus_skill: Pelea 6 + Fuerza 10 = 16, at most 15 at creation
	// attribute_budget: attributes sum to 44, budget 40
	// specialization: missing: choose exactly one skill
	// true
}

// Damage dice explode on their maximum, each die before the next: the
// text's mandoble 3+6+6+1 = 16, and a critical sword blow of 6 doubled.
func ExampleRollDamage() {
	mandoble, _ := ryf.ParseDamage("2d6")
	dmg, _ := ryf.RollDamage(mandoble, false, dice.NewFaces(3, 6, 6, 1))
	fmt.Println(dmg.Chains, dmg.Total)

	rules, _ := ryf.New(ryf.Options{System: ryf.RyF})
	sword, _ := rules.LookupWeapon("espada")
	dmg, _ = ryf.RollDamage(sword.Damage, true, dice.NewFaces(6))
	fmt.Println(sword.Damage, dmg.Total)

	dmg, _ = ryf.RollDamage(ryf.Unarmed().Damage, false, dice.NewFaces(1))
	fmt.Println(ryf.Unarmed().Damage, dmg.Raw, dmg.Total)
	// Output:
	// [[3] [6 6 1]] 16
	// 1d10 12
	// 1d6-2 -1 0
}

// A melee attack against Defense, and an opposed roll.
func ExampleContest() {
	rules, _ := ryf.New(ryf.Options{System: ryf.RyF, HardDefense: true})
	fred := ryf.Character{
		Attributes: map[ryf.Attr]int{ryf.Fuerza: 5, ryf.Resistencia: 8, ryf.Destreza: 8, ryf.Inteligencia: 8, ryf.Percepcion: 8},
		Skills:     map[string]int{"Armas cuerpo a cuerpo": 6, "Sigilo": 4, "Pelea": 2},
	}
	axe, _ := rules.LookupWeapon("hacha")
	defense := rules.Defense(fred, false) // D 8 + Pelea 2 + 6
	attack, _ := rules.MeleeCheck(fred, axe, defense)
	res, _ := ryf.Roll(attack, dice.NewFaces(9, 2, 6))
	fmt.Println(attack.Terms(), "vs", defense, "→", res.Total, res.Outcome)

	sneak, _ := rules.SkillCheck(fred, "sigilo", "")
	notice, _ := rules.SkillCheck(fred, "notar", "")
	a, _ := ryf.Roll(sneak, dice.NewFaces(5, 7, 2))
	b, _ := ryf.Roll(notice, dice.NewFaces(1, 1, 9))
	fmt.Println(a.Total, b.Total, b.Outcome, ryf.Contest(a, b).Winner)
	// Output:
	// [{Fuerza 5} {Armas cuerpo a cuerpo 6} {precisión Hacha -1}] vs 16 → 16 success
	// 17 9 natural1 1
}

// Healing after a combat is capped at the damage taken in it.
func ExampleAfterCombatHealing() {
	h, _ := ryf.AfterCombatHealing(20, 32, 3, dice.NewFaces(5))
	fmt.Println(h.Face, h.Healed, ryf.RestHealing(31, 32, true))
	// Output:
	// 5 3 1
}

// Raising a skill costs the new rank in XP.
func ExampleRaise() {
	rank, xp, err := ryf.Raise(7, 10)
	fmt.Println(rank, xp, err)
	_, _, err = ryf.Raise(7, 5)
	fmt.Println(err)
	// Output:
	// 8 2 <nil>
	// not enough xp: rank 8 costs 8 xp, have 5
}
