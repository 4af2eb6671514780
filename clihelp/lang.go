package clihelp

import (
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/helptopics"
	"github.com/campaign-journal/journal/i18n"
)

// The help in the output's language. The command tree is built in English
// (Short, Long, flag usages, as cobra needs them); the help and usage
// templates read each text through the functions below, which give the
// Spanish of i18n/help_es.go under --lang es or a Spanish locale. Nothing
// of the tree is changed: one process may print help in both languages.
// Names stay as they are: commands, flags, placeholders, rule names. The
// Examples are command lines, shown as they are.

// langValue is the value of the root's --lang flag: the language given,
// and whether one was given.
type langValue interface {
	Lang() (i18n.Lang, bool)
}

// helpLanguage is the language of c's help: --lang when given (it is
// parsed before cobra prints help), else the locale's.
func helpLanguage(c *cobra.Command) i18n.Lang {
	if f := c.Root().PersistentFlags().Lookup("lang"); f != nil {
		if lv, ok := f.Value.(langValue); ok {
			if l, set := lv.Lang(); set {
				return l
			}
		}
	}
	return i18n.FromEnv(os.Getenv)
}

// helpPath is c's path without the root's name ("" for the root).
func helpPath(c *cobra.Command) string {
	return strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), c.Root().Name()), " ")
}

func helpShort(c *cobra.Command) string {
	if helpLanguage(c) == i18n.ES {
		if s, ok := i18n.HelpShort(helpPath(c)); ok {
			return s
		}
	}
	return c.Short
}

func helpLong(c *cobra.Command) string {
	if c.Long != "" && helpLanguage(c) == i18n.ES {
		if s, ok := i18n.HelpLong(helpPath(c)); ok {
			return s
		}
	}
	return c.Long
}

// helpFlagUsage is a flag's usage in l: the catalogue's, or cobra's own
// help and version flags ("help for roll").
func helpFlagUsage(l i18n.Lang, f *pflag.Flag) string {
	if l != i18n.ES {
		return f.Usage
	}
	if s, ok := i18n.HelpFlag(f.Usage); ok {
		return s
	}
	if rest, ok := strings.CutPrefix(f.Usage, "help for "); ok && f.Name == "help" {
		return l.T("help.flag_help", rest)
	}
	if rest, ok := strings.CutPrefix(f.Usage, "version for "); ok && f.Name == "version" {
		return l.T("help.flag_version", rest)
	}
	return f.Usage
}

// helpFlagUsages is fs.FlagUsages() with each usage in c's language.
func helpFlagUsages(c *cobra.Command, fs *pflag.FlagSet) string {
	l := helpLanguage(c)
	if l != i18n.ES {
		return fs.FlagUsages()
	}
	out := pflag.NewFlagSet(fs.Name(), pflag.ContinueOnError)
	out.SortFlags = fs.SortFlags
	fs.VisitAll(func(f *pflag.Flag) {
		g := *f
		g.Usage = helpFlagUsage(l, f)
		if t, ok := valueTypesES[f.Value.Type()]; ok && !strings.Contains(g.Usage, "`") {
			g.Value = typedValue{f.Value, t}
			if zeroDefaults[g.DefValue] {
				g.DefValue = "" // pflag shows no default of "" (it knew 0s only by the value's type)
			}
		}
		out.AddFlag(&g)
	})
	// The default is at the end of its line: the columns do not move.
	return strings.ReplaceAll(out.FlagUsages(), " (default ", " (por defecto ")
}

// valueTypesES are the Spanish names of the flags' value types, shown
// after the flag ("--mod entero"); ASCII, for pflag pads them by bytes.
var valueTypesES = map[string]string{"string": "texto", "int": "entero", "duration": "tiempo",
	"stringArray": "textos", "stringSlice": "textos", "uint": "entero", "int64": "entero", "float64": "decimal"}

// zeroDefaults are the zero values pflag shows no default for.
var zeroDefaults = map[string]bool{"0": true, "0s": true, "[]": true, "<nil>": true}

// typedValue is a flag's value under another type name, for its help.
type typedValue struct {
	pflag.Value
	t string
}

func (v typedValue) Type() string { return v.t }

// helpText is the heading key k in c's language.
func helpText(c *cobra.Command, k string, args ...any) string {
	return helpLanguage(c).T(i18n.Key(k), args...)
}

// helpUseLine is c.UseLine() with its "[flags]" in c's language.
func helpUseLine(c *cobra.Command) string {
	l := helpLanguage(c)
	return strings.Replace(c.UseLine(), " [flags]", " "+l.T("help.flags_arg"), 1)
}

// helpGroup is a group's title in c's language.
func helpGroup(c *cobra.Command, g *cobra.Group) string {
	k := i18n.Key("help.group." + g.ID)
	if s := helpLanguage(c).T(k); s != string(k) {
		return s
	}
	return g.Title
}

// compactFlags prints the global flags on a few lines: names and value
// types only; 'journal help environment' explains them.
func compactFlags(fs *pflag.FlagSet) string {
	var parts []string
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + "/" + name
		}
		if t, _ := pflag.UnquoteUsage(f); t != "" {
			name += " " + strings.ToUpper(t)
		}
		parts = append(parts, name)
	})
	var b strings.Builder
	line := " "
	for _, p := range parts {
		if len(line)+len(p)+2 > 78 {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = " "
		}
		line += " " + p
	}
	b.WriteString(line)
	return b.String()
}

func init() {
	cobra.AddTemplateFunc("compactFlags", compactFlags)
	cobra.AddTemplateFunc("helpShort", helpShort)
	cobra.AddTemplateFunc("helpLong", helpLong)
	cobra.AddTemplateFunc("helpFlagUsages", helpFlagUsages)
	cobra.AddTemplateFunc("helpText", helpText)
	cobra.AddTemplateFunc("helpUseLine", helpUseLine)
	cobra.AddTemplateFunc("helpGroup", helpGroup)
}

// helpTemplate and usageTemplate are cobra's, with grouped commands, a
// compact global flags section and the texts in the output's language
// (helptopics/templates; their functions are the ones init adds).
var (
	helpTemplate  = helptopics.HelpTemplate()
	usageTemplate = helptopics.UsageTemplate()
)
