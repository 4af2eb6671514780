package cobraspec_test

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/clicomplete"
	"github.com/campaign-journal/journal/cobraspec"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/rules/tor"
)

// fake is a Runner that records what the generated commands ask of it.
type fake struct {
	v2       bool
	ran      []string // name of each RunSpec
	bodies   []any
	resolved []string // kind:arg of each Resolve
}

func (f *fake) RunSpec(_ *cobra.Command, name string, body any) error {
	f.ran, f.bodies = append(f.ran, name), append(f.bodies, body)
	return nil
}

func (f *fake) Resolve(_ *cobra.Command, kind string, arg *string) error {
	f.resolved = append(f.resolved, kind+":"+*arg)
	*arg = "whole-" + *arg
	return nil
}

func (f *fake) InV2Session(*cobra.Command) (bool, error) { return f.v2, nil }

// build is the command of the catalogued command b names, run by f.
func build(t *testing.T, f *fake, b cobraspec.Bound[*fake]) *cobra.Command {
	t.Helper()
	s, ok := catalog.Lookup(b.Name)
	require.True(t, ok, b.Name)
	require.Equal(t, reflect.TypeOf(s.Body), b.Body, "the form of %s reads the catalogue's body", b.Name)
	return b.Command(f, s)
}

// run runs c with args as the command line.
func run(c *cobra.Command, args ...string) error {
	c.SetArgs(args)
	c.SetOut(io.Discard)
	c.SetErr(io.Discard)
	c.SilenceUsage, c.SilenceErrors = true, true
	return c.Execute()
}

// TestGeneratedCommandReadsItsTags: a command built from the catalogue
// takes its arguments in field order, its flags by their tags, its
// required flags from the Spec, its completion from the complete tags.
func TestGeneratedCommandReadsItsTags(t *testing.T) {
	f := &fake{}
	damage := build(t, f, cobraspec.Bind("damage", cobraspec.Form[*fake, command.DamageRequest]{Positive: "damage"}))
	require.Equal(t, "damage CHAR N [--source CHAR]", damage.Use)
	require.Equal(t, "damage", damage.Annotations[exitcode.AnnPositive])
	require.Equal(t, "character,", damage.Annotations[clicomplete.Annotation])
	require.Equal(t, []string{"character"}, damage.Flags().Lookup("source").Annotations[clicomplete.Annotation])
	madness := build(t, f, cobraspec.Bind("madness-end", cobraspec.Form[*fake, command.MadnessRequest]{}))
	require.Equal(t, "end CHAR --flaw F", madness.Use)
	require.Equal(t, []string{"true"}, madness.Flags().Lookup("flaw").Annotations[cobra.BashCompOneRequiredFlag])
	contest := build(t, f, cobraspec.Bind("contest", cobraspec.Form[*fake, command.ContestRequest]{Key: "the key"}))
	require.Equal(t, "character,skill,character,skill", contest.Annotations[clicomplete.Annotation])
	require.NotNil(t, contest.Flags().Lookup("attr-a"), "the deprecated alias")
	require.NotNil(t, contest.Flags().Lookup("name"), "the form's own flag")
	require.Error(t, contest.Args(contest, []string{"a", "b", "c"}))
	reload := build(t, f, cobraspec.Bind("reload", cobraspec.Form[*fake, command.ReloadRequest]{}))
	require.NoError(t, reload.Args(reload, []string{"lodin"}))
	require.NoError(t, reload.Args(reload, []string{"lodin", "Revólver"}))
	require.Error(t, reload.Args(reload, []string{"lodin", "Revólver", "x"}))
	start := build(t, f, cobraspec.Bind("combat-start", cobraspec.Form[*fake, command.CombatStart]{})) // CHAR... min:"2"
	require.Equal(t, "start CHAR... [--entropy S] [--token CHAR,...]", start.Use)
	require.Error(t, start.Args(start, []string{"lodin"}))
	require.NoError(t, start.Args(start, []string{"lodin", "orco", "troll"}))
	require.Equal(t, "character", start.Annotations[clicomplete.Annotation])
	create := build(t, f, cobraspec.Bind("campaign-create", cobraspec.Form[*fake, command.CreateCampaign]{})) // required:"cli"
	require.Equal(t, []string{"true"}, create.Flags().Lookup("system").Annotations[cobra.BashCompOneRequiredFlag])
	roll := build(t, f, cobraspec.Bind("roll", cobraspec.Form[*fake, command.RollRequest]{}))
	require.Equal(t, strconv.Itoa(tor.DefaultTN), roll.Flags().Lookup("tn").DefValue, "default:\"14\"")
	void := build(t, f, cobraspec.Bind("void", cobraspec.Form[*fake, command.VoidRequest]{}))
	require.Equal(t, "yes", void.Annotations[cobraspec.AnnOwnArgs], "void EVENT has arguments of its own")
	define := build(t, f, cobraspec.Bind("skill-define", cobraspec.Form[*fake, command.SkillDefineRequest]{})) // a required flag by its old spelling
	require.NoError(t, define.ParseFlags([]string{"--attr", "P"}))
	require.NoError(t, define.PreRunE(define, nil))
	require.NoError(t, define.ValidateRequiredFlags())
	var notices []string
	cobraspec.NoticeAliases(define, func(format string, args ...any) { notices = append(notices, fmt.Sprintf(format, args...)) })
	require.Equal(t, []string{"journal: notice: --attr is deprecated, use --attribute"}, notices)
}

// TestGeneratedCommandRunsItsBody: the generated command runs the body
// read from its command line under the Spec's name, its short ids
// resolved first; a v2 hook runs only in a v2 session.
func TestGeneratedCommandRunsItsBody(t *testing.T) {
	f := &fake{}
	damage := build(t, f, cobraspec.Bind("damage", cobraspec.Form[*fake, command.DamageRequest]{Positive: "damage"}))
	require.NoError(t, run(damage, "lodin", "3", "--source", "orco"))
	require.Equal(t, []string{"damage"}, f.ran)
	require.Equal(t, command.DamageRequest{Character: "lodin", Amount: 3, Source: "orco"}, f.bodies[0])
	err := run(damage, "lodin", "x")
	require.ErrorIs(t, err, exitcode.ErrUsage)
	require.EqualError(t, err, `damage "x" is not a whole number`)

	vote := build(t, f, cobraspec.Bind("fellowship-vote", cobraspec.Form[*fake, command.VoteRequest]{}))
	require.NoError(t, run(vote, "lodin", "bilbo", "sí"))
	require.Equal(t, command.VoteRequest{Character: "lodin", Voter: "bilbo", Agree: true}, f.bodies[1])
	require.ErrorIs(t, run(vote, "lodin", "bilbo", "maybe"), exitcode.ErrUsage)

	var prepared string
	void := build(t, f, cobraspec.Bind("void", cobraspec.Form[*fake, command.VoidRequest]{
		Prepare: func(_ *fake, _ *cobra.Command, req *command.VoidRequest) error { prepared = req.EventID; return nil }}))
	require.NoError(t, run(void, "12", "--reason", "typo"))
	require.Equal(t, []string{"event:12"}, f.resolved)
	require.Equal(t, "whole-12", prepared, "resolved before Prepare")
	require.Equal(t, command.VoidRequest{EventID: "whole-12", Reason: "typo"}, f.bodies[2])

	v2 := errors.New("v2")
	reload := build(t, f, cobraspec.Bind("reload", cobraspec.Form[*fake, command.ReloadRequest]{
		V2: func(*fake, *cobra.Command, command.ReloadRequest) error { return v2 }}))
	require.NoError(t, run(reload, "lodin"), "v1: runs the body")
	f.v2 = true
	require.ErrorIs(t, run(reload, "lodin"), v2, "v2: the V2 hook")
	require.Equal(t, []string{"damage", "fellowship-vote", "void", "reload"}, f.ran)
}

// TestAFieldWithNoFlagPanics: a field the generator cannot read from the
// command line panics when the command is built, not when it runs.
func TestAFieldWithNoFlagPanics(t *testing.T) {
	type body struct {
		Ratio float64 `json:"ratio"`
	}
	b := cobraspec.Bind("x", cobraspec.Form[*fake, body]{})
	require.PanicsWithValue(t, "cobraspec: x.ratio: no flag for a float64", func() { b.Command(&fake{}, catalog.Spec{Name: "x", CLI: "x"}) })
}
