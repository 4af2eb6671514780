// Package cobraspec is the cobra command of a catalogued command
// (command/catalog), from its Spec and its request type's tags: its words
// are its Spec.CLI, its positional arguments and flags are its request
// type's fields, read from their tags, and its required flags are the
// Spec's Required. What a command line adds — the help's Short, and hooks
// for a command that resolves its input or does more after — is its Form
// (cmd/journal's fromspec_forms.go); what the command runs with is the
// app's (a Runner: record the body, resolve a short id, tell a v2
// session).
//
// The tags of a request type's field (command/*.go):
//
//	cli:"CHAR"          a positional argument (in field order)
//	cli:"[WEAPON]"      an optional positional argument (after the others)
//	cli:"CHAR..."       the last positional arguments, one or more ([]string;
//	                    min:"2" asks for at least two)
//	cli:"--source CHAR" a flag, with the placeholder of its value
//	cli:"-"             not on the command line (a hook fills it)
//	help:"..."          the flag's usage (its Spanish: i18n/help_es*.go)
//	alias:"attr"        a deprecated spelling of the flag (aliasFlag)
//	complete:"character" what the argument or flag completes (a
//	                    clicomplete Kind, in its Annotation)
//	default:"14"        the default an optional number (*int, nil when not
//	                    given) shows in the help
//	resolve:"event"     an event as a user names it (a sequence, a short id:
//	                    Runner.Resolve), sent as its whole id; a flag's only
//	                    when given
//	resolve:"request"   a v2 roll request as a user names it (its event, a
//	                    start or end of its id: Runner.Resolve), sent as
//	                    its whole request id
//	required:"cli"      a flag the command line requires though the body may
//	                    omit it (the Spec's Required are required anyway)
//
//	cli:"inline"        on an embedded struct (a signed message): its fields
//	                    are flags too (else it is not on the command line)
//
// A field without a cli tag is a flag named after its JSON name (_ as -).
//
// Invariants:
//   - A command is built from its request type alone (and its Form): a
//     field is an argument or a flag as its tags say, the arguments in
//     field order; the body a command runs is that type, filled from the
//     command line, and it runs under the Spec's name.
//   - A field of a type the generator cannot read from the command line,
//     or a form bound to another body than the catalogue's, panics when
//     the tree is built (a test builds the whole tree), never at run time.
//   - A generated command carries the clicomplete Annotation (even
//     empty): that is how a generated command is told from a hand-written
//     one; one with positional arguments carries AnnOwnArgs.
//   - A deprecated alias shares its flag's value: given by its old
//     spelling, a required flag is given; NoticeAliases says it once.
//   - Short ids are resolved before the Prepare hook sees the request; a
//     v2 hook runs only in a journal-dice-v2 session.
package cobraspec

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/clicomplete"
	"github.com/campaign-journal/journal/clihelp"
	"github.com/campaign-journal/journal/command/catalog"
)

// Runner is what a generated command needs from the app that runs it.
type Runner interface {
	// RunSpec runs the catalogued command name with body (records it and
	// reports it).
	RunSpec(c *cobra.Command, name string, body any) error
	// Resolve replaces *arg, an event (kind "event") or a v2 roll request
	// (kind "request") as a user names it, by its whole id.
	Resolve(c *cobra.Command, kind string, arg *string) error
	// InV2Session reports whether the command's campaign's open session
	// uses journal-dice-v2.
	InV2Session(c *cobra.Command) (bool, error)
}

// AnnOwnArgs marks a command with subcommands that takes arguments of
// its own (roll CHAR SKILL, and roll cancel|request|reveal): the help
// (clihelp, which defines it) does not read them as subcommands.
const AnnOwnArgs = clihelp.AnnOwnArgs

// Form is what the command line adds to the catalogued command of body T,
// run by the app A.
type Form[A Runner, T any] struct {
	// Short is the help's Short (the description and the examples are
	// helptopics', by the command's path).
	Short string
	// Use replaces the generated usage line (one that names the --name
	// flag, or groups flags).
	Use string
	// Args are the CLI's own positional arguments, after the body's (a
	// fingerprint the command signs for; "[SESSION]" an optional one,
	// last): the hooks read them (c.Flags().Arg, "" when not given).
	Args []string
	// NoBody: the body's fields are not on the command line (the run
	// hook builds the body from the form's own args and flags).
	NoBody bool
	// DecodeRequired leaves the Spec's Required to the catalogue's
	// decoding (its error names the field), not to cobra's required flags.
	DecodeRequired bool
	// Positive names a whole-number argument in messages ("damage"): it
	// must be positive (exitcode.AnnPositive).
	Positive string
	// Prepare edits the request after the command line is read (a short
	// id resolved), before it runs.
	Prepare func(a A, c *cobra.Command, req *T) error
	// Run runs the request; nil: a.RunSpec (a hook that runs it and then
	// prints more calls RunSpec itself).
	Run func(a A, c *cobra.Command, req T) error
	// V2 runs the request in a journal-dice-v2 session (signed on this
	// device); in a v1 session the command runs as Run says.
	V2 func(a A, c *cobra.Command, req T) error
	// Key is the usage of the --name flag of the device key that signs
	// the command in a v2 session (KeyNameOf reads it); "": no flag.
	Key string
	// GMRoll adds the flags of the GM's v2 roll (addGMRollFlags).
	GMRoll bool
	// Flags adds the CLI's own flags (not the body's).
	Flags func(c *cobra.Command)
}

// Bound is a form bound to its catalogued command's name.
type Bound[A Runner] struct {
	Name string
	// Body is the request type the form reads.
	Body  reflect.Type
	build func(a A, s catalog.Spec) *cobra.Command
}

// Bind binds f to the catalogued command name.
func Bind[A Runner, T any](name string, f Form[A, T]) Bound[A] {
	return Bound[A]{Name: name, Body: reflect.TypeFor[T](), build: func(a A, s catalog.Spec) *cobra.Command { return f.command(a, s) }}
}

// Command builds the cobra command of catalogued command s, run by a (s
// is the catalogue's command of b's name, its Body b's).
func (b Bound[A]) Command(a A, s catalog.Spec) *cobra.Command { return b.build(a, s) }

// command builds the cobra command of catalogued command s.
func (f Form[A, T]) command(a A, s catalog.Spec) *cobra.Command {
	var req T
	rv := reflect.ValueOf(&req).Elem()
	fields := Fields(rv.Type())
	if f.NoBody {
		fields = nil
	}
	words := strings.Fields(s.CLI)
	use := []string{words[len(words)-1]}
	var args []Field
	var required, optional, variadic int
	var completes []string
	for _, fd := range fields {
		if fd.Flag != "" {
			continue
		}
		args = append(args, fd)
		completes = append(completes, fd.Complete)
		switch {
		case fd.Optional:
			optional++
			use = append(use, "["+fd.Meta+"]")
		case fd.Variadic > 0:
			variadic = fd.Variadic // the last argument (completion repeats its kind)
			use = append(use, fd.Meta)
		default:
			required++
			use = append(use, fd.Meta)
		}
	}
	for _, own := range f.Args {
		if strings.HasPrefix(own, "[") {
			optional++
		} else {
			required++
		}
		completes = append(completes, "")
		use = append(use, own)
	}
	cmd := &cobra.Command{Short: f.Short, Args: cobra.RangeArgs(required, required+optional),
		Annotations: map[string]string{clicomplete.Annotation: strings.Join(completes, ",")}}
	switch {
	case variadic > 0:
		cmd.Args = cobra.MinimumNArgs(required + variadic)
	case optional == 0:
		cmd.Args = cobra.ExactArgs(required)
	case required == 0:
		cmd.Args = cobra.MaximumNArgs(optional) // "accepts at most N arg(s)", as a hand-written command said
	}
	if required+optional+variadic > 0 {
		cmd.Annotations[AnnOwnArgs] = "yes" // its arguments are not subcommands (the help)
	}
	fs := cmd.Flags()
	var afterParse []func()
	var aliases [][2]string // {old, current}
	for _, fd := range fields {
		if fd.Flag == "" {
			continue
		}
		must := fd.CLIRequired || !f.DecodeRequired && slices.Contains(s.Required, fd.JSON)
		word := "--" + fd.Flag
		if fd.Meta != "" {
			word += " " + fd.Meta
		}
		if !must {
			word = "[" + word + "]"
		}
		use = append(use, word)
		switch v := rv.FieldByIndex(fd.Index).Addr().Interface().(type) {
		case *string:
			fs.StringVar(v, fd.Flag, "", fd.Help)
		case *int:
			fs.IntVar(v, fd.Flag, 0, fd.Help)
		case *bool:
			fs.BoolVar(v, fd.Flag, false, fd.Help)
		case *[]string:
			fs.StringSliceVar(v, fd.Flag, nil, fd.Help)
		case **int: // given: 0 is refused, not read as the default
			n, _ := strconv.Atoi(rv.Type().FieldByIndex(fd.Index).Tag.Get("default")) // shown in the help; nil when not given
			fs.IntVar(&n, fd.Flag, n, fd.Help)
			name := fd.Flag
			afterParse = append(afterParse, func() {
				if cmd.Flags().Changed(name) {
					*v = &n
				}
			})
		default:
			panic("cobraspec: " + s.Name + "." + fd.JSON + ": no flag for a " + rv.FieldByIndex(fd.Index).Type().String())
		}
		if fd.Alias != "" {
			aliasFlag(cmd, fd.Alias, fd.Flag)
			aliases = append(aliases, [2]string{fd.Alias, fd.Flag})
		}
		if fd.Complete != "" {
			_ = fs.SetAnnotation(fd.Flag, clicomplete.Annotation, []string{fd.Complete})
		}
		if must {
			_ = cmd.MarkFlagRequired(fd.Flag)
		}
	}
	cmd.Use = strings.Join(use, " ")
	if f.Use != "" {
		cmd.Use = f.Use
	}
	if len(aliases) > 0 {
		// A required flag given by its old spelling is given (cobra checks
		// the required flags after PreRunE).
		cmd.PreRunE = func(c *cobra.Command, _ []string) error {
			for _, al := range aliases {
				if c.Flags().Changed(al[0]) {
					c.Flags().Lookup(al[1]).Changed = true
				}
			}
			return nil
		}
	}
	if f.Positive != "" {
		positiveArg(cmd, f.Positive)
	}
	if f.Key != "" {
		keyNameFlag(cmd, f.Key)
	}
	if f.GMRoll {
		addGMRollFlags(fs)
	}
	if f.Flags != nil {
		f.Flags(cmd)
	}
	cmd.RunE = func(c *cobra.Command, given []string) error {
		for i, arg := range given {
			if i >= len(args) {
				break // the form's own (f.Args)
			}
			fd := args[min(i, len(args)-1)]
			if fd.Variadic > 0 {
				rv.FieldByIndex(fd.Index).Set(reflect.ValueOf(append([]string(nil), given[i:]...)))
				break
			}
			if err := f.setArg(rv.FieldByIndex(fd.Index), fd, arg); err != nil {
				return err
			}
		}
		for _, fn := range afterParse {
			fn()
		}
		for _, fd := range fields {
			v := rv.FieldByIndex(fd.Index)
			if fd.Resolve != "" && (v.String() != "" || fd.Flag == "" && !fd.Optional) {
				if err := a.Resolve(c, fd.Resolve, v.Addr().Interface().(*string)); err != nil {
					return err
				}
			}
		}
		if f.Prepare != nil {
			if err := f.Prepare(a, c, &req); err != nil {
				return err
			}
		}
		run := func() error {
			if f.Run != nil {
				return f.Run(a, c, req)
			}
			return a.RunSpec(c, s.Name, req)
		}
		if f.V2 != nil {
			if v2, err := a.InV2Session(c); err != nil || v2 {
				if err != nil {
					return err
				}
				return f.V2(a, c, req)
			}
		}
		return run()
	}
	return cmd
}

// setArg sets a positional argument's field from its text.
func (f Form[A, T]) setArg(v reflect.Value, fd Field, arg string) error {
	switch v.Kind() {
	case reflect.String:
		v.SetString(arg)
	case reflect.Int:
		what := f.Positive
		if what == "" {
			what = fd.Meta
		}
		n, err := positive(arg, what)
		if err != nil {
			return err
		}
		v.SetInt(int64(n))
	case reflect.Bool:
		yes, err := parseVote(arg)
		if err != nil {
			return err
		}
		v.SetBool(yes)
	default:
		panic("cobraspec: argument " + fd.Meta + ": no reading of a " + v.Type().String()) // a test builds and runs the tree
	}
	return nil
}
