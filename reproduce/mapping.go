package reproduce

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/ryf"
)

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

// groupSize returns how many consecutive events from i one command
// recorded: the roll events, then the closing event that names them, all
// of one campaign and one time. An event that fits no shape is a group of
// its own.
func groupSize(evs []rec, i int) int {
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
		case "tor":
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

// describeGroup names a group of events for messages.
func describeGroup(g []rec) string {
	types := make([]string, len(g))
	for i, x := range g {
		types[i] = strings.TrimSuffix(strings.TrimPrefix(x.Event.Type, "journal."), ".v1")
	}
	return "events " + strings.Join(types, ", ")
}

// commandFunc re-runs one command on the fresh journal.
type commandFunc func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error)

// commandOf maps a group of recorded events back to the command that
// produced it, with the recorded inputs, and names it.
func (r *reproducer) commandOf(ctx context.Context, g []rec) (commandFunc, string, error) {
	first := g[0].Event
	last := g[len(g)-1].Event
	data, err := first.Payload()
	if err != nil {
		return nil, "", err
	}
	switch d := data.(type) {
	case *events.CampaignCreated:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: campaign, Name: d.Name, System: d.System,
				Carisma: d.Carisma, HardDefense: d.HardDefense, AttrBudget: d.AttrBudget})
		}, "campaign create " + first.Campaign, nil
	case *events.WeaponDefined:
		w := *d
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.DefineWeapon(ctx, campaign, w)
		}, "weapon define " + d.Name, nil
	case *events.SkillDefined:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.DefineSkill(ctx, campaign, d.Name, d.Attribute)
		}, "skill define " + d.Name, nil
	case *events.CharacterCreated:
		_, id, _ := first.Aggregate()
		req := command.CreateCharacter{ID: id, Name: d.Name, Player: d.Player, NPC: d.NPC, Occupation: d.Occupation,
			Attributes: pairsOf(d.Attributes), Skills: pairsOf(d.Skills), Specialization: d.Specialization, Weapons: d.Weapons}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, req)
		}, "character create " + id, nil
	case *events.TORCharacterCreated:
		_, id, _ := first.Aggregate()
		req := command.CreateCharacter{ID: id, Name: d.Name, Player: d.Player, NPC: d.NPC, Culture: d.Culture,
			Attributes: torAttributes(d.Attributes), Skills: torSkills(d.Skills), MaxHope: d.MaxHope, Traits: d.Traits}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, req)
		}, "character create " + id, nil
	case *events.SessionStarted:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.StartSession(ctx, campaign, first.Session, d.Title)
		}, "session start " + first.Session, nil
	case *events.SessionEnded:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.EndSession(ctx, campaign)
		}, "session end " + first.Session, nil
	case *events.RollMade:
		return r.rollCommand(ctx, g, d)
	case *events.CombatRound:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.NextRound(ctx, campaign)
		}, "combat round", nil
	case *events.CombatEnded:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.EndCombat(ctx, campaign)
		}, "combat end", nil
	case *events.DamageTaken:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Damage(ctx, campaign, d.Character, d.Amount, d.Source)
		}, fmt.Sprintf("damage %s %d", d.Character, d.Amount), nil
	case *events.Healed:
		switch {
		case d.Reason == "gm" && len(g) == 1:
			return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
				return j.Heal(ctx, campaign, d.Character, d.Amount)
			}, fmt.Sprintf("heal %s %d", d.Character, d.Amount), nil
		case (d.Reason == "rest" || d.Reason == "comfort") && last.Type == events.TypeDayStarted:
			return restCommand(d.Reason == "comfort")
		}
	case *events.DayStarted:
		switch d.Reason {
		case "gm":
			return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
				return j.NewDay(ctx, campaign)
			}, "day new", nil
		case "rest", "comfort":
			return restCommand(d.Reason == "comfort")
		}
	case *events.XPGranted:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.GrantXP(ctx, campaign, d.Character, d.Amount)
		}, fmt.Sprintf("xp grant %s %d", d.Character, d.Amount), nil
	case *events.SkillRaised:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.RaiseSkill(ctx, campaign, d.Character, d.Skill)
		}, fmt.Sprintf("skill raise %s %s", d.Character, d.Skill), nil
	case *events.TokenReturned:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.ReturnToken(ctx, campaign, d.Character)
		}, "token return " + d.Character, nil
	case *events.WeaponReloaded:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Reload(ctx, campaign, d.Character, d.Weapon)
		}, fmt.Sprintf("reload %s %s", d.Character, d.Weapon), nil
	case *events.EventVoided:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Void(ctx, campaign, d.EventID, d.Reason)
		}, "void " + d.EventID, nil
	case *events.TORHopeSpent:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.SpendHope(ctx, campaign, d.Character, d.Roll)
		}, "hope spend " + d.Character, nil
	case *events.TORFellowshipRequested:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.RequestFellowship(ctx, campaign, d.Character)
		}, "fellowship ask " + d.Character, nil
	case *events.TORFellowshipVoted:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Vote(ctx, campaign, d.Character, d.Voter, d.Agree)
		}, fmt.Sprintf("fellowship vote %s by %s", d.Character, d.Voter), nil
	case *events.TORFellowshipSpent:
		if d.Outcome == events.TORFellowshipForced {
			return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
				return j.ResolveFellowship(ctx, campaign, d.Character, true)
			}, "fellowship take " + d.Character, nil
		}
	case *events.TORFellowshipWithdrawn:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.ResolveFellowship(ctx, campaign, d.Character, false)
		}, "fellowship withdraw " + d.Character, nil
	case *events.TORShadowGained:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.GainShadow(ctx, campaign, d.Character, d.Amount, d.Reason)
		}, fmt.Sprintf("shadow %s %d", d.Character, d.Amount), nil
	case *events.TORMadnessEnded:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.EndMadness(ctx, campaign, d.Character, d.Flaw)
		}, "madness end " + d.Character, nil
	case *events.TORTraitInvoked:
		req := command.TraitRequest{Character: d.Character, Trait: d.Trait, Automatic: d.Automatic, Skill: d.Skill}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.InvokeTrait(ctx, campaign, req)
		}, fmt.Sprintf("trait %s %s", d.Character, d.Trait), nil
	case *events.TORAdvancementGranted:
		group := d.Group
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.GrantAdvancement(ctx, campaign, d.Character, group, d.Roll)
		}, fmt.Sprintf("advancement %s %s", d.Character, d.Group), nil
	case *events.TORAdventureStarted:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.StartAdventure(ctx, campaign, d.Title)
		}, "adventure start", nil
	case *events.TORFellowshipPhase:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.FellowshipPhase(ctx, campaign)
		}, "fellowship phase", nil
	}
	return nil, "", errors.New("no command records these events in this order")
}

func restCommand(comfort bool) (commandFunc, string, error) {
	what := "rest"
	if comfort {
		what = "rest --comfort"
	}
	return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
		return j.Rest(ctx, campaign, comfort)
	}, what, nil
}

// rollCommand maps a group that starts with a roll: a roll, a contest, the
// initiative of a combat, an attack, the healing after a combat.
func (r *reproducer) rollCommand(ctx context.Context, g []rec, d *events.RollMade) (commandFunc, string, error) {
	last := g[len(g)-1].Event
	switch d.Kind {
	case "skill", "attribute":
		if len(g) == 3 {
			b := rollOf(g[1].Event)
			var c events.ContestResolved
			if b == nil || last.DecodeData(&c) != nil {
				break
			}
			req := command.ContestRequest{A: d.Character, SkillA: contestSide(d), AttrA: contestAttr(d),
				ModA: d.Modifier, TokenA: d.Token, SpecA: d.Specialization, EntropyA: d.Entropy,
				B: b.Character, SkillB: contestSide(b), AttrB: contestAttr(b),
				ModB: b.Modifier, TokenB: b.Token, SpecB: b.Specialization, EntropyB: b.Entropy,
				Rematch: c.Rematch, Legacy: !d.Opposed}
			return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
				return j.Contest(ctx, campaign, req)
			}, fmt.Sprintf("contest %s %s %s %s", req.A, req.SkillA, req.B, req.SkillB), nil
		}
		if len(g) != 1 {
			break
		}
		req := command.RollRequest{Character: d.Character, Skill: d.Skill, Attribute: d.Attribute,
			Modifier: d.Modifier, Token: d.Token, Specialization: d.Specialization, Entropy: d.Entropy}
		if d.Difficulty != nil {
			req.Vs = strconv.Itoa(*d.Difficulty)
		}
		what := "roll " + d.Character + " " + d.Skill
		if d.Skill == "" {
			what = "roll " + d.Character + " --attribute " + d.Attribute
		}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Roll(ctx, campaign, req)
		}, what, nil
	case "initiative":
		if last.Type != events.TypeCombatStarted {
			break
		}
		req := command.CombatStart{Entropy: d.Entropy}
		for _, x := range g[:len(g)-1] {
			if e := rollOf(x.Event); e != nil {
				req.Participants = append(req.Participants, e.Character)
				if e.Token {
					req.Token = append(req.Token, e.Character)
				}
			}
		}
		what := "combat start " + strings.Join(req.Participants, " ")
		if len(req.Token) > 0 {
			what += " --token " + strings.Join(req.Token, ",")
		}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.StartCombatWith(ctx, campaign, req)
		}, what, nil
	case "melee", "ranged":
		if last.Type != events.TypeAttackResolved {
			break
		}
		req := command.AttackRequest{Attacker: d.Character, Target: d.Target, Weapon: d.Weapon, Range: d.Range,
			Cover: d.Cover, Modifier: d.Modifier, Token: d.Token, Specialization: d.Specialization, Entropy: d.Entropy}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Attack(ctx, campaign, req)
		}, fmt.Sprintf("attack %s %s", d.Character, d.Target), nil
	case "heal":
		if len(g) != 2 {
			break
		}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.HealAfterCombat(ctx, campaign, d.Character, d.Entropy)
		}, "heal-after-combat " + d.Character, nil
	case "tor":
		req := command.RollRequest{Character: d.Character, Skill: d.Skill, TN: d.TN, Entropy: d.Entropy}
		if d.Trait != "" {
			// A trait invoked beforehand is already pending; naming it again
			// would be refused for a character in a bout of madness.
			pending := false
			if c, err := r.j.Load(ctx, g[0].Event.Campaign, 0); err == nil && c.TOR != nil {
				if ch := c.TOR.Characters[d.Character]; ch != nil && ch.PendingTrait == d.Trait {
					pending = true
				}
			}
			if !pending {
				req.Trait = d.Trait
			}
		}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Roll(ctx, campaign, req)
		}, fmt.Sprintf("roll %s %s --tn %d", d.Character, d.Skill, d.TN), nil
	}
	return nil, "", errors.New("no command records these events in this order")
}

// contestSide is what a contest side names: the skill, or else the
// attribute by its full name (a one-letter code could be a skill's prefix).
func contestSide(d *events.RollMade) string {
	if d.Skill != "" {
		return d.Skill
	}
	if name := ryf.Attr(d.Attribute).Name(); name != "" {
		return name
	}
	return d.Attribute
}

// contestAttr is the attribute a contest's skill side rolled with (the
// skill's default or the one the GM named); "" for an attribute side.
func contestAttr(d *events.RollMade) string {
	if d.Skill == "" {
		return ""
	}
	return d.Attribute
}

// pairsOf writes a map as "K=V,K=V" in key order, as the CLI takes it.
func pairsOf(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.Itoa(m[k])
	}
	return strings.Join(parts, ",")
}

// torAttributes writes One Ring attributes in the CLI's syntax.
func torAttributes(a events.TORAttributes) string {
	return fmt.Sprintf("Cuerpo=%d/%d,Corazón=%d/%d,Mente=%d/%d",
		a.Cuerpo.Basic, a.Cuerpo.Favoured, a.Corazon.Basic, a.Corazon.Favoured, a.Mente.Basic, a.Mente.Favoured)
}

// torSkills writes One Ring skill ratings in the CLI's syntax ("*" favoured).
func torSkills(m map[string]events.TORSkill) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.Itoa(m[k].Rank)
		if m[k].Favoured {
			parts[i] += "*"
		}
	}
	return strings.Join(parts, ",")
}
