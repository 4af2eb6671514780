// Package clihelp is the command line's help, in the output's language:
// the groups 'journal --help' lists, the help command and its topics
// (environment, exit-codes), the error of an unknown subcommand, the
// compact global flags, and the functions of the help and usage
// templates, which read the Spanish of i18n.HelpShort, HelpLong and
// HelpFlag. Organize finishes a command tree with all of it; the
// commands themselves are cmd/journal's.
//
// Invariants:
//   - The tree is built in English (Short, Long, flag usages, as cobra
//     needs them) and stays so: the templates translate each text when
//     they print it, so one process may print help in both languages.
//   - Names stay as they are in every language: commands, flags,
//     placeholders, rule names; Examples are command lines, shown as
//     they are.
//   - The help's language is the root's --lang when given (its value has
//     a method Lang() (i18n.Lang, bool)), else the locale's ($LC_ALL,
//     $LC_MESSAGES, $LANG, the first one set), else English.
//   - An argument where a subcommand is expected, or help about a command
//     that does not exist, is a usage error (exitcode.Usagef) naming the
//     command, with suggestions: never the help on stdout.
package clihelp

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/helptopics"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// AnnOwnArgs marks a command with subcommands that takes arguments of
// its own (roll CHAR SKILL, and roll cancel|request|reveal): Organize
// leaves its arguments alone.
const AnnOwnArgs = "journal-own-args"

// The command groups of 'journal --help' (helptopics.Groups) and the
// group of every top-level command.
var (
	commandGroups = cobraGroups(helptopics.Groups)
	groupOf       = helptopics.GroupOf
)

func cobraGroups(gs []helptopics.Group) []*cobra.Group {
	out := make([]*cobra.Group, len(gs))
	for i, g := range gs {
		out[i] = &cobra.Group{ID: g.ID, Title: g.Title}
	}
	return out
}

// examples and longs are the commands' Example sections and English
// descriptions (helptopics/topics/examples.txt, commands.en.txt), by
// command path: a command defined with its own keeps it.
var examples, longs = helptopics.Examples(), helptopics.Longs()

// The pages of 'journal help environment' and 'journal help exit-codes'
// (their Spanish is read by i18n.HelpLong from the same package).
var (
	environmentHelp = helptopics.Page("environment", "en")
	exitCodesHelp   = helptopics.Page("exit-codes", "en")
)

// The pages of 'journal help TOPIC' that are not commands.
func environmentTopic() *cobra.Command {
	return &cobra.Command{Use: "environment", Short: "Global flags and environment variables", Long: environmentHelp}
}

func exitCodesTopic() *cobra.Command {
	return &cobra.Command{Use: "exit-codes", Short: "What each exit status means", Long: exitCodesHelp}
}

// Organize finishes the command tree: the help topics, groups, examples
// and descriptions (helptopics, by command path),
// the help and usage templates, argument errors that name the command,
// and an error with suggestions for an unknown subcommand at every level.
func Organize(root *cobra.Command) {
	root.AddCommand(environmentTopic(), exitCodesTopic())
	root.AddGroup(commandGroups...)
	root.SetHelpCommandGroupID("setup")
	root.SetCompletionCommandGroupID("setup")
	root.SetHelpCommand(helpCommand(root))
	root.InitDefaultHelpCmd() // adds it now, so that the walk below reaches it
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if g, ok := groupOf[c.Name()]; ok {
			c.GroupID = g
		}
	}
	root.SetUsageTemplate(usageTemplate) // lang.go
	root.SetHelpTemplate(helpTemplate)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), root.Name()+" ")
		if c.Example == "" {
			c.Example = examples[path]
		}
		if c.Long == "" {
			c.Long = longs[path]
		}
		if c.HasSubCommands() && c.Annotations[AnnOwnArgs] == "" {
			c.Args = unknownSubcommand
			if c.Run == nil && c.RunE == nil {
				c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
			}
		} else if c != root {
			c.Args = wrapArgs(c.Args)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// wrapArgs keeps cobra's argument checks but names the command in the error.
func wrapArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	if check == nil {
		return nil
	}
	return func(c *cobra.Command, args []string) error {
		if err := check(c, args); err != nil {
			return exitcode.Usagef("%s: %s (usage: %s)", c.CommandPath(), err, c.UseLine())
		}
		return nil
	}
}

// helpCommand is 'journal help [COMMAND...]': cobra's, but an unknown
// command or topic is a usage error with suggestions, not the root's help.
func helpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:     "help [COMMAND...]",
		Short:   "Help about any command, or a topic (environment, exit-codes)",
		GroupID: "setup",
		ValidArgsFunction: func(c *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
			cmd, _, err := root.Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []string
			for _, sub := range cmd.Commands() {
				if (sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand()) && strings.HasPrefix(sub.Name(), prefix) {
					out = append(out, sub.Name())
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := root.Find(args)
			if err != nil {
				return exitcode.Usagef("journal help: %s", err)
			}
			if len(rest) > 0 && cmd.HasSubCommands() && cmd.Annotations[AnnOwnArgs] == "" {
				if err := unknownSubcommand(cmd, rest); err != nil {
					return exitcode.Usagef("journal help: %s", strings.TrimPrefix(err.Error(), cmd.CommandPath()+": "))
				}
			}
			cmd.InitDefaultHelpFlag()
			cmd.InitDefaultVersionFlag()
			return cmd.Help()
		},
	}
}

// unknownSubcommand refuses an argument where a subcommand is expected,
// suggesting the closest ones or listing them all.
func unknownSubcommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	c.SuggestionsMinimumDistance = 2
	sugg := c.SuggestionsFor(args[0])
	if len(sugg) > 0 {
		return exitcode.Usagef("%s: unknown command %q: did you mean %v? (see '%s --help')", c.CommandPath(), clip.Text(args[0]),
			orList(quoteAll(sugg)), c.CommandPath())
	}
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return exitcode.Usagef("%s: unknown command %q: want one of %s (see '%s --help')", c.CommandPath(), clip.Text(args[0]),
		strings.Join(names, ", "), c.CommandPath())
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}

// orList joins "a", "a or b", "a, b or c".
func orList(xs []string) error {
	if len(xs) <= 1 {
		return msgerr.Errorf("%s", strings.Join(xs, ""))
	}
	return msgerr.Errorf("%s or %s", strings.Join(xs[:len(xs)-1], ", "), xs[len(xs)-1])
}
