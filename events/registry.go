package events

import (
	"fmt"

	"github.com/campaign-journal/journal/events/internal/fastcodec"
)

//go:generate go run ./internal/fastcodec/gen

// The registry: the one list of event types. Everything the journal knows
// per type is in its entry: the data struct (the codec's whitelist: an
// event of any other type is refused), the subject token its events are
// stored under (Name), the aggregate kind it is filed under, and the game
// system whose commands record it. dataFor, Name, the codec, the fast
// path's field tables (generated from it into fastfields.go) and every
// test that goes through all types range over it or look types up in it;
// the type's constant and data struct live in types.go (types_tor.go for
// The One Ring).
//
// Adding an event type: its constant and struct, one entry here, then
// `go generate ./events` (TestEveryTypeConstantIsRegistered fails until
// the entry is there, the generator's TestGeneratedFileIsUpToDate until
// fastfields.go is regenerated).

// Systems an event type belongs to (TypeInfo.System).
const (
	SystemAny = ""    // recorded in a campaign of any system
	SystemRyF = "ryf" // recorded by the RyF rules, in RyF and Galaxia campaigns only
	SystemTOR = "tor" // The One Ring's own facts
)

// A TypeInfo is what the journal knows of one event type.
type TypeInfo struct {
	Type   string // the CloudEvents type, e.g. TypeRollMade
	Name   string // the subject token (the <event> of journal.<campaign>.<kind>.<id>.<event>), a slug
	Kind   Kind   // the aggregate kind its events are filed under
	System string // SystemAny, SystemRyF or SystemTOR

	// data returns a pointer to a fresh zero value of the type's struct.
	data func() any
	// fast is what the fast path knows of the struct, nil when it does
	// not decode it (set with byType).
	fast *fastcodec.Struct
}

// NewData returns a pointer to a fresh zero value of the type's data
// struct, such as *RollMade.
func (t TypeInfo) NewData() any { return t.data() }

// dataOf returns a new(T): a TypeInfo's data.
func dataOf[T any]() any { return new(T) }

// registry lists every event type, one entry each, in the order of their
// constants (fuzz corpora index types by their place here: append new
// types at the end of their group).
var registry = []TypeInfo{
	{
		Type: TypeCampaignCreated, Name: "created", Kind: KindCampaign, System: SystemAny,
		data: dataOf[CampaignCreated],
	},
	{
		Type: TypeWeaponDefined, Name: "weapon", Kind: KindCampaign, System: SystemRyF,
		data: dataOf[WeaponDefined],
	},
	{
		Type: TypeSkillDefined, Name: "skill", Kind: KindCampaign, System: SystemRyF,
		data: dataOf[SkillDefined],
	},
	{
		Type: TypeCharacterCreated, Name: "created", Kind: KindCharacter, System: SystemRyF,
		data: dataOf[CharacterCreated],
	},
	{
		Type: TypeSessionStarted, Name: "started", Kind: KindSession, System: SystemAny,
		data: dataOf[SessionStarted],
	},
	{
		Type: TypeSessionEnded, Name: "ended", Kind: KindSession, System: SystemAny,
		data: dataOf[SessionEnded],
	},
	{
		Type: TypeRollMade, Name: "roll", Kind: KindCharacter, System: SystemAny,
		data: dataOf[RollMade],
	},
	{
		Type: TypeContestResolved, Name: "contest", Kind: KindCharacter, System: SystemRyF,
		data: dataOf[ContestResolved],
	},
	{
		Type: TypeCombatStarted, Name: "combat", Kind: KindCampaign, System: SystemRyF,
		data: dataOf[CombatStarted],
	},
	{
		Type: TypeCombatRound, Name: "combat", Kind: KindCampaign, System: SystemAny,
		data: dataOf[CombatRound],
	},
	{
		Type: TypeCombatEnded, Name: "combat", Kind: KindCampaign, System: SystemAny,
		data: dataOf[CombatEnded],
	},
	{
		Type: TypeAttackResolved, Name: "attack", Kind: KindCharacter, System: SystemRyF,
		data: dataOf[AttackResolved],
	},
	{
		Type: TypeDamageTaken, Name: "damage", Kind: KindCharacter, System: SystemAny,
		data: dataOf[DamageTaken],
	},
	{
		Type: TypeHealed, Name: "healed", Kind: KindCharacter, System: SystemAny,
		data: dataOf[Healed],
	},
	{
		Type: TypeXPGranted, Name: "xp", Kind: KindCharacter, System: SystemAny,
		data: dataOf[XPGranted],
	},
	{
		Type: TypeSkillRaised, Name: "raise", Kind: KindCharacter, System: SystemRyF,
		data: dataOf[SkillRaised],
	},
	{
		Type: TypeTokenReturned, Name: "token", Kind: KindCharacter, System: SystemRyF,
		data: dataOf[TokenReturned],
	},
	{
		Type: TypeWeaponReloaded, Name: "reload", Kind: KindCharacter, System: SystemRyF,
		data: dataOf[WeaponReloaded],
	},
	{
		Type: TypeDayStarted, Name: "day", Kind: KindCampaign, System: SystemAny,
		data: dataOf[DayStarted],
	},
	{
		Type: TypeEventVoided, Name: "voided", Kind: KindCampaign, System: SystemAny,
		data: dataOf[EventVoided],
	},

	// journal-dice-v2 (types_v2.go).
	{
		Type: TypeParticipantRegistered, Name: "participant", Kind: KindCampaign, System: SystemAny,
		data: dataOf[ParticipantRegistered],
	},
	{
		Type: TypeSessionContributed, Name: "contributed", Kind: KindSession, System: SystemAny,
		data: dataOf[SessionContributed],
	},
	{
		Type: TypeRollRequested, Name: "requested", Kind: KindCharacter, System: SystemAny,
		data: dataOf[RollRequested],
	},
	{
		Type: TypeRollCancelled, Name: "cancelled", Kind: KindCharacter, System: SystemAny,
		data: dataOf[RollCancelled],
	},
	{
		Type: TypeSessionCosigned, Name: "cosigned", Kind: KindSession, System: SystemAny,
		data: dataOf[SessionCosigned],
	},

	// The One Ring (types_tor.go).
	{
		Type: TypeTORCharacterCreated, Name: "created", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORCharacterCreated],
	},
	{
		Type: TypeTORHopeSpent, Name: "hope", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORHopeSpent],
	},
	{
		Type: TypeTORFellowshipRequested, Name: "fellowship", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORFellowshipRequested],
	},
	{
		Type: TypeTORFellowshipVoted, Name: "vote", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORFellowshipVoted],
	},
	{
		Type: TypeTORFellowshipSpent, Name: "fellowship", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORFellowshipSpent],
	},
	{
		Type: TypeTORFellowshipWithdrawn, Name: "fellowship", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORFellowshipWithdrawn],
	},
	{
		Type: TypeTORShadowGained, Name: "shadow", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORShadowGained],
	},
	{
		Type: TypeTORMadnessBegun, Name: "madness", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORMadnessBegun],
	},
	{
		Type: TypeTORMadnessEnded, Name: "madness", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORMadnessEnded],
	},
	{
		Type: TypeTORTraitInvoked, Name: "trait", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORTraitInvoked],
	},
	{
		Type: TypeTORAdvancementGranted, Name: "advancement", Kind: KindCharacter, System: SystemTOR,
		data: dataOf[TORAdvancementGranted],
	},
	{
		Type: TypeTORAdventureStarted, Name: "adventure", Kind: KindCampaign, System: SystemTOR,
		data: dataOf[TORAdventureStarted],
	},
	{
		Type: TypeTORFellowshipPhase, Name: "fellowship-phase", Kind: KindCampaign, System: SystemTOR,
		data: dataOf[TORFellowshipPhase],
	},

	// The campaign's chain (types_chain.go), after every other group so
	// that no type moves.
	{
		Type: TypeChainAnchored, Name: "anchored", Kind: KindCampaign, System: SystemAny,
		data: dataOf[ChainAnchored],
	},

	// Devices hold keys, not users (types_device.go).
	{
		Type: TypeDeviceRegistered, Name: "device", Kind: KindCampaign, System: SystemAny,
		data: dataOf[DeviceRegistered],
	},
	{
		Type: TypeDeviceApproved, Name: "device-approved", Kind: KindCampaign, System: SystemAny,
		data: dataOf[DeviceApproved],
	},
	{
		Type: TypeDeviceRevoked, Name: "device-revoked", Kind: KindCampaign, System: SystemAny,
		data: dataOf[DeviceRevoked],
	},
	// GM rolls from witness chains (types_v2_witness.go).
	{
		Type: TypeRollWitnessed, Name: "witnessed", Kind: KindCharacter, System: SystemAny,
		data: dataOf[RollWitnessed],
	},
	{
		Type: TypeRollReceipted, Name: "receipted", Kind: KindCharacter, System: SystemAny,
		data: dataOf[RollReceipted],
	},
	// A suppressed roll's proof (types_proved.go), after every other group
	// so that no type moves.
	{
		Type: TypeRollProved, Name: "proved", Kind: KindCharacter, System: SystemAny,
		data: dataOf[RollProved],
	},
	// The table's roll calls and void proposals (types_table.go), after
	// every other group so that no type moves.
	{
		Type: TypeCallMade, Name: "call", Kind: KindCampaign, System: SystemAny,
		data: dataOf[CallMade],
	},
	{
		Type: TypeCallClosed, Name: "call-closed", Kind: KindCampaign, System: SystemAny,
		data: dataOf[CallClosed],
	},
	{
		Type: TypeCallAnswered, Name: "call-answered", Kind: KindCampaign, System: SystemAny,
		data: dataOf[CallAnswered],
	},
	{
		Type: TypeVoidProposed, Name: "void-proposed", Kind: KindCampaign, System: SystemAny,
		data: dataOf[VoidProposed],
	},
	{
		Type: TypeVoidConsented, Name: "void-consented", Kind: KindCampaign, System: SystemAny,
		data: dataOf[VoidConsented],
	},
	// A GM's secret roll (types_hidden.go), after every other group so
	// that no type moves.
	{
		Type: TypeRollHidden, Name: "hidden", Kind: KindCharacter, System: SystemAny,
		data: dataOf[RollHidden],
	},
}

// byType indexes registry by type, and sets each entry's fast. Building it
// checks the registry: a
// type listed twice, or an entry without a struct or with a name or kind
// that is not a slug, is a programming error that stops the program at
// start (and every test).
var byType = func() map[string]*TypeInfo {
	m := make(map[string]*TypeInfo, len(registry))
	for i := range registry {
		t := &registry[i]
		if _, dup := m[t.Type]; dup {
			panic(fmt.Sprintf("events: type %s registered twice", t.Type))
		}
		if t.data == nil || ValidID(t.Name) != nil || ValidID(string(t.Kind)) != nil {
			panic(fmt.Sprintf("events: type %s registered without a struct, a valid name or a valid kind", t.Type))
		}
		t.fast = fastStructOf(t)
		m[t.Type] = t
	}
	return m
}()

// Types returns every registered event type, in the registry's order. The
// slice is the caller's.
func Types() []TypeInfo {
	return append([]TypeInfo(nil), registry...)
}

// LookupType returns what the registry knows of eventType, or false for an
// unknown type.
func LookupType(eventType string) (TypeInfo, bool) {
	if t := byType[eventType]; t != nil {
		return *t, true
	}
	return TypeInfo{}, false
}

// dataFor returns a pointer to a fresh value of the data type registered for
// eventType, or false for an unknown type.
func dataFor(eventType string) (any, bool) {
	if t := byType[eventType]; t != nil {
		return t.data(), true
	}
	return nil, false
}

// Name returns the short name of an event of type eventType (Spec.Name),
// or "" for an unknown type. It was the <event> token of the old layout's
// subjects (journal.<campaign>.<kind>.<id>.<event>, before 2026-12-01);
// events are now stored under their campaign's subject alone, with the
// type in the Journal-Type header.
func Name(eventType string) string {
	if t := byType[eventType]; t != nil {
		return t.Name
	}
	return ""
}
