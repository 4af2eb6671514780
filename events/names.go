package events

// Name returns the subject token an event of type eventType is stored
// under (the <event> of journal.<campaign>.<kind>.<id>.<event>), or "" for
// an unknown type. It is the one place where types meet subject names: the
// command layer files events by it, and a reader that rebuilds subjects
// (an export carries only the CloudEvents subject) derives them by it.
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
