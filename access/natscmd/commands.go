package natscmd

import (
	"context"
	"fmt"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// runFunc runs one command with its JSON body in campaign.
type runFunc func(ctx context.Context, j *command.Journal, campaign string, body []byte) (command.Result, error)

// Bodies of the commands whose handlers take plain arguments. The field
// names are the HTTP API's (web/commands.go); the acting character of each
// player command is in the field access.PlayerCommand names.
type (
	contestBody struct {
		A        string `json:"a"`
		SkillA   string `json:"skill_a"`
		B        string `json:"b"`
		SkillB   string `json:"skill_b"`
		EntropyA string `json:"entropy_a,omitempty"`
		EntropyB string `json:"entropy_b,omitempty"`
		Rematch  string `json:"rematch,omitempty"`
	}
	damageBody struct {
		Character string `json:"character"`
		Amount    int    `json:"amount"`
		Source    string `json:"source,omitempty"`
	}
	amountBody struct {
		Character string `json:"character"`
		Amount    int    `json:"amount"`
	}
	restBody struct {
		Comfort bool `json:"comfort,omitempty"`
	}
	characterEntropyBody struct {
		Character string `json:"character"`
		Entropy   string `json:"entropy,omitempty"`
	}
	raiseBody struct {
		Character string `json:"character"`
		Skill     string `json:"skill"`
	}
	characterBody struct {
		Character string `json:"character"`
	}
	reloadBody struct {
		Character string `json:"character"`
		Weapon    string `json:"weapon,omitempty"`
	}
	sessionStartBody struct {
		ID    string `json:"id,omitempty"`
		Title string `json:"title,omitempty"`
	}
	combatStartBody struct {
		Participants []string `json:"participants"`
		Entropy      string   `json:"entropy,omitempty"`
	}
	skillDefineBody struct {
		Name      string `json:"name"`
		Attribute string `json:"attribute"`
	}
	voidBody struct {
		EventID string `json:"event_id"`
		Reason  string `json:"reason"`
	}
	hopeBody struct {
		Character string `json:"character"`
		Roll      string `json:"roll,omitempty"`
	}
	voteBody struct {
		Character string `json:"character"`
		Voter     string `json:"voter"`
		Agree     bool   `json:"agree"`
	}
	shadowBody struct {
		Character string `json:"character"`
		Amount    int    `json:"amount"`
		Reason    string `json:"reason,omitempty"`
	}
	madnessBody struct {
		Character string `json:"character"`
		Flaw      string `json:"flaw"`
	}
	advancementBody struct {
		Character string `json:"character"`
		Group     string `json:"group"`
		Roll      string `json:"roll,omitempty"`
	}
	titleBody struct {
		Title string `json:"title,omitempty"`
	}
	noBody struct{}
)

// run builds a command whose body decodes strictly into T.
func run[T any](fn func(ctx context.Context, j *command.Journal, campaign string, req T) (command.Result, error)) runFunc {
	return func(ctx context.Context, j *command.Journal, campaign string, body []byte) (command.Result, error) {
		var req T
		if err := decodeStrict(body, &req); err != nil {
			return command.Result{}, err
		}
		return fn(ctx, j, campaign, req)
	}
}

// commandFor returns the command named name: the CLI's words joined with
// dashes, as in the HTTP API.
func commandFor(name string) (runFunc, bool) {
	type J = *command.Journal
	type C = context.Context
	switch name {
	case "campaign-create":
		return run(func(ctx C, j J, c string, req command.CreateCampaign) (command.Result, error) {
			if req.ID == "" {
				req.ID = c
			}
			if req.ID != c {
				return command.Result{}, fmt.Errorf("%w: campaign id %q in a request for campaign %q", command.ErrInvalid, req.ID, c)
			}
			return j.CreateCampaign(ctx, req)
		}), true
	case "character-create":
		return run(func(ctx C, j J, c string, req command.CreateCharacter) (command.Result, error) {
			return j.CreateCharacter(ctx, c, req)
		}), true
	case "weapon-define":
		return run(func(ctx C, j J, c string, req events.WeaponDefined) (command.Result, error) {
			return j.DefineWeapon(ctx, c, req)
		}), true
	case "skill-define":
		return run(func(ctx C, j J, c string, req skillDefineBody) (command.Result, error) {
			return j.DefineSkill(ctx, c, req.Name, req.Attribute)
		}), true
	case "session-start":
		return run(func(ctx C, j J, c string, req sessionStartBody) (command.Result, error) {
			return j.StartSession(ctx, c, req.ID, req.Title)
		}), true
	case "session-end":
		return run(func(ctx C, j J, c string, _ noBody) (command.Result, error) { return j.EndSession(ctx, c) }), true
	case "roll":
		return run(func(ctx C, j J, c string, req command.RollRequest) (command.Result, error) {
			return j.Roll(ctx, c, req)
		}), true
	case "contest":
		return run(func(ctx C, j J, c string, req contestBody) (command.Result, error) {
			return j.Contest(ctx, c, command.ContestRequest{A: req.A, SkillA: req.SkillA, B: req.B, SkillB: req.SkillB,
				EntropyA: req.EntropyA, EntropyB: req.EntropyB, Rematch: req.Rematch})
		}), true
	case "combat-start":
		return run(func(ctx C, j J, c string, req combatStartBody) (command.Result, error) {
			return j.StartCombat(ctx, c, req.Participants, req.Entropy)
		}), true
	case "combat-round":
		return run(func(ctx C, j J, c string, _ noBody) (command.Result, error) { return j.NextRound(ctx, c) }), true
	case "combat-end":
		return run(func(ctx C, j J, c string, _ noBody) (command.Result, error) { return j.EndCombat(ctx, c) }), true
	case "attack":
		return run(func(ctx C, j J, c string, req command.AttackRequest) (command.Result, error) {
			return j.Attack(ctx, c, req)
		}), true
	case "damage":
		return run(func(ctx C, j J, c string, req damageBody) (command.Result, error) {
			return j.Damage(ctx, c, req.Character, req.Amount, req.Source)
		}), true
	case "heal":
		return run(func(ctx C, j J, c string, req amountBody) (command.Result, error) {
			return j.Heal(ctx, c, req.Character, req.Amount)
		}), true
	case "rest":
		return run(func(ctx C, j J, c string, req restBody) (command.Result, error) { return j.Rest(ctx, c, req.Comfort) }), true
	case "heal-after-combat":
		return run(func(ctx C, j J, c string, req characterEntropyBody) (command.Result, error) {
			return j.HealAfterCombat(ctx, c, req.Character, req.Entropy)
		}), true
	case "xp":
		return run(func(ctx C, j J, c string, req amountBody) (command.Result, error) {
			return j.GrantXP(ctx, c, req.Character, req.Amount)
		}), true
	case "raise":
		return run(func(ctx C, j J, c string, req raiseBody) (command.Result, error) {
			return j.RaiseSkill(ctx, c, req.Character, req.Skill)
		}), true
	case "token-return":
		return run(func(ctx C, j J, c string, req characterBody) (command.Result, error) {
			return j.ReturnToken(ctx, c, req.Character)
		}), true
	case "day-new":
		return run(func(ctx C, j J, c string, _ noBody) (command.Result, error) { return j.NewDay(ctx, c) }), true
	case "reload":
		return run(func(ctx C, j J, c string, req reloadBody) (command.Result, error) {
			return j.Reload(ctx, c, req.Character, req.Weapon)
		}), true
	case "void":
		return run(func(ctx C, j J, c string, req voidBody) (command.Result, error) {
			return j.Void(ctx, c, req.EventID, req.Reason)
		}), true
	case "hope-spend":
		return run(func(ctx C, j J, c string, req hopeBody) (command.Result, error) {
			return j.SpendHope(ctx, c, req.Character, req.Roll)
		}), true
	case "fellowship-ask":
		return run(func(ctx C, j J, c string, req characterBody) (command.Result, error) {
			return j.RequestFellowship(ctx, c, req.Character)
		}), true
	case "fellowship-vote":
		return run(func(ctx C, j J, c string, req voteBody) (command.Result, error) {
			return j.Vote(ctx, c, req.Character, req.Voter, req.Agree)
		}), true
	case "fellowship-take":
		return run(func(ctx C, j J, c string, req characterBody) (command.Result, error) {
			return j.ResolveFellowship(ctx, c, req.Character, true)
		}), true
	case "fellowship-withdraw":
		return run(func(ctx C, j J, c string, req characterBody) (command.Result, error) {
			return j.ResolveFellowship(ctx, c, req.Character, false)
		}), true
	case "fellowship-phase":
		return run(func(ctx C, j J, c string, _ noBody) (command.Result, error) { return j.FellowshipPhase(ctx, c) }), true
	case "shadow-gain":
		return run(func(ctx C, j J, c string, req shadowBody) (command.Result, error) {
			return j.GainShadow(ctx, c, req.Character, req.Amount, req.Reason)
		}), true
	case "madness-end":
		return run(func(ctx C, j J, c string, req madnessBody) (command.Result, error) {
			return j.EndMadness(ctx, c, req.Character, req.Flaw)
		}), true
	case "trait-invoke":
		return run(func(ctx C, j J, c string, req command.TraitRequest) (command.Result, error) {
			return j.InvokeTrait(ctx, c, req)
		}), true
	case "advancement-grant":
		return run(func(ctx C, j J, c string, req advancementBody) (command.Result, error) {
			return j.GrantAdvancement(ctx, c, req.Character, req.Group, req.Roll)
		}), true
	case "adventure-start":
		return run(func(ctx C, j J, c string, req titleBody) (command.Result, error) {
			return j.StartAdventure(ctx, c, req.Title)
		}), true
	}
	return nil, false
}

// Commands lists the command names the service knows (besides the read,
// access.ReadCommand).
func Commands() []string {
	return []string{"campaign-create", "character-create", "weapon-define", "skill-define", "session-start", "session-end",
		"roll", "contest", "combat-start", "combat-round", "combat-end", "attack", "damage", "heal", "rest",
		"heal-after-combat", "xp", "raise", "token-return", "day-new", "reload", "void",
		"hope-spend", "fellowship-ask", "fellowship-vote", "fellowship-take", "fellowship-withdraw", "fellowship-phase",
		"shadow-gain", "madness-end", "trait-invoke", "advancement-grant", "adventure-start"}
}
