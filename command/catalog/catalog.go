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
)

// NoBody is the body of a command that takes none.
type NoBody struct{}

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

	run func(ctx context.Context, j *command.Handler, c command.Call, campaign string, body []byte) (command.Result, error)
	// inputs finds the command's body again in the events it recorded.
	inputs func(ctx context.Context, j *command.Handler, campaign string, recorded []events.Event) ([]byte, error)
}

// Run decodes body strictly, checks the required fields and runs the
// command in campaign on j's view for call c (command.Handler.For), c
// completed with what the catalogue knows: its events record the
// command's name (c.Command), and, unless the caller named what a retry
// under c.RequestID must be (c.What or c.Args: the CLI names its command
// line, so that the same line run again with the same --request-id is
// the same request even when what it signs differs), a retry must be
// this very command with this very body. A call For refuses records
// nothing.
func (s Spec) Run(ctx context.Context, j *command.Handler, c command.Call, campaign string, body []byte) (command.Result, error) {
	return s.run(ctx, j, c, campaign, body)
}

// Inputs returns the body the command was run with, found again in the
// events it recorded in campaign (in order), so that Run re-runs it; j is
// the journal it will re-run on, holding the state before it. An error
// says why the events are not what this command records.
func (s Spec) Inputs(ctx context.Context, j *command.Handler, campaign string, recorded []events.Event) ([]byte, error) {
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
	run            func(ctx context.Context, j *command.Handler, campaign string, req T) (command.Result, error)
	// inputs finds the request again in the command's events.
	inputs func(ctx context.Context, j *command.Handler, campaign string, recorded []events.Event) (T, error)
}

func (d def[T]) spec() Spec {
	var zero T
	role := GM
	if d.acting != "" {
		role = Player
	}
	return Spec{Name: d.name, Doc: d.doc, Body: zero, Required: d.required, CLI: d.cli, Role: role, Acting: d.acting, ActingOptional: d.actingOptional, Creates: d.creates,
		run: func(ctx context.Context, j *command.Handler, c command.Call, campaign string, body []byte) (command.Result, error) {
			var req T
			if err := DecodeStrict(body, &req); err != nil {
				return command.Result{}, err
			}
			if err := RequireFields(req, d.required); err != nil {
				return command.Result{}, err
			}
			c.Command = d.name
			if c.What == "" && c.Args == nil { // a retry under a request id must be this very command
				c.What, c.Args = d.name, req
			}
			v, err := j.For(c)
			if err != nil {
				return command.Result{}, err
			}
			return d.run(ctx, v, campaign, req)
		},
		inputs: func(ctx context.Context, j *command.Handler, campaign string, recorded []events.Event) ([]byte, error) {
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

// specs is every command, by the CLI's words joined with dashes, in the
// order of the CLI's help. A command is one declaration, in the file of
// its area (specs_*.go), and one line here: its HTTP route, NATS subject,
// CLI test, permission and reproduction follow from it.
func specs() []Spec {
	return []Spec{
		campaignCreateCmd.spec(),
		characterCreateCmd.spec(),
		weaponDefineCmd.spec(),
		skillDefineCmd.spec(),
		sessionStartCmd.spec(),
		sessionEndCmd.spec(),
		rollCmd.spec(),
		freeRollCmd.spec(),
		revealCmd.spec(),
		rollRequestCmd.spec(),
		rollRevealCmd.spec(),
		rollProveCmd.spec(),
		rollWitnessCmd.spec(),
		rollReceiptCmd.spec(),
		rollResolveCmd.spec(),
		rollCancelCmd.spec(),
		keyRegisterCmd.spec(),
		keyApproveCmd.spec(),
		keyRevokeCmd.spec(),
		sessionCosignCmd.spec(),
		sessionContributeCmd.spec(),
		contestCmd.spec(),
		combatStartCmd.spec(),
		combatRoundCmd.spec(),
		combatEndCmd.spec(),
		attackCmd.spec(),
		damageCmd.spec(),
		healCmd.spec(),
		restCmd.spec(),
		healAfterCombatCmd.spec(),
		xpCmd.spec(),
		raiseCmd.spec(),
		tokenReturnCmd.spec(),
		dayNewCmd.spec(),
		reloadCmd.spec(),
		voidCmd.spec(),
		callCmd.spec(),
		callCloseCmd.spec(),
		voidProposeCmd.spec(),
		voidConsentCmd.spec(),
		adventureStartCmd.spec(),
		traitInvokeCmd.spec(),
		hopeSpendCmd.spec(),
		fellowshipAskCmd.spec(),
		fellowshipVoteCmd.spec(),
		fellowshipTakeCmd.spec(),
		fellowshipWithdrawCmd.spec(),
		fellowshipPhaseCmd.spec(),
		shadowGainCmd.spec(),
		madnessEndCmd.spec(),
		advancementGrantCmd.spec(),
	}
}

// Shorthands of the commands' declarations (specs_*.go).
type (
	j   = command.Handler
	ctx = context.Context
	evs = []events.Event
	res = command.Result
)
