// Package catalog names every command of the journal with its JSON request
// body, so that every surface that takes commands as JSON — the HTTP API,
// the NATS command service — offers the same commands, with the same
// names and bodies, decoded with the same strictness.
//
// Invariants: a body is decoded strictly (unknown fields, trailing data and
// malformed JSON are refused) and its required fields must be set, before
// any handler runs; every refusal wraps command.ErrInvalid and records
// nothing. Names are the CLI's words joined with dashes.
package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// Bodies of the commands whose handlers take plain arguments. Field names
// follow the CLI's words; the acting character of a player's command is in
// the field access.PlayerCommand names.
type (
	// contestBody: skill_a and skill_b are a skill or an attribute; each
	// side may have the attribute the GM names (for a skill), a modifier,
	// the token and the specialization.
	contestBody struct {
		A         string `json:"a"`
		SkillA    string `json:"skill_a"`
		AttrA     string `json:"attr_a,omitempty"`
		ModifierA int    `json:"modifier_a,omitempty"`
		TokenA    bool   `json:"token_a,omitempty"`
		SpecA     bool   `json:"specialization_a,omitempty"`
		EntropyA  string `json:"entropy_a,omitempty"`
		B         string `json:"b"`
		SkillB    string `json:"skill_b"`
		AttrB     string `json:"attr_b,omitempty"`
		ModifierB int    `json:"modifier_b,omitempty"`
		TokenB    bool   `json:"token_b,omitempty"`
		SpecB     bool   `json:"specialization_b,omitempty"`
		EntropyB  string `json:"entropy_b,omitempty"`
		Rematch   string `json:"rematch,omitempty"`
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
		// Roll is the roll's event id; empty: the character's latest roll.
		Roll string `json:"roll,omitempty"`
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
		// Group is a skill group, or one of its skills.
		Group string `json:"group"`
		// Roll is the roll that earned the point; empty: the GM's decision.
		Roll string `json:"roll,omitempty"`
	}
	adventureBody struct {
		Title string `json:"title,omitempty"`
	}
	noBody struct{}
)

// Spec is one command: its name, what it does, an example of its body (its
// fields at their zero values) and the fields that may not be empty.
type Spec struct {
	Name     string   `json:"name"`
	Doc      string   `json:"doc"`
	Body     any      `json:"body"`
	Required []string `json:"required,omitempty"`
	run      func(ctx context.Context, j *command.Journal, campaign string, body []byte) (command.Result, error)
}

// Run decodes body strictly, checks the required fields and runs the
// command in campaign.
func (s Spec) Run(ctx context.Context, j *command.Journal, campaign string, body []byte) (command.Result, error) {
	return s.run(ctx, j, campaign, body)
}

// spec builds a command whose body decodes strictly into T.
func spec[T any](name, doc string, required []string, run func(ctx context.Context, j *command.Journal, campaign string, req T) (command.Result, error)) Spec {
	var zero T
	return Spec{Name: name, Doc: doc, Body: zero, Required: required, run: func(ctx context.Context, j *command.Journal, campaign string, body []byte) (command.Result, error) {
		var req T
		if err := DecodeStrict(body, &req); err != nil {
			return command.Result{}, err
		}
		if err := RequireFields(req, required); err != nil {
			return command.Result{}, err
		}
		// A retry under a request id must be this very command.
		return run(ctx, j.ForCommand(name, req), campaign, req)
	}}
}

// All returns every command, in the order of the CLI's help.
func All() []Spec { return specs() }

// Lookup finds a command by name.
func Lookup(name string) (Spec, bool) {
	all := specs()
	i := slices.IndexFunc(all, func(s Spec) bool { return s.Name == name })
	if i < 0 {
		return Spec{}, false
	}
	return all[i], true
}

// Names lists every command's name.
func Names() []string {
	all := specs()
	names := make([]string, len(all))
	for i, s := range all {
		names[i] = s.Name
	}
	return names
}

// RequireFields refuses a request whose named JSON fields are empty.
func RequireFields(v any, names []string) error {
	rv := reflect.ValueOf(v)
	rt := rv.Type()
	for _, want := range names {
		for i := range rt.NumField() {
			tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if tag == want && rv.Field(i).IsZero() {
				return fmt.Errorf("%w: %q is required", command.ErrInvalid, want)
			}
		}
	}
	return nil
}

// DecodeStrict decodes one JSON object into v: unknown fields and anything
// after the object are refused. An empty body is an empty object.
func DecodeStrict(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%w: request body: %w", command.ErrInvalid, err)
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: request body: data after the JSON object", command.ErrInvalid)
	}
	return nil
}

// specs is every command, by the CLI's words joined with dashes.
func specs() []Spec {
	return []Spec{
		spec("character-create", "create a character", []string{"id"},
			func(ctx context.Context, j *command.Journal, c string, req command.CreateCharacter) (command.Result, error) {
				return j.CreateCharacter(ctx, c, req)
			}),
		spec("weapon-define", "add a weapon to the campaign", []string{"name", "damage"},
			func(ctx context.Context, j *command.Journal, c string, req events.WeaponDefined) (command.Result, error) {
				return j.DefineWeapon(ctx, c, req)
			}),
		spec("skill-define", "add a campaign skill with its attribute", []string{"name", "attribute"},
			func(ctx context.Context, j *command.Journal, c string, req skillDefineBody) (command.Result, error) {
				return j.DefineSkill(ctx, c, req.Name, req.Attribute)
			}),
		spec("session-start", "start a session: commit to its secret seed", nil,
			func(ctx context.Context, j *command.Journal, c string, req sessionStartBody) (command.Result, error) {
				return j.StartSession(ctx, c, req.ID, req.Title)
			}),
		spec("session-end", "end the session in progress: reveal its seed", nil,
			func(ctx context.Context, j *command.Journal, c string, _ noBody) (command.Result, error) {
				return j.EndSession(ctx, c)
			}),
		spec("roll", "a skill or attribute roll", []string{"character"},
			func(ctx context.Context, j *command.Journal, c string, req command.RollRequest) (command.Result, error) {
				return j.Roll(ctx, c, req)
			}),
		spec("contest", "an opposed roll", []string{"a", "skill_a", "b", "skill_b"},
			func(ctx context.Context, j *command.Journal, c string, req contestBody) (command.Result, error) {
				return j.Contest(ctx, c, command.ContestRequest{A: req.A, SkillA: req.SkillA, B: req.B, SkillB: req.SkillB,
					AttrA: req.AttrA, AttrB: req.AttrB, ModA: req.ModifierA, ModB: req.ModifierB,
					TokenA: req.TokenA, TokenB: req.TokenB, SpecA: req.SpecA, SpecB: req.SpecB,
					EntropyA: req.EntropyA, EntropyB: req.EntropyB, Rematch: req.Rematch})
			}),
		spec("combat-start", "roll initiative and start a combat", []string{"participants"},
			func(ctx context.Context, j *command.Journal, c string, req command.CombatStart) (command.Result, error) {
				return j.StartCombatWith(ctx, c, req)
			}),
		spec("combat-round", "start the next round", nil,
			func(ctx context.Context, j *command.Journal, c string, _ noBody) (command.Result, error) {
				return j.NextRound(ctx, c)
			}),
		spec("combat-end", "end the combat", nil,
			func(ctx context.Context, j *command.Journal, c string, _ noBody) (command.Result, error) {
				return j.EndCombat(ctx, c)
			}),
		spec("attack", "attack in turn order; a hit rolls and applies damage", []string{"attacker", "target"},
			func(ctx context.Context, j *command.Journal, c string, req command.AttackRequest) (command.Result, error) {
				return j.Attack(ctx, c, req)
			}),
		spec("damage", "apply damage by hand", []string{"character", "amount"},
			func(ctx context.Context, j *command.Journal, c string, req damageBody) (command.Result, error) {
				return j.Damage(ctx, c, req.Character, req.Amount, req.Source)
			}),
		spec("heal", "heal by hand", []string{"character", "amount"},
			func(ctx context.Context, j *command.Journal, c string, req amountBody) (command.Result, error) {
				return j.Heal(ctx, c, req.Character, req.Amount)
			}),
		spec("rest", "a night's sleep for everyone: healing and a new day", nil,
			func(ctx context.Context, j *command.Journal, c string, req restBody) (command.Result, error) {
				return j.Rest(ctx, c, req.Comfort)
			}),
		spec("heal-after-combat", "roll the 1d6 healing after the last combat", []string{"character"},
			func(ctx context.Context, j *command.Journal, c string, req characterEntropyBody) (command.Result, error) {
				return j.HealAfterCombat(ctx, c, req.Character, req.Entropy)
			}),
		spec("xp", "grant XP (once per character per session)", []string{"character", "amount"},
			func(ctx context.Context, j *command.Journal, c string, req amountBody) (command.Result, error) {
				return j.GrantXP(ctx, c, req.Character, req.Amount)
			}),
		spec("raise", "spend XP to raise a skill one rank", []string{"character", "skill"},
			func(ctx context.Context, j *command.Journal, c string, req raiseBody) (command.Result, error) {
				return j.RaiseSkill(ctx, c, req.Character, req.Skill)
			}),
		spec("token-return", "the GM gives a character's token back", []string{"character"},
			func(ctx context.Context, j *command.Journal, c string, req characterBody) (command.Result, error) {
				return j.ReturnToken(ctx, c, req.Character)
			}),
		spec("day-new", "start a new in-game day", nil,
			func(ctx context.Context, j *command.Journal, c string, _ noBody) (command.Result, error) {
				return j.NewDay(ctx, c)
			}),
		spec("reload", "reload a magazine weapon", []string{"character"},
			func(ctx context.Context, j *command.Journal, c string, req reloadBody) (command.Result, error) {
				return j.Reload(ctx, c, req.Character, req.Weapon)
			}),
		spec("void", "correct a mistake: the event stays, the sheets leave it out", []string{"event_id", "reason"},
			func(ctx context.Context, j *command.Journal, c string, req voidBody) (command.Result, error) {
				return j.Void(ctx, c, req.EventID, req.Reason)
			}),
		// The One Ring.
		spec("adventure-start", "The One Ring: start an adventure (sets the fellowship pool)", nil,
			func(ctx context.Context, j *command.Journal, c string, req adventureBody) (command.Result, error) {
				return j.StartAdventure(ctx, c, req.Title)
			}),
		spec("trait-invoke", "The One Ring: invoke a trait before a roll", []string{"character", "trait"},
			func(ctx context.Context, j *command.Journal, c string, req command.TraitRequest) (command.Result, error) {
				return j.InvokeTrait(ctx, c, req)
			}),
		spec("hope-spend", "The One Ring: spend 1 Hope on a failed roll", []string{"character"},
			func(ctx context.Context, j *command.Journal, c string, req hopeBody) (command.Result, error) {
				return j.SpendHope(ctx, c, req.Character, req.Roll)
			}),
		spec("fellowship-ask", "The One Ring: ask the fellowship for a point of the pool", []string{"character"},
			func(ctx context.Context, j *command.Journal, c string, req characterBody) (command.Result, error) {
				return j.RequestFellowship(ctx, c, req.Character)
			}),
		spec("fellowship-vote", "The One Ring: one member's vote on a request", []string{"character", "voter"},
			func(ctx context.Context, j *command.Journal, c string, req voteBody) (command.Result, error) {
				return j.Vote(ctx, c, req.Character, req.Voter, req.Agree)
			}),
		spec("fellowship-take", "The One Ring: take a refused point anyway (Shadow +1)", []string{"character"},
			func(ctx context.Context, j *command.Journal, c string, req characterBody) (command.Result, error) {
				return j.ResolveFellowship(ctx, c, req.Character, true)
			}),
		spec("fellowship-withdraw", "The One Ring: withdraw a request", []string{"character"},
			func(ctx context.Context, j *command.Journal, c string, req characterBody) (command.Result, error) {
				return j.ResolveFellowship(ctx, c, req.Character, false)
			}),
		spec("fellowship-phase", "The One Ring: the fellowship phase ends the adventure", nil,
			func(ctx context.Context, j *command.Journal, c string, _ noBody) (command.Result, error) {
				return j.FellowshipPhase(ctx, c)
			}),
		spec("shadow-gain", "The One Ring: a character gains Shadow", []string{"character", "amount"},
			func(ctx context.Context, j *command.Journal, c string, req shadowBody) (command.Result, error) {
				return j.GainShadow(ctx, c, req.Character, req.Amount, req.Reason)
			}),
		spec("madness-end", "The One Ring: end a bout of madness with a flaw", []string{"character", "flaw"},
			func(ctx context.Context, j *command.Journal, c string, req madnessBody) (command.Result, error) {
				return j.EndMadness(ctx, c, req.Character, req.Flaw)
			}),
		spec("advancement-grant", "The One Ring: grant an advancement point in a skill group", []string{"character", "group"},
			func(ctx context.Context, j *command.Journal, c string, req advancementBody) (command.Result, error) {
				return j.GrantAdvancement(ctx, c, req.Character, req.Group, req.Roll)
			}),
	}
}
