package events

import "testing"

// registeredTypes lists every registered event type, for tests that go
// through them all.
var registeredTypes = []string{
	TypeCampaignCreated, TypeWeaponDefined, TypeSkillDefined, TypeCharacterCreated, TypeSessionStarted,
	TypeSessionEnded, TypeRollMade, TypeContestResolved, TypeCombatStarted, TypeCombatRound, TypeCombatEnded,
	TypeAttackResolved, TypeDamageTaken, TypeHealed, TypeXPGranted, TypeSkillRaised, TypeTokenReturned,
	TypeWeaponReloaded, TypeDayStarted, TypeEventVoided,
	TypeTORCharacterCreated, TypeTORHopeSpent, TypeTORFellowshipRequested, TypeTORFellowshipVoted,
	TypeTORFellowshipSpent, TypeTORFellowshipWithdrawn, TypeTORShadowGained, TypeTORMadnessBegun,
	TypeTORMadnessEnded, TypeTORTraitInvoked, TypeTORAdvancementGranted, TypeTORAdventureStarted,
	TypeTORFellowshipPhase,
}

// Every registered type has a subject name, and it is a valid token.
func TestEveryTypeHasAName(t *testing.T) {
	types := registeredTypes
	for _, typ := range types {
		if _, ok := dataFor(typ); !ok {
			t.Fatalf("%s is not registered", typ)
		}
		name := Name(typ)
		if err := ValidID(name); err != nil {
			t.Errorf("Name(%s) = %q: %v", typ, name, err)
		}
	}
	if Name("journal.nothing.v1") != "" {
		t.Error("an unknown type has a name")
	}
}
