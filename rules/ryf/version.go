package ryf

// The versions of these rules a roll event records (events.RollMade.Rules;
// docs/rules.md part 4). A version is never changed once
// recorded: a new rule decision is a new version, with its own judge in
// package rolls, and the rolls recorded under an older one keep theirs.
const (
	// RulesV1: the rules before docs/rules.md 1.5 decided opposed rolls.
	// A contest's sides are plain skill or attribute rolls: an attribute
	// roll never explodes and has no natural 1, and no roll is flagged
	// Opposed.
	RulesV1 = "ryf/1"
	// RulesV2: docs/rules.md 1.5's decision. Every side of a contest is
	// flagged Opposed, and an opposed attribute roll explodes and has a
	// natural 1 like a skill roll. Every other roll is judged as in RulesV1.
	RulesV2 = "ryf/2"
	// RulesVersion is the version the journal records today.
	RulesVersion = RulesV2
)

// OpposedSides reports whether a contest judged under rules version
// flags its sides Opposed: every version since RulesV2 does, RulesV1 not.
func OpposedSides(version string) bool { return version != RulesV1 }

// Explodes reports whether a check's kept 10 explodes and a kept 1 in its
// first round is a natural 1: every kind but attribute rolls, and every
// side of an opposed roll, attribute sides included (docs/rules.md 1.5).
// It is the one statement of that rule: Roll and the odds (rules/odds)
// both ask it.
func (c Check) Explodes() bool { return c.explodes() }
