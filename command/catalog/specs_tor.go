package catalog

import (
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// The commands of The One Ring: one declaration each (see specs).

// adventureStartCmd is the catalogue's "adventure-start".
var adventureStartCmd = def[command.AdventureRequest]{name: "adventure-start", cli: "adventure start", doc: "The One Ring: start an adventure (sets the fellowship pool)",
	run: func(ctx ctx, j *j, c string, req command.AdventureRequest) (res, error) {
		return j.StartAdventure(ctx, c, req.Title)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.AdventureRequest, error) {
		d, _, err := find[events.TORAdventureStarted](r, events.TypeTORAdventureStarted)
		if err != nil {
			return command.AdventureRequest{}, err
		}
		return command.AdventureRequest{Title: d.Title}, nil
	}}

// traitInvokeCmd is the catalogue's "trait-invoke".
var traitInvokeCmd = def[command.TraitRequest]{name: "trait-invoke", cli: "trait invoke", doc: "The One Ring: invoke a trait before a roll", required: []string{"character", "trait"},
	run: func(ctx ctx, j *j, c string, req command.TraitRequest) (res, error) {
		return j.InvokeTrait(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.TraitRequest, error) {
		d, _, err := find[events.TORTraitInvoked](r, events.TypeTORTraitInvoked)
		if err != nil {
			return command.TraitRequest{}, err
		}
		return command.TraitRequest{Character: d.Character, Trait: d.Trait, Automatic: d.Automatic, Skill: d.Skill}, nil
	}}

// hopeSpendCmd is the catalogue's "hope-spend".
var hopeSpendCmd = def[command.HopeRequest]{name: "hope-spend", cli: "hope spend", doc: "The One Ring: spend 1 Hope on a failed roll", required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.HopeRequest) (res, error) {
		return j.SpendHope(ctx, c, req.Character, req.Roll)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.HopeRequest, error) {
		d, _, err := find[events.TORHopeSpent](r, events.TypeTORHopeSpent)
		if err != nil {
			return command.HopeRequest{}, err
		}
		return command.HopeRequest{Character: d.Character, Roll: d.Roll}, nil
	}}

// fellowshipAskCmd is the catalogue's "fellowship-ask".
var fellowshipAskCmd = def[command.CharacterRequest]{name: "fellowship-ask", cli: "fellowship ask", doc: "The One Ring: ask the fellowship for a point of the pool",
	required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.CharacterRequest) (res, error) {
		return j.RequestFellowship(ctx, c, req.Character)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.CharacterRequest, error) {
		d, _, err := find[events.TORFellowshipRequested](r, events.TypeTORFellowshipRequested)
		if err != nil {
			return command.CharacterRequest{}, err
		}
		return command.CharacterRequest{Character: d.Character}, nil
	}}

// fellowshipVoteCmd is the catalogue's "fellowship-vote".
var fellowshipVoteCmd = def[command.VoteRequest]{name: "fellowship-vote", cli: "fellowship vote", doc: "The One Ring: one member's vote on a request",
	required: []string{"character", "voter"}, acting: "voter",
	run: func(ctx ctx, j *j, c string, req command.VoteRequest) (res, error) {
		return j.Vote(ctx, c, req.Character, req.Voter, req.Agree)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.VoteRequest, error) {
		d, _, err := find[events.TORFellowshipVoted](r, events.TypeTORFellowshipVoted)
		if err != nil {
			return command.VoteRequest{}, err
		}
		return command.VoteRequest{Character: d.Character, Voter: d.Voter, Agree: d.Agree}, nil
	}}

// fellowshipTakeCmd is the catalogue's "fellowship-take".
var fellowshipTakeCmd = def[command.CharacterRequest]{name: "fellowship-take", cli: "fellowship take", doc: "The One Ring: take a refused point anyway (Shadow +1)",
	required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.CharacterRequest) (res, error) {
		return j.ResolveFellowship(ctx, c, req.Character, true)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.CharacterRequest, error) {
		d, _, err := find[events.TORFellowshipSpent](r, events.TypeTORFellowshipSpent)
		if err != nil {
			return command.CharacterRequest{}, err
		}
		return command.CharacterRequest{Character: d.Character}, nil
	}}

// fellowshipWithdrawCmd is the catalogue's "fellowship-withdraw".
var fellowshipWithdrawCmd = def[command.CharacterRequest]{name: "fellowship-withdraw", cli: "fellowship withdraw", doc: "The One Ring: withdraw a request",
	required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.CharacterRequest) (res, error) {
		return j.ResolveFellowship(ctx, c, req.Character, false)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.CharacterRequest, error) {
		d, _, err := find[events.TORFellowshipWithdrawn](r, events.TypeTORFellowshipWithdrawn)
		if err != nil {
			return command.CharacterRequest{}, err
		}
		return command.CharacterRequest{Character: d.Character}, nil
	}}

// fellowshipPhaseCmd is the catalogue's "fellowship-phase".
var fellowshipPhaseCmd = def[NoBody]{name: "fellowship-phase", cli: "fellowship phase", doc: "The One Ring: the fellowship phase ends the adventure",
	run: func(ctx ctx, j *j, c string, _ NoBody) (res, error) {
		return j.FellowshipPhase(ctx, c)
	},
	inputs: expect(events.TypeTORFellowshipPhase)}

// shadowGainCmd is the catalogue's "shadow-gain".
var shadowGainCmd = def[command.ShadowRequest]{name: "shadow-gain", cli: "shadow gain", doc: "The One Ring: a character gains Shadow", required: []string{"character", "amount"},
	run: func(ctx ctx, j *j, c string, req command.ShadowRequest) (res, error) {
		return j.GainShadow(ctx, c, req.Character, req.Amount, req.Reason)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.ShadowRequest, error) {
		d, _, err := find[events.TORShadowGained](r, events.TypeTORShadowGained)
		if err != nil {
			return command.ShadowRequest{}, err
		}
		return command.ShadowRequest{Character: d.Character, Amount: d.Amount, Reason: d.Reason}, nil
	}}

// madnessEndCmd is the catalogue's "madness-end".
var madnessEndCmd = def[command.MadnessRequest]{name: "madness-end", cli: "madness end", doc: "The One Ring: end a bout of madness with a flaw", required: []string{"character", "flaw"},
	run: func(ctx ctx, j *j, c string, req command.MadnessRequest) (res, error) {
		return j.EndMadness(ctx, c, req.Character, req.Flaw)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.MadnessRequest, error) {
		d, _, err := find[events.TORMadnessEnded](r, events.TypeTORMadnessEnded)
		if err != nil {
			return command.MadnessRequest{}, err
		}
		return command.MadnessRequest{Character: d.Character, Flaw: d.Flaw}, nil
	}}

// advancementGrantCmd is the catalogue's "advancement-grant".
var advancementGrantCmd = def[command.AdvancementRequest]{name: "advancement-grant", cli: "advancement grant", doc: "The One Ring: grant an advancement point in a skill group",
	required: []string{"character", "group"},
	run: func(ctx ctx, j *j, c string, req command.AdvancementRequest) (res, error) {
		return j.GrantAdvancement(ctx, c, req.Character, req.Group, req.Roll)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.AdvancementRequest, error) {
		d, _, err := find[events.TORAdvancementGranted](r, events.TypeTORAdvancementGranted)
		if err != nil {
			return command.AdvancementRequest{}, err
		}
		return command.AdvancementRequest{Character: d.Character, Group: d.Group, Roll: d.Roll}, nil
	}}
