// Package tor holds the rules of The One Ring (system id "tor") as the
// journal plays them (docs/rules.md §2): the character and its validation, the
// 18 common skills and their lookup, the roll of the feat die and success
// dice against a Target Number, Hope, the fellowship pool and its vote,
// Shadow and bouts of madness, Traits and advancement points, and the
// fellowship phase.
//
// Invariants:
//
//   - The package is pure game logic: no I/O, no clock, no global randomness.
//     Every rule that rolls takes a dice.Roller and draws, in this order, the
//     feat die (d12) and then the success dice (d6), one per rank; Result.Faces
//     returns the faces in that order, so a roll can be re-derived and
//     re-judged from its recorded faces (Judge).
//   - Functions never modify their arguments: a rule that changes a Character
//     returns a changed copy (maps and slices are copied).
//   - No input makes a function panic; bad input is an error that is or wraps
//     one of the package's sentinel errors (errors.Is), with a lower-case
//     message; a roller's own error is passed on wrapped.
//   - Rule names stay in Spanish in data and output (skills, groups,
//     attributes); lookups accept any case, no accents, the English name and
//     a unique prefix.
//   - Hope never drops below 0 nor rises above the maximum; a skill group
//     never holds more than 3 advancement points in one adventure; permanent
//     Shadow never decreases.
package tor
