package events

// Name returns the short name of an event of type eventType (Spec.Name),
// or "" for an unknown type. It was the <event> token of the old layout's
// subjects (journal.<campaign>.<kind>.<id>.<event>, before 2026-12-01);
// events are now stored under their campaign's subject alone, with the
// type in the Journal-Type header.
func Name(eventType string) string {
	switch eventType {
	case TypeCampaignCreated, TypeCharacterCreated, TypeTORCharacterCreated:
		return "created"
	case TypeSessionStarted:
		return "started"
	case TypeSessionEnded:
		return "ended"
	case TypeWeaponDefined:
		return "weapon"
	case TypeSkillDefined:
		return "skill"
	case TypeRollMade:
		return "roll"
	case TypeContestResolved:
		return "contest"
	case TypeCombatStarted, TypeCombatRound, TypeCombatEnded:
		return "combat"
	case TypeAttackResolved:
		return "attack"
	case TypeDamageTaken:
		return "damage"
	case TypeHealed:
		return "healed"
	case TypeXPGranted:
		return "xp"
	case TypeSkillRaised:
		return "raise"
	case TypeTokenReturned:
		return "token"
	case TypeWeaponReloaded:
		return "reload"
	case TypeDayStarted:
		return "day"
	case TypeEventVoided:
		return "voided"
	case TypeTORHopeSpent:
		return "hope"
	case TypeTORFellowshipRequested, TypeTORFellowshipSpent, TypeTORFellowshipWithdrawn:
		return "fellowship"
	case TypeTORFellowshipVoted:
		return "vote"
	case TypeTORShadowGained:
		return "shadow"
	case TypeTORMadnessBegun, TypeTORMadnessEnded:
		return "madness"
	case TypeTORTraitInvoked:
		return "trait"
	case TypeTORAdvancementGranted:
		return "advancement"
	case TypeTORAdventureStarted:
		return "adventure"
	case TypeTORFellowshipPhase:
		return "fellowship-phase"
	}
	return ""
}
