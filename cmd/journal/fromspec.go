package main

// The CLI's commands built from the catalogue (command/catalog): a
// catalogued command's words are its Spec.CLI, its positional arguments
// and flags are its request type's fields, read from their tags, and its
// required flags are the Spec's Required. What the CLI adds — the help's
// Short, and hooks for a command that resolves its input or does more
// after — is its form (fromspec_forms.go); its description and examples
// are helptopics' (topics/commands.en.txt, examples.txt).
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
//	complete:"character" what the argument or flag completes (argKind)
//	default:"14"        the default an optional number (*int, nil when not
//	                    given) shows in the help
//	resolve:"event"     an event as a user names it (a sequence, a short id:
//	                    resolveEvent), sent as its whole id; a flag's only
//	                    when given
//	resolve:"request"   a v2 roll request as a user names it (its event, a
//	                    start or end of its id: resolveRequestID), sent as
//	                    its whole request id
//	required:"cli"      a flag the command line requires though the body may
//	                    omit it (the Spec's Required are required anyway)
//
//	cli:"inline"        on an embedded struct (a signed message): its fields
//	                    are flags too (else it is not on the command line)
//
// A field without a cli tag is a flag named after its JSON name (_ as -).

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command/catalog"
)

// form is what the CLI adds to the catalogued command of body T.
type form[T any] struct {
	// short is the help's Short (the description and the examples are
	// helptopics', by the command's path).
	short string
	// use replaces the generated usage line (one that names the --name
	// flag, or groups flags).
	use string
	// args are the CLI's own positional arguments, after the body's (a
	// fingerprint the command signs for; "[SESSION]" an optional one,
	// last): the hooks read them (c.Flags().Arg, "" when not given).
	args []string
	// noBody: the body's fields are not on the command line (the run
	// hook builds the body from the form's own args and flags).
	noBody bool
	// decodeRequired leaves the Spec's Required to the catalogue's
	// decoding (its error names the field), not to cobra's required flags.
	decodeRequired bool
	// positive names a whole-number argument in messages ("damage"): it
	// must be positive (annPositive).
	positive string
	// prepare edits the request after the command line is read (a short
	// id resolved), before it runs.
	prepare func(a *app, c *cobra.Command, req *T) error
	// run runs the request; nil: a.runSpec (a hook that runs it and then
	// prints more calls runSpec itself).
	run func(a *app, c *cobra.Command, req T) error
	// v2 runs the request in a journal-dice-v2 session (signed on this
	// device, v2*.go); in a v1 session the command runs as run says.
	v2 func(a *app, c *cobra.Command, req T) error
	// key is the usage of the --name flag of the device key that signs
	// the command in a v2 session (keyNameOf reads it); "": no flag.
	key string
	// gmRoll adds the flags of the GM's v2 roll (addGMRollFlags).
	gmRoll bool
	// flags adds the CLI's own flags (not the body's).
	flags func(c *cobra.Command)
}

// built is a form bound to its catalogued command's name.
type built struct {
	name  string
	build func(a *app, s catalog.Spec) *cobra.Command
	// body is the request type the form reads.
	body reflect.Type
}

// specForm binds f to the catalogued command name.
func specForm[T any](name string, f form[T]) built {
	return built{name: name, body: reflect.TypeFor[T](), build: func(a *app, s catalog.Spec) *cobra.Command { return f.command(a, s) }}
}

// cliField is one field of a request type as the CLI offers it.
type cliField struct {
	index       []int // in the request type (reflect.Value.FieldByIndex)
	json        string
	flag        string // "" for a positional argument
	meta        string // the argument's or the flag value's placeholder
	optional    bool   // an optional positional argument
	variadic    int    // the last arguments: at least this many (CHAR...)
	cliRequired bool   // required:"cli"
	help, alias string
	complete    string
	resolve     string // resolve:"event" or "request"
}

// cliFields reads t's fields' tags; the ones not on the command line
// (cli:"-", json:"-") are left out, and so are an embedded struct's but
// with cli:"inline" (a signed message pasted whole: --signed, --signature).
func cliFields(t reflect.Type, at ...int) []cliField {
	var out []cliField
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		tag := sf.Tag.Get("cli")
		index := append(slices.Clone(at), i)
		if sf.Anonymous && tag == "inline" {
			out = append(out, cliFields(sf.Type, index...)...)
			continue
		}
		if !sf.IsExported() || sf.Anonymous || name == "-" || tag == "-" {
			continue
		}
		f := cliField{index: index, json: name, help: sf.Tag.Get("help"), alias: sf.Tag.Get("alias"), complete: sf.Tag.Get("complete"),
			cliRequired: sf.Tag.Get("required") == "cli", resolve: sf.Tag.Get("resolve")}
		switch {
		case tag == "":
			f.flag = strings.ReplaceAll(name, "_", "-")
		case strings.HasPrefix(tag, "--"):
			f.flag, f.meta, _ = strings.Cut(tag[2:], " ")
		case strings.HasPrefix(tag, "["):
			f.meta, f.optional = strings.Trim(tag, "[]"), true
		case strings.HasSuffix(tag, "..."):
			f.meta, f.variadic = tag, 1
			if n, err := strconv.Atoi(sf.Tag.Get("min")); err == nil {
				f.variadic = n
			}
		default:
			f.meta = tag
		}
		out = append(out, f)
	}
	return out
}

// command builds the cobra command of catalogued command s.
func (f form[T]) command(a *app, s catalog.Spec) *cobra.Command {
	var req T
	rv := reflect.ValueOf(&req).Elem()
	fields := cliFields(rv.Type())
	if f.noBody {
		fields = nil
	}
	words := strings.Fields(s.CLI)
	use := []string{words[len(words)-1]}
	var args []cliField
	var required, optional, variadic int
	var completes []string
	for _, fd := range fields {
		if fd.flag != "" {
			continue
		}
		args = append(args, fd)
		completes = append(completes, fd.complete)
		switch {
		case fd.optional:
			optional++
			use = append(use, "["+fd.meta+"]")
		case fd.variadic > 0:
			variadic = fd.variadic // the last argument (completion repeats its kind)
			use = append(use, fd.meta)
		default:
			required++
			use = append(use, fd.meta)
		}
	}
	for _, own := range f.args {
		if strings.HasPrefix(own, "[") {
			optional++
		} else {
			required++
		}
		completes = append(completes, "")
		use = append(use, own)
	}
	cmd := &cobra.Command{Short: f.short, Args: cobra.RangeArgs(required, required+optional),
		Annotations: map[string]string{annComplete: strings.Join(completes, ",")}}
	switch {
	case variadic > 0:
		cmd.Args = cobra.MinimumNArgs(required + variadic)
	case optional == 0:
		cmd.Args = cobra.ExactArgs(required)
	case required == 0:
		cmd.Args = cobra.MaximumNArgs(optional) // "accepts at most N arg(s)", as a hand-written command said
	}
	if required+optional+variadic > 0 {
		cmd.Annotations[annOwnArgs] = "yes" // its arguments are not subcommands (help.go)
	}
	fs := cmd.Flags()
	var afterParse []func()
	var aliases [][2]string // {old, current}
	for _, fd := range fields {
		if fd.flag == "" {
			continue
		}
		must := fd.cliRequired || !f.decodeRequired && slices.Contains(s.Required, fd.json)
		word := "--" + fd.flag
		if fd.meta != "" {
			word += " " + fd.meta
		}
		if !must {
			word = "[" + word + "]"
		}
		use = append(use, word)
		switch v := rv.FieldByIndex(fd.index).Addr().Interface().(type) {
		case *string:
			fs.StringVar(v, fd.flag, "", fd.help)
		case *int:
			fs.IntVar(v, fd.flag, 0, fd.help)
		case *bool:
			fs.BoolVar(v, fd.flag, false, fd.help)
		case *[]string:
			fs.StringSliceVar(v, fd.flag, nil, fd.help)
		case **int: // given: 0 is refused, not read as the default
			n, _ := strconv.Atoi(rv.Type().FieldByIndex(fd.index).Tag.Get("default")) // shown in the help; nil when not given
			fs.IntVar(&n, fd.flag, n, fd.help)
			name := fd.flag
			afterParse = append(afterParse, func() {
				if cmd.Flags().Changed(name) {
					*v = &n
				}
			})
		default:
			panic("fromspec: " + s.Name + "." + fd.json + ": no flag for a " + rv.FieldByIndex(fd.index).Type().String())
		}
		if fd.alias != "" {
			aliasFlag(cmd, fd.alias, fd.flag)
			aliases = append(aliases, [2]string{fd.alias, fd.flag})
		}
		if fd.complete != "" {
			_ = fs.SetAnnotation(fd.flag, annComplete, []string{fd.complete})
		}
		if must {
			_ = cmd.MarkFlagRequired(fd.flag)
		}
	}
	cmd.Use = strings.Join(use, " ")
	if f.use != "" {
		cmd.Use = f.use
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
	if f.positive != "" {
		positiveArg(cmd, f.positive)
	}
	if f.key != "" {
		keyNameFlag(f.key)(cmd)
	}
	if f.gmRoll {
		addGMRollFlags(fs)
	}
	if f.flags != nil {
		f.flags(cmd)
	}
	cmd.RunE = func(c *cobra.Command, given []string) error {
		for i, arg := range given {
			if i >= len(args) {
				break // the form's own (f.args)
			}
			fd := args[min(i, len(args)-1)]
			if fd.variadic > 0 {
				rv.FieldByIndex(fd.index).Set(reflect.ValueOf(append([]string(nil), given[i:]...)))
				break
			}
			if err := f.setArg(rv.FieldByIndex(fd.index), fd, arg); err != nil {
				return err
			}
		}
		for _, fn := range afterParse {
			fn()
		}
		for _, fd := range fields {
			v := rv.FieldByIndex(fd.index)
			if fd.resolve != "" && (v.String() != "" || fd.flag == "" && !fd.optional) {
				resolve := a.resolveShortEvent
				if fd.resolve == "request" {
					resolve = a.resolveShortRequest
				}
				if err := resolve(c, v.Addr().Interface().(*string)); err != nil {
					return err
				}
			}
		}
		if f.prepare != nil {
			if err := f.prepare(a, c, &req); err != nil {
				return err
			}
		}
		run := func() error {
			if f.run != nil {
				return f.run(a, c, req)
			}
			return a.runSpec(c, s.Name, req)
		}
		if f.v2 != nil {
			if v2, err := a.inV2Session(c); err != nil || v2 {
				if err != nil {
					return err
				}
				return f.v2(a, c, req)
			}
		}
		return run()
	}
	return cmd
}

// setArg sets a positional argument's field from its text.
func (f form[T]) setArg(v reflect.Value, fd cliField, arg string) error {
	switch v.Kind() {
	case reflect.String:
		v.SetString(arg)
	case reflect.Int:
		what := f.positive
		if what == "" {
			what = fd.meta
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
		panic("fromspec: argument " + fd.meta + ": no reading of a " + v.Type().String()) // a test builds and runs the tree
	}
	return nil
}

// specCommand is the generated command of the catalogued command name
// (its form in specForms); it panics on a name without one (a test builds
// the whole tree).
func (a *app) specCommand(name string) *cobra.Command {
	s, ok := catalog.Lookup(name)
	if !ok {
		panic("fromspec: no catalogued command " + strconv.Quote(name))
	}
	for _, b := range specForms {
		if b.name == name {
			if reflect.TypeOf(s.Body) != b.body {
				panic("fromspec: " + name + ": the form reads " + b.body.String() + ", the catalogue " + reflect.TypeOf(s.Body).String())
			}
			return b.build(a, s)
		}
	}
	panic("fromspec: no form for " + strconv.Quote(name))
}

// specGroup is a group of commands (journal xp, journal shadow): its
// generated subcommands, by their catalogued names, then others.
func (a *app) specGroup(use, short string, names []string, others ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short}
	for _, n := range names {
		cmd.AddCommand(a.specCommand(n))
	}
	cmd.AddCommand(others...)
	return cmd
}
