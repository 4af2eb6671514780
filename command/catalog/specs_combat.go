package catalog

import (
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The commands of contests, combat and health: one declaration each (see specs).

// contestCmd is the catalogue's "contest".
var contestCmd = def[command.ContestRequest]{name: "contest", cli: "contest", doc: "an opposed roll", required: []string{"a", "skill_a", "b", "skill_b"},
	run: func(ctx ctx, j *j, c string, req command.ContestRequest) (res, error) {
		return j.Contest(ctx, c, req)
	},
	inputs: contestInputs}

// combatStartCmd is the catalogue's "combat-start".
var combatStartCmd = def[command.CombatStart]{name: "combat-start", cli: "combat start", doc: "roll initiative and start a combat", required: []string{"participants"},
	run: func(ctx ctx, j *j, c string, req command.CombatStart) (res, error) {
		return j.StartCombatWith(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.CombatStart, error) {
		if _, _, err := find[events.CombatStarted](r, events.TypeCombatStarted); err != nil {
			return command.CombatStart{}, err
		}
		var req command.CombatStart
		for i, d := range rollsOf(r) {
			if i == 0 {
				req.Entropy = d.Entropy
			}
			req.Participants = append(req.Participants, d.Character)
			if d.Token {
				req.Token = append(req.Token, d.Character)
			}
		}
		return req, nil
	}}

// combatRoundCmd is the catalogue's "combat-round".
var combatRoundCmd = def[NoBody]{name: "combat-round", cli: "combat round", doc: "start the next round",
	run: func(ctx ctx, j *j, c string, _ NoBody) (res, error) {
		return j.NextRound(ctx, c)
	},
	inputs: expect(events.TypeCombatRound)}

// combatEndCmd is the catalogue's "combat-end".
var combatEndCmd = def[NoBody]{name: "combat-end", cli: "combat end", doc: "end the combat",
	run: func(ctx ctx, j *j, c string, _ NoBody) (res, error) {
		return j.EndCombat(ctx, c)
	},
	inputs: expect(events.TypeCombatEnded)}

// attackCmd is the catalogue's "attack".
var attackCmd = def[command.AttackRequest]{name: "attack", cli: "attack", doc: "attack in turn order; a hit rolls and applies damage",
	required: []string{"attacker", "target"}, acting: "attacker",
	run: func(ctx ctx, j *j, c string, req command.AttackRequest) (res, error) {
		return j.Attack(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.AttackRequest, error) {
		rolls := rollsOf(r)
		if len(rolls) == 0 || (rolls[0].Kind != "melee" && rolls[0].Kind != "ranged") {
			return command.AttackRequest{}, msgerr.New("no attack roll")
		}
		d := rolls[0]
		return command.AttackRequest{Attacker: d.Character, Target: d.Target, Weapon: d.Weapon, Range: d.Range,
			Cover: d.Cover, Modifier: d.Modifier, Token: d.Token, Specialization: d.Specialization, Entropy: d.Entropy}, nil
	}}

// damageCmd is the catalogue's "damage".
var damageCmd = def[command.DamageRequest]{name: "damage", cli: "damage", doc: "apply damage by hand", required: []string{"character", "amount"},
	run: func(ctx ctx, j *j, c string, req command.DamageRequest) (res, error) {
		return j.Damage(ctx, c, req.Character, req.Amount, req.Source)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.DamageRequest, error) {
		d, _, err := find[events.DamageTaken](r, events.TypeDamageTaken)
		if err != nil {
			return command.DamageRequest{}, err
		}
		return command.DamageRequest{Character: d.Character, Amount: d.Amount, Source: d.Source}, nil
	}}

// healCmd is the catalogue's "heal".
var healCmd = def[command.HealRequest]{name: "heal", cli: "heal", doc: "heal by hand", required: []string{"character", "amount"},
	run: func(ctx ctx, j *j, c string, req command.HealRequest) (res, error) {
		return j.Heal(ctx, c, req.Character, req.Amount)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.HealRequest, error) {
		d, _, err := find[events.Healed](r, events.TypeHealed)
		if err != nil {
			return command.HealRequest{}, err
		}
		return command.HealRequest{Character: d.Character, Amount: d.Amount}, nil
	}}

// restCmd is the catalogue's "rest".
var restCmd = def[command.RestRequest]{name: "rest", cli: "rest", doc: "a night's sleep for everyone: healing and a new day",
	run: func(ctx ctx, j *j, c string, req command.RestRequest) (res, error) {
		return j.Rest(ctx, c, req.Comfort)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RestRequest, error) {
		d, _, err := find[events.DayStarted](r, events.TypeDayStarted)
		if err != nil {
			return command.RestRequest{}, err
		}
		return command.RestRequest{Comfort: d.Reason == "comfort"}, nil
	}}

// healAfterCombatCmd is the catalogue's "heal-after-combat".
var healAfterCombatCmd = def[command.HealAfterCombatRequest]{name: "heal-after-combat", cli: "heal-after-combat", doc: "roll the 1d6 healing after the last combat",
	required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.HealAfterCombatRequest) (res, error) {
		return j.HealAfterCombat(ctx, c, req.Character, req.Entropy)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.HealAfterCombatRequest, error) {
		rolls := rollsOf(r)
		if len(rolls) == 0 || rolls[0].Kind != "heal" {
			return command.HealAfterCombatRequest{}, msgerr.New("no healing roll")
		}
		return command.HealAfterCombatRequest{Character: rolls[0].Character, Entropy: rolls[0].Entropy}, nil
	}}
