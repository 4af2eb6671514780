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
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
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
		// Dice is v1 or v2 (journal-dice-v2); empty: v2 when a player of
		// the campaign has a registered device key, else v1.
		Dice string `json:"dice,omitempty"`
	}
	skillDefineBody struct {
		Name      string `json:"name"`
		Attribute string `json:"attribute"`
	}
	voidBody struct {
		EventID string `json:"event_id"`
		Reason  string `json:"reason"`
		// journal-dice-v2: the roller's signed void.consent, if any.
		ConsentSigned    string `json:"consent_signed,omitempty"`
		ConsentSignature string `json:"consent_signature,omitempty"`
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
	// revealBody names a GM's secret roll: its roll.hidden event's id,
	// or a part of it (its start or end, at least 4 characters).
	revealBody struct {
		Request string `json:"request"`
	}
	rollCancelBody struct {
		Request string `json:"request"`
		Reason  string `json:"reason"`
	}
	// rollResolveBody resolves a GM's request: unwitnessed (after its
	// wait) or by its beacon round (signature: the round's, in hex; empty:
	// the journal fetches it).
	rollResolveBody struct {
		Request     string `json:"request"`
		Unwitnessed bool   `json:"unwitnessed,omitempty"`
		Beacon      bool   `json:"beacon,omitempty"`
		Signature   string `json:"signature,omitempty"`
	}
	noBody struct{}
)

// Role is who may issue a command.
type Role string

// The roles a command may name.
const (
	// GM: the game master only (and the journal itself).
	GM Role = "gm"
	// Player: a player too, for a character of their own (Spec.Acting).
	Player Role = "player"
)

// Spec is one command: its name, what it does, an example of its body (its
// fields at their zero values) and the fields that may not be empty; its
// words on the command line, who may issue it, and how to find its inputs
// again in the events it recorded. It is the one list of commands: the
// HTTP API, the NATS command service, the CLI, the permissions (package
// access) and the reproduction (package reproduce) read it.
type Spec struct {
	Name     string   `json:"name"`
	Doc      string   `json:"doc"`
	Body     any      `json:"body"`
	Required []string `json:"required,omitempty"`
	// CLI is the command's words after `journal` (a test walks the CLI's
	// command tree for each).
	CLI string `json:"-"`
	// Role is who may issue it; for Player, Acting names the body's field
	// that holds the acting character, which must be the player's own.
	Role   Role   `json:"-"`
	Acting string `json:"-"`
	// ActingOptional: the GM may leave the acting character empty (a
	// free roll for no character); a player must still name its own
	// (access.Authorize refuses an empty one).
	ActingOptional bool `json:"-"`
	// Creates is set for the command that creates the campaign it runs in
	// (its body names it): the HTTP API takes it on POST /api/campaigns,
	// not with the other commands.
	Creates bool `json:"-"`

	run func(ctx context.Context, j *command.Journal, campaign string, body []byte, fingerprint bool) (command.Result, error)
	// inputs finds the command's body again in the events it recorded.
	inputs func(ctx context.Context, j *command.Journal, campaign string, recorded []events.Event) ([]byte, error)
}

// Run decodes body strictly, checks the required fields and runs the
// command in campaign. Its events record the command's name (see
// command.Journal.Named); under a request id, a retry must be this very
// command with this very body (command.Journal.ForCommand).
func (s Spec) Run(ctx context.Context, j *command.Journal, campaign string, body []byte) (command.Result, error) {
	return s.run(ctx, j, campaign, body, true)
}

// RunNamed is Run on a view whose caller already named what a retry
// under its request id must be (command.Journal.ForCommand: the CLI
// names its command line, so that the same line run again with the same
// --request-id is the same request even when what it signs differs).
func (s Spec) RunNamed(ctx context.Context, j *command.Journal, campaign string, body []byte) (command.Result, error) {
	return s.run(ctx, j, campaign, body, false)
}

// Inputs returns the body the command was run with, found again in the
// events it recorded in campaign (in order), so that Run re-runs it; j is
// the journal it will re-run on, holding the state before it. An error
// says why the events are not what this command records.
func (s Spec) Inputs(ctx context.Context, j *command.Journal, campaign string, recorded []events.Event) ([]byte, error) {
	if len(recorded) == 0 {
		return nil, msgerr.Errorf("%s: no events", s.Name)
	}
	return s.inputs(ctx, j, campaign, recorded)
}

// def is the definition of a command whose body decodes strictly into T.
type def[T any] struct {
	name, cli, doc string
	required       []string
	// acting is the field naming the acting character of a player
	// command; "" for a command of the game master.
	acting         string
	actingOptional bool
	creates        bool
	run            func(ctx context.Context, j *command.Journal, campaign string, req T) (command.Result, error)
	// inputs finds the request again in the command's events.
	inputs func(ctx context.Context, j *command.Journal, campaign string, recorded []events.Event) (T, error)
}

func (d def[T]) spec() Spec {
	var zero T
	role := GM
	if d.acting != "" {
		role = Player
	}
	return Spec{Name: d.name, Doc: d.doc, Body: zero, Required: d.required, CLI: d.cli, Role: role, Acting: d.acting, ActingOptional: d.actingOptional, Creates: d.creates,
		run: func(ctx context.Context, j *command.Journal, campaign string, body []byte, fingerprint bool) (command.Result, error) {
			var req T
			if err := DecodeStrict(body, &req); err != nil {
				return command.Result{}, err
			}
			if err := RequireFields(req, d.required); err != nil {
				return command.Result{}, err
			}
			j = j.Named(d.name)
			if fingerprint { // a retry under a request id must be this very command
				j = j.ForCommand(d.name, req)
			}
			return d.run(ctx, j, campaign, req)
		},
		inputs: func(ctx context.Context, j *command.Journal, campaign string, recorded []events.Event) ([]byte, error) {
			req, err := d.inputs(ctx, j, campaign, recorded)
			if err != nil {
				return nil, msgerr.Errorf("%s: %w", d.name, err)
			}
			return json.Marshal(req)
		}}
}

// All returns every command, in the order of the CLI's help.
func All() []Spec { return slices.Clone(all()) }

// Lookup finds a command by name.
func Lookup(name string) (Spec, bool) {
	specs := all()
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == name })
	if i < 0 {
		return Spec{}, false
	}
	return specs[i], true
}

// ByCLI finds a command by its words on the command line (Spec.CLI).
func ByCLI(words string) (Spec, bool) {
	specs := all()
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.CLI == words })
	if i < 0 {
		return Spec{}, false
	}
	return specs[i], true
}

// Names lists every command's name.
func Names() []string {
	specs := all()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
}

// all is every command (specs), built once; Specs are values, and All
// returns a copy of the list.
var all = sync.OnceValue(specs) // built on first use, not at process start (journal version)

// RequireFields refuses a request whose named JSON fields are empty.
func RequireFields(v any, names []string) error {
	rv := reflect.ValueOf(v)
	rt := rv.Type()
	for _, want := range names {
		for i := range rt.NumField() {
			tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if tag == want && rv.Field(i).IsZero() {
				return msgerr.Errorf("%w: %q is required", command.ErrInvalid, want)
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
		// encoding/json quotes an unknown member's name whole.
		if rest, ok := strings.CutPrefix(err.Error(), `json: unknown field "`); ok {
			if name, uerr := strconv.Unquote(`"` + rest); uerr == nil {
				return msgerr.Errorf("%w: request body: unknown field %q", command.ErrInvalid, clip.Text(name))
			}
		}
		return msgerr.Errorf("%w: request body: %w", command.ErrInvalid, err)
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return msgerr.Errorf("%w: request body: data after the JSON object", command.ErrInvalid)
	}
	return nil
}

// specs is every command, by the CLI's words joined with dashes. A new
// command is one entry here: its HTTP route, NATS subject, CLI test,
// permission and reproduction follow from it.
func specs() []Spec {
	type (
		j   = command.Journal
		ctx = context.Context
		evs = []events.Event
		res = command.Result
	)
	return []Spec{
		def[command.CreateCampaign]{name: "campaign-create", cli: "campaign create", creates: true,
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
			}}.spec(),
		def[command.CreateCharacter]{name: "character-create", cli: "character create", doc: "create a character", required: []string{"id"},
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
			}}.spec(),
		def[events.WeaponDefined]{name: "weapon-define", cli: "weapon define", doc: "add a weapon to the campaign", required: []string{"name", "damage"},
			run: func(ctx ctx, j *j, c string, req events.WeaponDefined) (res, error) {
				return j.DefineWeapon(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (events.WeaponDefined, error) {
				d, _, err := find[events.WeaponDefined](r, events.TypeWeaponDefined)
				if err != nil {
					return events.WeaponDefined{}, err
				}
				return *d, nil
			}}.spec(),
		def[skillDefineBody]{name: "skill-define", cli: "skill define", doc: "add a campaign skill with its attribute", required: []string{"name", "attribute"},
			run: func(ctx ctx, j *j, c string, req skillDefineBody) (res, error) {
				return j.DefineSkill(ctx, c, req.Name, req.Attribute)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (skillDefineBody, error) {
				d, _, err := find[events.SkillDefined](r, events.TypeSkillDefined)
				if err != nil {
					return skillDefineBody{}, err
				}
				return skillDefineBody{Name: d.Name, Attribute: d.Attribute}, nil
			}}.spec(),
		def[sessionStartBody]{name: "session-start", cli: "session start", doc: "start a session: commit to its secret seed",
			run: func(ctx ctx, j *j, c string, req sessionStartBody) (res, error) {
				return j.StartSessionWith(ctx, c, command.SessionStart{ID: req.ID, Title: req.Title, Dice: req.Dice})
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (sessionStartBody, error) {
				d, e, err := find[events.SessionStarted](r, events.TypeSessionStarted)
				if err != nil {
					return sessionStartBody{}, err
				}
				// The algorithm recorded, explicitly: the default depends on
				// the campaign's keys (command.DefaultDice).
				b := sessionStartBody{ID: e.Session, Title: d.Title, Dice: command.DiceV1}
				if d.Algorithm == dice.AlgorithmV2 {
					b.Dice = command.DiceV2
				}
				return b, nil
			}}.spec(),
		def[noBody]{name: "session-end", cli: "session end", doc: "end the session in progress: reveal its seed",
			run: func(ctx ctx, j *j, c string, _ noBody) (res, error) {
				return j.EndSession(ctx, c)
			},
			inputs: expect(events.TypeSessionEnded)}.spec(),
		def[command.RollRequest]{name: "roll", cli: "roll", doc: "a skill or attribute roll", required: []string{"character"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.RollRequest) (res, error) {
				return j.Roll(ctx, c, req)
			},
			inputs: rollInputs}.spec(),
		def[command.FreeRollRequest]{name: "free-roll", cli: "roll free",
			doc:      "a free roll of a dice expression (1d6, 2d10+3, 2d6+1d4-1): a player's for its character, the GM's for any or none; secret (the GM's) records it hidden until revealed",
			required: []string{"dice"}, acting: "character", actingOptional: true,
			run: func(ctx ctx, j *j, c string, req command.FreeRollRequest) (res, error) {
				return j.FreeRoll(ctx, c, req)
			},
			inputs: freeRollInputs}.spec(),
		def[revealBody]{name: "reveal", cli: "roll reveal-secret",
			doc:      "the GM reveals its secret roll (its roll.hidden event's id, or a part of it): the roll is recorded with its faces, drawn from the inputs recorded",
			required: []string{"request"},
			run: func(ctx ctx, j *j, c string, req revealBody) (res, error) {
				return j.Reveal(ctx, c, req.Request)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (revealBody, error) {
				d, _, err := find[events.RollMade](r, events.TypeRollMade)
				if err != nil {
					return revealBody{}, err
				}
				return revealBody{Request: d.Hidden}, nil
			}}.spec(),
		def[command.RollRequestSigned]{name: "roll-request", cli: "roll request",
			doc:      "journal-dice-v2: a device's signed roll.request (recorded with its nonce; nothing drawn); the character is the action's (the GM's free roll may name none)",
			required: []string{"signed", "signature"}, acting: "character", actingOptional: true,
			run: func(ctx ctx, j *j, c string, req command.RollRequestSigned) (res, error) {
				return j.RequestRoll(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollRequestSigned, error) {
				d, _, err := find[events.RollRequested](r, events.TypeRollRequested)
				if err != nil {
					// Hope re-judging a v2 roll records no request (v2_tor.go).
					if h, _, herr := find[events.TORHopeSpent](r, events.TypeTORHopeSpent); herr == nil && h.Signed != "" {
						return command.RollRequestSigned{Character: h.Character,
							SignedMessage: command.SignedMessage{Signed: h.Signed, Signature: h.Signature}}, nil
					}
					return command.RollRequestSigned{}, err
				}
				return command.RollRequestSigned{Character: d.Character,
					SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}, Wait: d.Wait}, nil
			}}.spec(),
		def[command.RollRevealSigned]{name: "roll-reveal", cli: "roll reveal",
			doc:      "journal-dice-v2: a device's signed roll.reveal of its request's r: the roll is drawn and recorded",
			required: []string{"character", "signed", "signature"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.RollRevealSigned) (res, error) {
				return j.RevealRoll(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollRevealSigned, error) {
				d, _, err := find[events.RollMade](r, events.TypeRollMade)
				if err != nil {
					return command.RollRevealSigned{}, err
				}
				return command.RollRevealSigned{Character: d.Character,
					SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
			}}.spec(),
		def[command.RollRevealSigned]{name: "roll-prove", cli: "roll prove",
			doc:      "journal-dice-v2: a device's signed roll.reveal sent again: a pending request's roll is drawn; a cancelled one records the roll it would have been (journal.roll.proved.v1, no consequence)",
			required: []string{"character", "signed", "signature"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.RollRevealSigned) (res, error) {
				return j.ProveRoll(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollRevealSigned, error) {
				if d, _, err := find[events.RollProved](r, events.TypeRollProved); err == nil {
					return command.RollRevealSigned{Character: d.Character,
						SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
				}
				d, _, err := find[events.RollMade](r, events.TypeRollMade)
				if err != nil {
					return command.RollRevealSigned{}, err
				}
				return command.RollRevealSigned{Character: d.Character,
					SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
			}}.spec(),
		def[command.RollWitnessSigned]{name: "roll-witness", cli: "roll witness",
			doc:      "journal-dice-v2: a player's device's signed roll.witness of a GM's request: in a session of witness chains its chain's value for the request's index, the roll drawn when every contributing device's is in; in an older session its value is r and the first draws the roll",
			required: []string{"character", "signed", "signature"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.RollWitnessSigned) (res, error) {
				return j.Witness(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollWitnessSigned, error) {
				if w, ev, err := find[events.RollWitnessed](r, events.TypeRollWitnessed); err == nil {
					// A witness of a session of witness chains, filed under
					// the request's character: the character is for the
					// permissions only, as below.
					_, character, err := ev.Aggregate()
					if err != nil {
						return command.RollWitnessSigned{}, err
					}
					return command.RollWitnessSigned{Character: character,
						SignedMessage: command.SignedMessage{Signed: w.Signed, Signature: w.Signature}}, nil
				}
				d, _, err := find[events.RollMade](r, events.TypeRollMade)
				if err != nil {
					return command.RollWitnessSigned{}, err
				}
				// The witness's own character is for the permissions only
				// (the roll does not record it): any character re-runs it.
				return command.RollWitnessSigned{Character: d.Character,
					SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
			}}.spec(),
		def[command.RollReceiptSigned]{name: "roll-receipt", cli: "roll receipt",
			doc:      "journal-dice-v2: a player's device's signed beacon.receipt of a GM's beacon request, before its round",
			required: []string{"character", "signed", "signature"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.RollReceiptSigned) (res, error) {
				return j.Receipt(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollReceiptSigned, error) {
				d, ev, err := find[events.RollReceipted](r, events.TypeRollReceipted)
				if err != nil {
					return command.RollReceiptSigned{}, err
				}
				// Filed under the request's character: for the permissions
				// only, as a witness's.
				_, character, err := ev.Aggregate()
				if err != nil {
					return command.RollReceiptSigned{}, err
				}
				return command.RollReceiptSigned{Character: character, SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
			}}.spec(),
		def[rollResolveBody]{name: "roll-resolve", cli: "roll resolve",
			doc:      "journal-dice-v2: the GM resolves its request unwitnessed (after its wait; the audit lists it) or by its beacon round",
			required: []string{"request"},
			run: func(ctx ctx, j *j, c string, req rollResolveBody) (res, error) {
				switch {
				case req.Unwitnessed == (req.Beacon || req.Signature != ""):
					return res{}, msgerr.Errorf("%w: resolve request %s either unwitnessed or by the beacon", command.ErrInvalid, req.Request)
				case req.Unwitnessed:
					return j.ResolveUnwitnessed(ctx, c, req.Request)
				}
				return j.ResolveBeacon(ctx, c, req.Request, req.Signature)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (rollResolveBody, error) {
				d, _, err := find[events.RollMade](r, events.TypeRollMade)
				if err != nil {
					return rollResolveBody{}, err
				}
				if d.Witness == command.WitnessBeacon {
					return rollResolveBody{Request: d.Request, Beacon: true, Signature: d.BeaconSignature}, nil
				}
				return rollResolveBody{Request: d.Request, Unwitnessed: true}, nil
			}}.spec(),
		def[rollCancelBody]{name: "roll-cancel", cli: "roll cancel",
			doc:      "journal-dice-v2: cancel a roll request left unrevealed (its nonce stays consumed)",
			required: []string{"request", "reason"},
			run: func(ctx ctx, j *j, c string, req rollCancelBody) (res, error) {
				return j.CancelRoll(ctx, c, req.Request, req.Reason)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (rollCancelBody, error) {
				d, _, err := find[events.RollCancelled](r, events.TypeRollCancelled)
				if err != nil {
					return rollCancelBody{}, err
				}
				return rollCancelBody{Request: d.Request, Reason: d.Reason}, nil
			}}.spec(),
		def[command.RegisterKey]{name: "key-register", cli: "key register",
			doc: "journal-dice-v2: register a device's public key: its own device.register signed by the key (signed, signature; with approval, a device.approve from another device of its user), or the GM's bare key for someone else (user, public_key: flagged key-by-other)",
			run: func(ctx ctx, j *j, c string, req command.RegisterKey) (res, error) {
				return j.RegisterKey(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.RegisterKey, error) {
				d, _, err := find[events.DeviceRegistered](r, events.TypeDeviceRegistered)
				if err != nil {
					old, _, oerr := find[events.ParticipantRegistered](r, events.TypeParticipantRegistered)
					if oerr != nil {
						return command.RegisterKey{}, err
					}
					// A legacy registration: a bare key (refused now for one's own).
					return command.RegisterKey{User: old.User, Role: old.Role, PublicKey: old.PublicKey}, nil
				}
				req := command.RegisterKey{SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}
				if d.Signed == "" {
					req = command.RegisterKey{User: d.User, Role: d.Role, Name: d.Name, PublicKey: d.PublicKey}
				}
				if a, _, err := find[events.DeviceApproved](r, events.TypeDeviceApproved); err == nil {
					req.Approval = &command.SignedMessage{Signed: a.Signed, Signature: a.Signature}
				}
				return req, nil
			}}.spec(),
		def[command.ApproveDevice]{name: "key-approve", cli: "key approve",
			doc:      "journal-dice-v2: a device.approve of one of a user's devices, signed by another of its active devices",
			required: []string{"character", "signed", "signature"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.ApproveDevice) (res, error) {
				return j.ApproveDevice(ctx, c, req)
			},
			inputs: func(cx ctx, jj *j, c string, r evs) (command.ApproveDevice, error) {
				d, _, err := find[events.DeviceApproved](r, events.TypeDeviceApproved)
				if err != nil {
					return command.ApproveDevice{}, err
				}
				return command.ApproveDevice{Character: characterOfPlayer(cx, jj, c, d.By),
					SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
			}}.spec(),
		def[command.RevokeDevice]{name: "key-revoke", cli: "key revoke",
			doc:      "journal-dice-v2: revoke a device: a device.revoke signed by a device of its user, or the GM's unsigned (user, public_key, reason: flagged revoked-by-other)",
			required: []string{"character"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.RevokeDevice) (res, error) {
				return j.RevokeDevice(ctx, c, req)
			},
			inputs: func(cx ctx, jj *j, c string, r evs) (command.RevokeDevice, error) {
				d, _, err := find[events.DeviceRevoked](r, events.TypeDeviceRevoked)
				if err != nil {
					return command.RevokeDevice{}, err
				}
				ch := characterOfPlayer(cx, jj, c, d.By)
				if d.Signed == "" {
					return command.RevokeDevice{Character: ch, User: d.User, PublicKey: d.PublicKey, Reason: d.Reason}, nil
				}
				return command.RevokeDevice{Character: ch, SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
			}}.spec(),
		def[command.CosignSigned]{name: "session-cosign", cli: "session cosign",
			doc:      "journal-dice-v2: a device's signed co-signature of an ended session's session-ended event (by its hash)",
			required: []string{"character", "signed", "signature"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.CosignSigned) (res, error) {
				return j.Cosign(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.CosignSigned, error) {
				d, _, err := find[events.SessionCosigned](r, events.TypeSessionCosigned)
				if err != nil {
					return command.CosignSigned{}, err
				}
				return command.CosignSigned{Character: d.Character,
					SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
			}}.spec(),
		def[command.ContributeSigned]{name: "session-contribute", cli: "session contribute",
			doc:      "journal-dice-v2: a device's signed contribution to the session key (before the first roll request)",
			required: []string{"character", "signed", "signature"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.ContributeSigned) (res, error) {
				return j.Contribute(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.ContributeSigned, error) {
				d, _, err := find[events.SessionContributed](r, events.TypeSessionContributed)
				if err != nil {
					return command.ContributeSigned{}, err
				}
				return command.ContributeSigned{Character: d.Character,
					SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
			}}.spec(),
		def[contestBody]{name: "contest", cli: "contest", doc: "an opposed roll", required: []string{"a", "skill_a", "b", "skill_b"},
			run: func(ctx ctx, j *j, c string, req contestBody) (res, error) {
				return j.Contest(ctx, c, command.ContestRequest{A: req.A, SkillA: req.SkillA, B: req.B, SkillB: req.SkillB,
					AttrA: req.AttrA, AttrB: req.AttrB, ModA: req.ModifierA, ModB: req.ModifierB,
					TokenA: req.TokenA, TokenB: req.TokenB, SpecA: req.SpecA, SpecB: req.SpecB,
					EntropyA: req.EntropyA, EntropyB: req.EntropyB, Rematch: req.Rematch})
			},
			inputs: contestInputs}.spec(),
		def[command.CombatStart]{name: "combat-start", cli: "combat start", doc: "roll initiative and start a combat", required: []string{"participants"},
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
			}}.spec(),
		def[noBody]{name: "combat-round", cli: "combat round", doc: "start the next round",
			run: func(ctx ctx, j *j, c string, _ noBody) (res, error) {
				return j.NextRound(ctx, c)
			},
			inputs: expect(events.TypeCombatRound)}.spec(),
		def[noBody]{name: "combat-end", cli: "combat end", doc: "end the combat",
			run: func(ctx ctx, j *j, c string, _ noBody) (res, error) {
				return j.EndCombat(ctx, c)
			},
			inputs: expect(events.TypeCombatEnded)}.spec(),
		def[command.AttackRequest]{name: "attack", cli: "attack", doc: "attack in turn order; a hit rolls and applies damage",
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
			}}.spec(),
		def[damageBody]{name: "damage", cli: "damage", doc: "apply damage by hand", required: []string{"character", "amount"},
			run: func(ctx ctx, j *j, c string, req damageBody) (res, error) {
				return j.Damage(ctx, c, req.Character, req.Amount, req.Source)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (damageBody, error) {
				d, _, err := find[events.DamageTaken](r, events.TypeDamageTaken)
				if err != nil {
					return damageBody{}, err
				}
				return damageBody{Character: d.Character, Amount: d.Amount, Source: d.Source}, nil
			}}.spec(),
		def[amountBody]{name: "heal", cli: "heal", doc: "heal by hand", required: []string{"character", "amount"},
			run: func(ctx ctx, j *j, c string, req amountBody) (res, error) {
				return j.Heal(ctx, c, req.Character, req.Amount)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (amountBody, error) {
				d, _, err := find[events.Healed](r, events.TypeHealed)
				if err != nil {
					return amountBody{}, err
				}
				return amountBody{Character: d.Character, Amount: d.Amount}, nil
			}}.spec(),
		def[restBody]{name: "rest", cli: "rest", doc: "a night's sleep for everyone: healing and a new day",
			run: func(ctx ctx, j *j, c string, req restBody) (res, error) {
				return j.Rest(ctx, c, req.Comfort)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (restBody, error) {
				d, _, err := find[events.DayStarted](r, events.TypeDayStarted)
				if err != nil {
					return restBody{}, err
				}
				return restBody{Comfort: d.Reason == "comfort"}, nil
			}}.spec(),
		def[characterEntropyBody]{name: "heal-after-combat", cli: "heal-after-combat", doc: "roll the 1d6 healing after the last combat",
			required: []string{"character"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req characterEntropyBody) (res, error) {
				return j.HealAfterCombat(ctx, c, req.Character, req.Entropy)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (characterEntropyBody, error) {
				rolls := rollsOf(r)
				if len(rolls) == 0 || rolls[0].Kind != "heal" {
					return characterEntropyBody{}, msgerr.New("no healing roll")
				}
				return characterEntropyBody{Character: rolls[0].Character, Entropy: rolls[0].Entropy}, nil
			}}.spec(),
		def[amountBody]{name: "xp", cli: "xp grant", doc: "grant XP (once per character per session)", required: []string{"character", "amount"},
			run: func(ctx ctx, j *j, c string, req amountBody) (res, error) {
				return j.GrantXP(ctx, c, req.Character, req.Amount)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (amountBody, error) {
				d, _, err := find[events.XPGranted](r, events.TypeXPGranted)
				if err != nil {
					return amountBody{}, err
				}
				return amountBody{Character: d.Character, Amount: d.Amount}, nil
			}}.spec(),
		def[raiseBody]{name: "raise", cli: "skill raise", doc: "spend XP to raise a skill one rank", required: []string{"character", "skill"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req raiseBody) (res, error) {
				return j.RaiseSkill(ctx, c, req.Character, req.Skill)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (raiseBody, error) {
				d, _, err := find[events.SkillRaised](r, events.TypeSkillRaised)
				if err != nil {
					return raiseBody{}, err
				}
				return raiseBody{Character: d.Character, Skill: d.Skill}, nil
			}}.spec(),
		def[characterBody]{name: "token-return", cli: "token return", doc: "the GM gives a character's token back", required: []string{"character"},
			run: func(ctx ctx, j *j, c string, req characterBody) (res, error) {
				return j.ReturnToken(ctx, c, req.Character)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (characterBody, error) {
				d, _, err := find[events.TokenReturned](r, events.TypeTokenReturned)
				if err != nil {
					return characterBody{}, err
				}
				return characterBody{Character: d.Character}, nil
			}}.spec(),
		def[noBody]{name: "day-new", cli: "day new", doc: "start a new in-game day",
			run: func(ctx ctx, j *j, c string, _ noBody) (res, error) {
				return j.NewDay(ctx, c)
			},
			inputs: expect(events.TypeDayStarted)}.spec(),
		def[reloadBody]{name: "reload", cli: "reload", doc: "reload a magazine weapon", required: []string{"character"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req reloadBody) (res, error) {
				return j.Reload(ctx, c, req.Character, req.Weapon)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (reloadBody, error) {
				d, _, err := find[events.WeaponReloaded](r, events.TypeWeaponReloaded)
				if err != nil {
					return reloadBody{}, err
				}
				return reloadBody{Character: d.Character, Weapon: d.Weapon}, nil
			}}.spec(),
		def[voidBody]{name: "void", cli: "void", doc: "correct a mistake: the event stays, the sheets leave it out", required: []string{"event_id", "reason"},
			run: func(ctx ctx, j *j, c string, req voidBody) (res, error) {
				return j.VoidWithConsent(ctx, c, req.EventID, req.Reason,
					command.SignedMessage{Signed: req.ConsentSigned, Signature: req.ConsentSignature})
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (voidBody, error) {
				d, _, err := find[events.EventVoided](r, events.TypeEventVoided)
				if err != nil {
					return voidBody{}, err
				}
				return voidBody{EventID: d.EventID, Reason: d.Reason, ConsentSigned: d.ConsentSigned, ConsentSignature: d.ConsentSignature}, nil
			}}.spec(),
		// The table's roll calls and void proposals (command/calls.go,
		// command/void_proposals.go).
		def[command.CallRequest]{name: "call", cli: "call", doc: "the GM's roll call: characters to roll a skill or attribute (named as the rules do), against a difficulty, with a note; each answers once with a roll naming the call",
			required: []string{"characters"},
			run: func(ctx ctx, j *j, c string, req command.CallRequest) (res, error) {
				return j.MakeCall(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.CallRequest, error) {
				d, _, err := find[events.CallMade](r, events.TypeCallMade)
				if err != nil {
					return command.CallRequest{}, err
				}
				return command.CallRequest{Characters: d.Characters, Skill: d.Skill, Attribute: d.Attribute, Vs: d.Vs, Note: d.Note}, nil
			}}.spec(),
		def[command.CallClose]{name: "call-close", cli: "call close", doc: "close a roll call: it takes no more answers", required: []string{"call"},
			run: func(ctx ctx, j *j, c string, req command.CallClose) (res, error) {
				return j.CloseCall(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.CallClose, error) {
				d, _, err := find[events.CallClosed](r, events.TypeCallClosed)
				if err != nil {
					return command.CallClose{}, err
				}
				return command.CallClose{Call: d.Call, Reason: d.Reason}, nil
			}}.spec(),
		def[command.VoidPropose]{name: "void-propose", cli: "void propose", doc: "journal-dice-v2: propose to void a roll, asking its roller's signed consent", required: []string{"event_id", "reason"},
			run: func(ctx ctx, j *j, c string, req command.VoidPropose) (res, error) {
				return j.ProposeVoid(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.VoidPropose, error) {
				d, _, err := find[events.VoidProposed](r, events.TypeVoidProposed)
				if err != nil {
					return command.VoidPropose{}, err
				}
				return command.VoidPropose{EventID: d.EventID, Reason: d.Reason}, nil
			}}.spec(),
		def[command.VoidConsent]{name: "void-consent", cli: "void consent", doc: "journal-dice-v2: a roller's device's signed void.consent for a void proposal",
			required: []string{"character", "proposal", "signed", "signature"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req command.VoidConsent) (res, error) {
				return j.ConsentVoid(ctx, c, req)
			},
			inputs: func(cx ctx, j *j, campaign string, r evs) (command.VoidConsent, error) {
				d, _, err := find[events.VoidConsented](r, events.TypeVoidConsented)
				if err != nil {
					return command.VoidConsent{}, err
				}
				character := ""
				if c, err := j.Load(cx, campaign, 0); err == nil {
					if p := c.OpenVoidProposal(d.Proposal); p != nil {
						character = p.Character
					}
				}
				return command.VoidConsent{Character: character, Proposal: d.Proposal,
					SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
			}}.spec(),
		// The One Ring.
		def[adventureBody]{name: "adventure-start", cli: "adventure start", doc: "The One Ring: start an adventure (sets the fellowship pool)",
			run: func(ctx ctx, j *j, c string, req adventureBody) (res, error) {
				return j.StartAdventure(ctx, c, req.Title)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (adventureBody, error) {
				d, _, err := find[events.TORAdventureStarted](r, events.TypeTORAdventureStarted)
				if err != nil {
					return adventureBody{}, err
				}
				return adventureBody{Title: d.Title}, nil
			}}.spec(),
		def[command.TraitRequest]{name: "trait-invoke", cli: "trait invoke", doc: "The One Ring: invoke a trait before a roll", required: []string{"character", "trait"},
			run: func(ctx ctx, j *j, c string, req command.TraitRequest) (res, error) {
				return j.InvokeTrait(ctx, c, req)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (command.TraitRequest, error) {
				d, _, err := find[events.TORTraitInvoked](r, events.TypeTORTraitInvoked)
				if err != nil {
					return command.TraitRequest{}, err
				}
				return command.TraitRequest{Character: d.Character, Trait: d.Trait, Automatic: d.Automatic, Skill: d.Skill}, nil
			}}.spec(),
		def[hopeBody]{name: "hope-spend", cli: "hope spend", doc: "The One Ring: spend 1 Hope on a failed roll", required: []string{"character"}, acting: "character",
			run: func(ctx ctx, j *j, c string, req hopeBody) (res, error) {
				return j.SpendHope(ctx, c, req.Character, req.Roll)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (hopeBody, error) {
				d, _, err := find[events.TORHopeSpent](r, events.TypeTORHopeSpent)
				if err != nil {
					return hopeBody{}, err
				}
				return hopeBody{Character: d.Character, Roll: d.Roll}, nil
			}}.spec(),
		def[characterBody]{name: "fellowship-ask", cli: "fellowship ask", doc: "The One Ring: ask the fellowship for a point of the pool",
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
			}}.spec(),
		def[voteBody]{name: "fellowship-vote", cli: "fellowship vote", doc: "The One Ring: one member's vote on a request",
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
			}}.spec(),
		def[characterBody]{name: "fellowship-take", cli: "fellowship take", doc: "The One Ring: take a refused point anyway (Shadow +1)",
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
			}}.spec(),
		def[characterBody]{name: "fellowship-withdraw", cli: "fellowship withdraw", doc: "The One Ring: withdraw a request",
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
			}}.spec(),
		def[noBody]{name: "fellowship-phase", cli: "fellowship phase", doc: "The One Ring: the fellowship phase ends the adventure",
			run: func(ctx ctx, j *j, c string, _ noBody) (res, error) {
				return j.FellowshipPhase(ctx, c)
			},
			inputs: expect(events.TypeTORFellowshipPhase)}.spec(),
		def[shadowBody]{name: "shadow-gain", cli: "shadow gain", doc: "The One Ring: a character gains Shadow", required: []string{"character", "amount"},
			run: func(ctx ctx, j *j, c string, req shadowBody) (res, error) {
				return j.GainShadow(ctx, c, req.Character, req.Amount, req.Reason)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (shadowBody, error) {
				d, _, err := find[events.TORShadowGained](r, events.TypeTORShadowGained)
				if err != nil {
					return shadowBody{}, err
				}
				return shadowBody{Character: d.Character, Amount: d.Amount, Reason: d.Reason}, nil
			}}.spec(),
		def[madnessBody]{name: "madness-end", cli: "madness end", doc: "The One Ring: end a bout of madness with a flaw", required: []string{"character", "flaw"},
			run: func(ctx ctx, j *j, c string, req madnessBody) (res, error) {
				return j.EndMadness(ctx, c, req.Character, req.Flaw)
			},
			inputs: func(_ ctx, _ *j, _ string, r evs) (madnessBody, error) {
				d, _, err := find[events.TORMadnessEnded](r, events.TypeTORMadnessEnded)
				if err != nil {
					return madnessBody{}, err
				}
				return madnessBody{Character: d.Character, Flaw: d.Flaw}, nil
			}}.spec(),
		def[advancementBody]{name: "advancement-grant", cli: "advancement grant", doc: "The One Ring: grant an advancement point in a skill group",
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
			}}.spec(),
	}
}
