// Package ryf holds the rules of RyF ("Rápido y Fácil", system id "ryf") and
// of its science-fiction setting Galaxia (system id "galaxia"), as read in
// docs/rules.md §1: attributes and skills, character creation, the 1o3d10 roll and
// its levels, opposed rolls, combat, damage, wounds, healing and experience.
//
// A campaign's rules are a *Rules built by New from Options (system,
// optional rules, extra skills and weapons). Rolls are described by a Check,
// usually built by Rules.SkillCheck, AttributeCheck, InitiativeCheck,
// MeleeCheck or RangedCheck from a Character, and made by Roll with a
// dice.Roller; the Result records every face, the kept die of every round,
// the level and why, the total and the outcome. Damage is rolled by RollDamage.
//
// Invariants:
//   - The package is pure: no I/O, no clock, no global or mutable package
//     state, no randomness of its own. Every die comes from the dice.Roller
//     passed in, so the same faces always give the same result.
//   - Draw order is a contract (docs/design.md §3): a 1o3d10 roll draws three d10
//     per round, rounds in order; damage draws its dice left to right, each
//     explosion immediately after its die. Result.Faces and DamageRoll.Faces
//     return the faces in that order.
//   - No input makes it panic or loop forever: bad input returns an error
//     wrapping one of the Err sentinels (checked with errors.Is), and
//     explosion chains are capped (ErrRunaway).
//   - Names stay in Spanish in data and output (skills, difficulties, range
//     bands); lookups accept input without accents, in any case, and by
//     unique prefix, an exact match winning over prefixes.
//   - Character skills are keyed by canonical skill names (as Rules.Skills
//     spells them); ParseSkills returns canonical names and
//     ValidateCharacter refuses any other.
//
// The rule decisions where the texts are vague are listed in DECISIONS.md.
package ryf
