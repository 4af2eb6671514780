package catalog

import (
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// The commands of The One Ring: one declaration each (see specs).

// adventureStartCmd is the catalogue's "adventure-start".
var adventureStartCmd = def[adventureBody]{name: "adventure-start", cli: "adventure start", doc: "The One Ring: start an adventure (sets the fellowship pool)",
	run: func(ctx ctx, j *j, c string, req adventureBody) (res, error) {
		return j.StartAdventure(ctx, c, req.Title)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (adventureBody, error) {
		d, _, err := find[events.TORAdventureStarted](r, events.TypeTORAdventureStarted)
		if err != nil {
			return adventureBody{}, err
		}
		return adventureBody{Title: d.Title}, nil
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
var hopeSpendCmd = def[hopeBody]{name: "hope-spend", cli: "hope spend", doc: "The One Ring: spend 1 Hope on a failed roll", required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req hopeBody) (res, error) {
		return j.SpendHope(ctx, c, req.Character, req.Roll)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (hopeBody, error) {
		d, _, err := find[events.TORHopeSpent](r, events.TypeTORHopeSpent)
		if err != nil {
			return hopeBody{}, err
		}
		return hopeBody{Character: d.Character, Roll: d.Roll}, nil
	}}

// fellowshipAskCmd is the catalogue's "fellowship-ask".
var fellowshipAskCmd = def[characterBody]{name: "fellowship-ask", cli: "fellowship ask", doc: "The One Ring: ask the fellowship for a point of the pool",
	required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req characterBody) (res, error) {
		return j.RequestFellowship(ctx, c, req.Character)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (characterBody, error) {
		d, _, err := find[events.TORFellowshipRequested](r, events.TypeTORFellowshipRequested)
		if err != nil {
			return characterBody{}, err
		}
		return characterBody{Character: d.Character}, nil
	}}

// fellowshipVoteCmd is the catalogue's "fellowship-vote".
var fellowshipVoteCmd = def[voteBody]{name: "fellowship-vote", cli: "fellowship vote", doc: "The One Ring: one member's vote on a request",
	required: []string{"character", "voter"}, acting: "voter",
	run: func(ctx ctx, j *j, c string, req voteBody) (res, error) {
		return j.Vote(ctx, c, req.Character, req.Voter, req.Agree)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (voteBody, error) {
		d, _, err := find[events.TORFellowshipVoted](r, events.TypeTORFellowshipVoted)
		if err != nil {
			return voteBody{}, err
		}
		return voteBody{Character: d.Character, Voter: d.Voter, Agree: d.Agree}, nil
	}}

// fellowshipTakeCmd is the catalogue's "fellowship-take".
var fellowshipTakeCmd = def[characterBody]{name: "fellowship-take", cli: "fellowship take", doc: "The One Ring: take a refused point anyway (Shadow +1)",
	required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req characterBody) (res, error) {
		return j.ResolveFellowship(ctx, c, req.Character, true)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (characterBody, error) {
		d, _, err := find[events.TORFellowshipSpent](r, events.TypeTORFellowshipSpent)
		if err != nil {
			return characterBody{}, err
		}
		return characterBody{Character: d.Character}, nil
	}}

// fellowshipWithdrawCmd is the catalogue's "fellowship-withdraw".
var fellowshipWithdrawCmd = def[characterBody]{name: "fellowship-withdraw", cli: "fellowship withdraw", doc: "The One Ring: withdraw a request",
	required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req characterBody) (res, error) {
		return j.ResolveFellowship(ctx, c, req.Character, false)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (characterBody, error) {
		d, _, err := find[events.TORFellowshipWithdrawn](r, events.TypeTORFellowshipWithdrawn)
		if err != nil {
			return characterBody{}, err
		}
		return characterBody{Character: d.Character}, nil
	}}

// fellowshipPhaseCmd is the catalogue's "fellowship-phase".
var fellowshipPhaseCmd = def[noBody]{name: "fellowship-phase", cli: "fellowship phase", doc: "The One Ring: the fellowship phase ends the adventure",
	run: func(ctx ctx, j *j, c string, _ noBody) (res, error) {
		return j.FellowshipPhase(ctx, c)
	},
	inputs: expect(events.TypeTORFellowshipPhase)}

// shadowGainCmd is the catalogue's "shadow-gain".
var shadowGainCmd = def[shadowBody]{name: "shadow-gain", cli: "shadow gain", doc: "The One Ring: a character gains Shadow", required: []string{"character", "amount"},
	run: func(ctx ctx, j *j, c string, req shadowBody) (res, error) {
		return j.GainShadow(ctx, c, req.Character, req.Amount, req.Reason)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (shadowBody, error) {
		d, _, err := find[events.TORShadowGained](r, events.TypeTORShadowGained)
		if err != nil {
			return shadowBody{}, err
		}
		return shadowBody{Character: d.Character, Amount: d.Amount, Reason: d.Reason}, nil
	}}

// madnessEndCmd is the catalogue's "madness-end".
var madnessEndCmd = def[madnessBody]{name: "madness-end", cli: "madness end", doc: "The One Ring: end a bout of madness with a flaw", required: []string{"character", "flaw"},
	run: func(ctx ctx, j *j, c string, req madnessBody) (res, error) {
		return j.EndMadness(ctx, c, req.Character, req.Flaw)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (madnessBody, error) {
		d, _, err := find[events.TORMadnessEnded](r, events.TypeTORMadnessEnded)
		if err != nil {
			return madnessBody{}, err
		}
		return madnessBody{Character: d.Character, Flaw: d.Flaw}, nil
	}}

// advancementGrantCmd is the catalogue's "advancement-grant".
var advancementGrantCmd = def[advancementBody]{name: "advancement-grant", cli: "advancement grant", doc: "The One Ring: grant an advancement point in a skill group",
	required: []string{"character", "group"},
	run: func(ctx ctx, j *j, c string, req advancementBody) (res, error) {
		return j.GrantAdvancement(ctx, c, req.Character, req.Group, req.Roll)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (advancementBody, error) {
		d, _, err := find[events.TORAdvancementGranted](r, events.TypeTORAdvancementGranted)
		if err != nil {
			return advancementBody{}, err
		}
		return advancementBody{Character: d.Character, Group: d.Group, Roll: d.Roll}, nil
	}}
