package dice

// The versions of a free roll's rules (a dice expression, ParseExpr) a roll
// event records (events.RollMade.Rules; docs/rules.md part 4).
const (
	// RulesV1: the expression's terms, dice drawn in the order written and
	// numbers, added or subtracted (docs/rules.md 3.5); nothing explodes.
	RulesV1 = "dice/1"
	// RulesVersion is the version the journal records today.
	RulesVersion = RulesV1
)
