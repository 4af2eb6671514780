package catalog

import (
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// The commands of experience, the token, days and reloads: one declaration each (see specs).

// xpCmd is the catalogue's "xp".
var xpCmd = def[command.XPRequest]{name: "xp", cli: "xp grant", doc: "grant XP (once per character per session)", required: []string{"character", "amount"},
	run: func(ctx ctx, j *j, c string, req command.XPRequest) (res, error) {
		return j.GrantXP(ctx, c, req.Character, req.Amount)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.XPRequest, error) {
		d, _, err := find[events.XPGranted](r, events.TypeXPGranted)
		if err != nil {
			return command.XPRequest{}, err
		}
		return command.XPRequest{Character: d.Character, Amount: d.Amount}, nil
	}}

// raiseCmd is the catalogue's "raise".
var raiseCmd = def[command.RaiseRequest]{name: "raise", cli: "skill raise", doc: "spend XP to raise a skill one rank", required: []string{"character", "skill"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.RaiseRequest) (res, error) {
		return j.RaiseSkill(ctx, c, req.Character, req.Skill)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RaiseRequest, error) {
		d, _, err := find[events.SkillRaised](r, events.TypeSkillRaised)
		if err != nil {
			return command.RaiseRequest{}, err
		}
		return command.RaiseRequest{Character: d.Character, Skill: d.Skill}, nil
	}}

// tokenReturnCmd is the catalogue's "token-return".
var tokenReturnCmd = def[command.CharacterRequest]{name: "token-return", cli: "token return", doc: "the GM gives a character's token back", required: []string{"character"},
	run: func(ctx ctx, j *j, c string, req command.CharacterRequest) (res, error) {
		return j.ReturnToken(ctx, c, req.Character)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.CharacterRequest, error) {
		d, _, err := find[events.TokenReturned](r, events.TypeTokenReturned)
		if err != nil {
			return command.CharacterRequest{}, err
		}
		return command.CharacterRequest{Character: d.Character}, nil
	}}

// dayNewCmd is the catalogue's "day-new".
var dayNewCmd = def[NoBody]{name: "day-new", cli: "day new", doc: "start a new in-game day",
	run: func(ctx ctx, j *j, c string, _ NoBody) (res, error) {
		return j.NewDay(ctx, c)
	},
	inputs: expect(events.TypeDayStarted)}

// reloadCmd is the catalogue's "reload".
var reloadCmd = def[command.ReloadRequest]{name: "reload", cli: "reload", doc: "reload a magazine weapon", required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.ReloadRequest) (res, error) {
		return j.Reload(ctx, c, req.Character, req.Weapon)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.ReloadRequest, error) {
		d, _, err := find[events.WeaponReloaded](r, events.TypeWeaponReloaded)
		if err != nil {
			return command.ReloadRequest{}, err
		}
		return command.ReloadRequest{Character: d.Character, Weapon: d.Weapon}, nil
	}}
