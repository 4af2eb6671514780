package reproduce

import (
	"context"
	"fmt"
	"strings"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Guessing, for sessions recorded before events named their command (no
// command attribute): which command recorded a group of events is guessed
// from their types and shape, then re-run through the catalogue as a
// named one is. This list is closed: every command recorded since names
// itself, so a new command never needs a guess.

// rollOf decodes a roll event, or returns nil.
func rollOf(e events.Event) *events.RollMade {
	if e.Type != events.TypeRollMade {
		return nil
	}
	var d events.RollMade
	if e.DecodeData(&d) != nil {
		return nil
	}
	return &d
}

// guessGroupSize returns how many consecutive events from i one command
// recorded: the roll events, then the closing event that names them, all
// of one campaign and one time. An event that fits no shape is a group of
// its own.
func guessGroupSize(evs []rec, i int) int {
	at := func(k int) (events.Event, bool) {
		if k >= len(evs) {
			return events.Event{}, false
		}
		e := evs[k].Event
		f := evs[i].Event
		return e, e.Campaign == f.Campaign && e.Time.Equal(f.Time)
	}
	first := evs[i].Event
	switch first.Type {
	case events.TypeRollMade:
		d := rollOf(first)
		if d == nil {
			return 1
		}
		switch d.Kind {
		case "skill", "attribute":
			// A contest: two rolls and the verdict naming them.
			if e2, ok := at(i + 1); ok && e2.Type == events.TypeRollMade {
				if e3, ok := at(i + 2); ok && e3.Type == events.TypeContestResolved {
					var c events.ContestResolved
					if e3.DecodeData(&c) == nil && c.RollA == first.ID && c.RollB == e2.ID {
						return 3
					}
				}
			}
		case "initiative":
			k := i + 1
			for {
				e, ok := at(k)
				if !ok || e.Type != events.TypeRollMade {
					break
				}
				if d := rollOf(e); d == nil || d.Kind != "initiative" {
					break
				}
				k++
			}
			if e, ok := at(k); ok && e.Type == events.TypeCombatStarted {
				return k - i + 1
			}
		case "melee", "ranged":
			k := i + 1
			if e, ok := at(k); ok && e.Type == events.TypeRollMade {
				if d := rollOf(e); d != nil && d.Kind == "damage" {
					k++
				}
			}
			if e, ok := at(k); ok && e.Type == events.TypeDamageTaken {
				k++
			}
			if e, ok := at(k); ok && e.Type == events.TypeAttackResolved {
				var a events.AttackResolved
				if e.DecodeData(&a) == nil && a.AttackRoll == first.ID {
					return k - i + 1
				}
			}
		case "heal":
			if e, ok := at(i + 1); ok && e.Type == events.TypeHealed {
				return 2
			}
		case rolls.KindTOR:
			if e, ok := at(i + 1); ok && e.Type == events.TypeTORMadnessBegun {
				var m events.TORMadnessBegun
				if e.DecodeData(&m) == nil && m.Roll == first.ID {
					return 2
				}
			}
		}
	case events.TypeHealed:
		var h events.Healed
		if first.DecodeData(&h) == nil && (h.Reason == "rest" || h.Reason == "comfort") {
			k := i + 1
			for {
				e, ok := at(k)
				if !ok || e.Type != events.TypeHealed {
					break
				}
				k++
			}
			if e, ok := at(k); ok && e.Type == events.TypeDayStarted {
				return k - i + 1
			}
		}
	case events.TypeTORFellowshipRequested, events.TypeTORFellowshipVoted:
		// A request granted at once (a fellowship of one), or the last vote
		// that grants it: the point is spent in the same batch.
		request := first.ID
		if first.Type == events.TypeTORFellowshipVoted {
			var v events.TORFellowshipVoted
			if first.DecodeData(&v) == nil {
				request = v.Request
			}
		}
		if e, ok := at(i + 1); ok && e.Type == events.TypeTORFellowshipSpent {
			var s events.TORFellowshipSpent
			if e.DecodeData(&s) == nil && s.Request == request {
				return 2
			}
		}
	}
	return 1
}

// guess maps a group of recorded events without a command attribute
// back to the command that produced it, with its inputs, and names it.
func (r *reproducer) guess(ctx context.Context, g []rec) (commandFunc, string, error) {
	first, last := g[0].Event, g[len(g)-1].Event
	name := ""
	switch first.Type {
	case events.TypeCampaignCreated:
		name = "campaign-create"
	case events.TypeWeaponDefined:
		name = "weapon-define"
	case events.TypeSkillDefined:
		name = "skill-define"
	case events.TypeCharacterCreated, events.TypeTORCharacterCreated:
		name = "character-create"
	case events.TypeSessionStarted:
		name = "session-start"
	case events.TypeSessionEnded:
		name = "session-end"
	case events.TypeRollMade:
		d := rollOf(first)
		if d == nil {
			break
		}
		switch {
		case d.Hidden != "" && len(g) == 1:
			name = "reveal"
		case d.Hidden != "" && last.Type == events.TypeSessionEnded:
			name = "session-end" // the secret rolls left, revealed at the end
		case d.Kind == "free" && len(g) == 1:
			name = "free-roll"
		case (d.Kind == "skill" || d.Kind == "attribute") && len(g) == 3:
			if v := rolls.Version(*d); v != ryf.RulesVersion {
				return contestUnder(g, d, v)
			}
			name = "contest"
		case (d.Kind == "skill" || d.Kind == "attribute") && len(g) == 1, d.Kind == rolls.KindTOR:
			name = "roll"
		case d.Kind == "initiative" && last.Type == events.TypeCombatStarted:
			name = "combat-start"
		case (d.Kind == "melee" || d.Kind == "ranged") && last.Type == events.TypeAttackResolved:
			name = "attack"
		case d.Kind == "heal" && len(g) == 2:
			name = "heal-after-combat"
		}
	case events.TypeRollHidden:
		name = "roll"
		var d events.RollHidden
		if first.DecodeData(&d) == nil && d.Kind == "free" {
			name = "free-roll"
		}
	case events.TypeCombatRound:
		name = "combat-round"
	case events.TypeCombatEnded:
		name = "combat-end"
	case events.TypeDamageTaken:
		name = "damage"
	case events.TypeHealed:
		var d events.Healed
		if first.DecodeData(&d) != nil {
			break
		}
		switch {
		case d.Reason == "gm" && len(g) == 1:
			name = "heal"
		case (d.Reason == "rest" || d.Reason == "comfort") && last.Type == events.TypeDayStarted:
			name = "rest"
		}
	case events.TypeDayStarted:
		var d events.DayStarted
		if first.DecodeData(&d) != nil {
			break
		}
		switch d.Reason {
		case "gm":
			name = "day-new"
		case "rest", "comfort":
			name = "rest"
		}
	case events.TypeXPGranted:
		name = "xp"
	case events.TypeSkillRaised:
		name = "raise"
	case events.TypeTokenReturned:
		name = "token-return"
	case events.TypeWeaponReloaded:
		name = "reload"
	case events.TypeEventVoided:
		name = "void"
	case events.TypeTORHopeSpent:
		name = "hope-spend"
	case events.TypeTORFellowshipRequested:
		name = "fellowship-ask"
	case events.TypeTORFellowshipVoted:
		name = "fellowship-vote"
	case events.TypeTORFellowshipSpent:
		var d events.TORFellowshipSpent
		if first.DecodeData(&d) == nil && d.Outcome == events.TORFellowshipForced {
			name = "fellowship-take"
		}
	case events.TypeTORFellowshipWithdrawn:
		name = "fellowship-withdraw"
	case events.TypeTORShadowGained:
		name = "shadow-gain"
	case events.TypeTORMadnessEnded:
		name = "madness-end"
	case events.TypeTORTraitInvoked:
		name = "trait-invoke"
	case events.TypeTORAdvancementGranted:
		name = "advancement-grant"
	case events.TypeTORAdventureStarted:
		name = "adventure-start"
	case events.TypeTORFellowshipPhase:
		name = "fellowship-phase"
	}
	spec, ok := catalog.Lookup(name)
	if !ok {
		return nil, "", msgerr.New("no command records these events in this order")
	}
	return r.catalogued(ctx, spec, g)
}

// contestUnder re-runs a contest recorded under an earlier rules version
// than today's (ryf/1: before docs/rules.md 1.5 decided opposed rolls),
// which no catalogued body asks for: under the rules it was recorded under.
func contestUnder(g []rec, a *events.RollMade, rules string) (commandFunc, string, error) {
	b := rollOf(g[1].Event)
	var c events.ContestResolved
	if b == nil || g[2].Event.Type != events.TypeContestResolved || g[2].Event.DecodeData(&c) != nil {
		return nil, "", msgerr.New("no command records these events in this order")
	}
	req := command.ContestRequest{A: a.Character, SkillA: catalog.ContestSide(a), AttrA: catalog.ContestAttr(a),
		ModA: a.Modifier, TokenA: a.Token, SpecA: a.Specialization, EntropyA: a.Entropy,
		B: b.Character, SkillB: catalog.ContestSide(b), AttrB: catalog.ContestAttr(b),
		ModB: b.Modifier, TokenB: b.Token, SpecB: b.Specialization, EntropyB: b.Entropy,
		Rematch: c.Rematch, Rules: rules}
	return func(ctx context.Context, j *command.Handler, call command.Call, campaign string) (command.Result, error) {
		v, err := j.For(call)
		if err != nil {
			return command.Result{}, err
		}
		return v.Contest(ctx, campaign, req)
	}, fmt.Sprintf("contest %s %s %s %s (rules %s)", req.A, req.SkillA, req.B, req.SkillB, rules), nil
}

// describeGroup names a group of events for messages.
func describeGroup(g []rec) string {
	types := make([]string, len(g))
	for i, x := range g {
		types[i] = strings.TrimSuffix(strings.TrimPrefix(x.Event.Type, "journal."), ".v1")
	}
	return "events " + strings.Join(types, ", ")
}
