package command_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
)

// bidiControls are the characters that change the direction of the text
// around them, unseen: embeddings, overrides, isolates and marks.
var bidiControls = []rune{0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C}

// TestTextLimits: every free-text field of every command is bounded, in
// characters (not bytes: 'ñ' is one), and refuses control characters and
// bidirectional controls;
// a refusal names the field and its limit, and records nothing. At the
// limit the command is recorded.
func TestTextLimits(t *testing.T) {
	type run func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error)
	ryfChar := func(mod func(*command.CreateCharacter, string)) run {
		return func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			req := command.CreateCharacter{ID: fmt.Sprintf("pj%d", n), Name: "Pj", Player: "ana", Attributes: "F=8,R=7,D=9,I=8,P=8",
				Skills: "Pelea=5,Sigilo=3", Specialization: "Sigilo"}
			mod(&req, s)
			return j.CreateCharacter(ctx, "mordor", req)
		}
	}
	torChar := func(mod func(*command.CreateCharacter, string)) run {
		return func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			req := command.CreateCharacter{ID: fmt.Sprintf("pj%d", n), Name: "Pj", Player: "ana", Culture: "hobbit", MaxHope: 10,
				Attributes: "Cuerpo=4/6,Corazón=6/8,Mente=3/5", Skills: "Curar=2,Cazar=1", Traits: []string{"Leal"}}
			mod(&req, s)
			return j.CreateCharacter(ctx, arda, req)
		}
	}
	var voided string // the event the void case voids
	tests := []struct {
		field string
		limit int
		tor   bool
		run   run
		prep  func(ctx context.Context, j *command.Handler) error // before counting
	}{
		{"name", command.MaxName, false, func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: fmt.Sprintf("camp%d", n), Name: s, System: "ryf"})
		}, nil},
		{"name", command.MaxName, false, ryfChar(func(r *command.CreateCharacter, s string) { r.Name = s }), nil},
		// "player" is a user id now (CreateCharacter: events.ValidID), not a text.
		{"occupation", command.MaxName, false, ryfChar(func(r *command.CreateCharacter, s string) { r.Occupation = s }), nil},
		{"name", command.MaxName, false, func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			return j.DefineWeapon(ctx, "mordor", events.WeaponDefined{Name: s, Damage: "1d6", Skill: "Armas cuerpo a cuerpo"})
		}, nil},
		{"name", command.MaxName, false, func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			return j.DefineSkill(ctx, "mordor", s, "F")
		}, nil},
		{"title", command.MaxTitle, false, func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			return j.StartSession(ctx, "mordor", "", s)
		}, func(ctx context.Context, j *command.Handler) error {
			_, err := j.EndSession(ctx, "mordor")
			return err
		}},
		{"reason", command.MaxReason, false, func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			return j.Void(ctx, "mordor", voided, s)
		}, func(ctx context.Context, j *command.Handler) error {
			res, err := j.Damage(ctx, "mordor", "orco", 1, "")
			if err == nil {
				voided = res.Events[0].Event.ID
			}
			return err
		}},
		{"entropy", command.MaxEntropy, false, func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			return j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Entropy: strings.ReplaceAll(s, "ñ", "n")})
		}, nil},
		// The One Ring.
		{"name", command.MaxName, true, torChar(func(r *command.CreateCharacter, s string) { r.Name = s }), nil},
		{"culture", command.MaxName, true, torChar(func(r *command.CreateCharacter, s string) { r.Culture = s }), nil},
		{"traits[1]", command.MaxName, true, torChar(func(r *command.CreateCharacter, s string) { r.Traits = append(r.Traits, s) }), nil},
		{"title", command.MaxTitle, true, func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			return j.StartAdventure(ctx, arda, s)
		}, func(ctx context.Context, j *command.Handler) error {
			_, err := j.FellowshipPhase(ctx, arda)
			return err
		}},
		{"reason", command.MaxReason, true, func(ctx context.Context, j *command.Handler, s string, n int) (command.Result, error) {
			return j.GainShadow(ctx, arda, "bilbo", 1, s)
		}, nil},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%d-%s", i, tt.field), func(t *testing.T) {
			ctx := t.Context()
			st := memstore.New(memstore.Options{})
			j := newJournal(t, st)
			if tt.tor {
				setupTOR(t, j)
			} else {
				setup(t, j)
			}
			if tt.prep != nil {
				require.NoError(t, tt.prep(ctx, j))
			}
			// Characters, not bytes: 'ñ' is two bytes (entropy counts bytes: plain letters).
			at := strings.Repeat("ñ", tt.limit)
			n := count(t, st)
			bads := []struct{ s, want string }{
				{at + "x", fmt.Sprintf("at most %d", tt.limit)},
				{strings.Repeat("ñ", 120<<10), fmt.Sprintf("at most %d", tt.limit)},
				{"a\nb", "control character"},
				{"a\x00b", "control character"},
				{"a\u0085b", "control character"},
			}
			// The bidirectional controls: a name that shows otherwise than
			// it was recorded ("Orco\u202Eorue" reads "Orcoeuro").
			for _, r := range bidiControls {
				bads = append(bads, struct{ s, want string }{"Orco" + string(r) + "orue", fmt.Sprintf("bidirectional control character %U", r)})
			}
			for k, bad := range bads {
				_, err := tt.run(ctx, j, bad.s, 100+k)
				require.ErrorIs(t, err, command.ErrInvalid, "%.20q", bad.s)
				require.ErrorContains(t, err, tt.field, "%.20q: the error names the field", bad.s)
				require.ErrorContains(t, err, bad.want, "%.20q", bad.s)
				require.Equal(t, n, count(t, st), "%.20q: a refused command recorded something", bad.s)
			}
			_, err := tt.run(ctx, j, at, 1)
			require.NoError(t, err, "at the limit")
		})
	}
}
