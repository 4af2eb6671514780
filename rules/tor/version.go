package tor

// The versions of these rules a roll event records (events.RollMade.Rules;
// docs/rules.md part 4).
const (
	// RulesV1: a feat die and success dice against a TN, as docs/rules.md
	// part 2 states them.
	RulesV1 = "tor/1"
	// RulesVersion is the version the journal records today.
	RulesVersion = RulesV1
)
