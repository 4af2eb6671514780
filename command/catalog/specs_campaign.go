package catalog

import (
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The commands of the campaign and its characters, weapons and skills: one declaration each (see specs).

// campaignCreateCmd is the catalogue's "campaign-create".
var campaignCreateCmd = def[command.CreateCampaign]{name: "campaign-create", cli: "campaign create", creates: true,
	doc: "create a campaign (its id is the campaign the command runs in)",
	run: func(ctx ctx, j *j, c string, req command.CreateCampaign) (res, error) {
		if req.ID == "" {
			req.ID = c
		}
		if req.ID != c {
			return res{}, msgerr.Errorf("%w: campaign id %q in a request for campaign %q", command.ErrInvalid, clip.Text(req.ID), clip.Text(c))
		}
		return j.CreateCampaign(ctx, req)
	},
	inputs: func(_ ctx, _ *j, c string, r evs) (command.CreateCampaign, error) {
		d, _, err := find[events.CampaignCreated](r, events.TypeCampaignCreated)
		if err != nil {
			return command.CreateCampaign{}, err
		}
		return command.CreateCampaign{ID: c, Name: d.Name, System: d.System, Carisma: d.Carisma,
			HardDefense: d.HardDefense, AttrBudget: d.AttrBudget}, nil
	}}

// characterCreateCmd is the catalogue's "character-create".
var characterCreateCmd = def[command.CreateCharacter]{name: "character-create", cli: "character create", doc: "create a character", required: []string{"id"},
	run: func(ctx ctx, j *j, c string, req command.CreateCharacter) (res, error) {
		return j.CreateCharacter(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.CreateCharacter, error) {
		e := r[0]
		_, id, _ := e.Aggregate()
		switch e.Type {
		case events.TypeCharacterCreated:
			var d events.CharacterCreated
			if err := e.DecodeData(&d); err != nil {
				return command.CreateCharacter{}, err
			}
			return command.CreateCharacter{ID: id, Name: d.Name, Player: d.Player, NPC: d.NPC, Occupation: d.Occupation,
				Attributes: pairsOf(d.Attributes), Skills: pairsOf(d.Skills), Specialization: d.Specialization, Weapons: d.Weapons}, nil
		case events.TypeTORCharacterCreated:
			var d events.TORCharacterCreated
			if err := e.DecodeData(&d); err != nil {
				return command.CreateCharacter{}, err
			}
			return command.CreateCharacter{ID: id, Name: d.Name, Player: d.Player, NPC: d.NPC, Culture: d.Culture,
				Attributes: torAttributes(d.Attributes), Skills: torSkills(d.Skills), MaxHope: d.MaxHope, Traits: d.Traits}, nil
		}
		return command.CreateCharacter{}, msgerr.New("no character-created event")
	}}

// weaponDefineCmd is the catalogue's "weapon-define".
var weaponDefineCmd = def[events.WeaponDefined]{name: "weapon-define", cli: "weapon define", doc: "add a weapon to the campaign", required: []string{"name", "damage"},
	run: func(ctx ctx, j *j, c string, req events.WeaponDefined) (res, error) {
		return j.DefineWeapon(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (events.WeaponDefined, error) {
		d, _, err := find[events.WeaponDefined](r, events.TypeWeaponDefined)
		if err != nil {
			return events.WeaponDefined{}, err
		}
		return *d, nil
	}}

// skillDefineCmd is the catalogue's "skill-define".
var skillDefineCmd = def[command.SkillDefineRequest]{name: "skill-define", cli: "skill define", doc: "add a campaign skill with its attribute", required: []string{"name", "attribute"},
	run: func(ctx ctx, j *j, c string, req command.SkillDefineRequest) (res, error) {
		return j.DefineSkill(ctx, c, req.Name, req.Attribute)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.SkillDefineRequest, error) {
		d, _, err := find[events.SkillDefined](r, events.TypeSkillDefined)
		if err != nil {
			return command.SkillDefineRequest{}, err
		}
		return command.SkillDefineRequest{Name: d.Name, Attribute: d.Attribute}, nil
	}}
