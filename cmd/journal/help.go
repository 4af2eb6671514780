package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/helptopics"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

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

// Annotations of a command.
const (
	// annStore says how a command uses the journal: storeRead commands
	// only read it and never create the data folder.
	annStore  = "journal/store"
	storeRead = "read"
)

// readCommands are the commands that only read the journal (by path
// without "journal "). Every other command may create the data folder.
var readCommands = []string{
	"campaign show", "character show", "character list", "combat show", "fellowship show",
	"advancement show", "log", "export", "replay", "explain", "stats", "odds", "odds ryf", "odds tor",
	"version", "verifier", "completion", "login", "whoami", "campaign list", "session list", "skill list", "weapon list", "call list",
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

// helpTopics are the pages of 'journal help TOPIC' that are not commands.
func (a *app) helpTopics() *cobra.Command {
	return &cobra.Command{Use: "environment", Short: "Global flags and environment variables", Long: environmentHelp}
}

func exitCodesTopic() *cobra.Command {
	return &cobra.Command{Use: "exit-codes", Short: "What each exit status means", Long: exitCodesHelp}
}

// organize finishes the command tree: groups, examples, the read-only
// annotations, argument errors that name the command, and an error with
// suggestions for an unknown subcommand at every level.
func organize(root *cobra.Command) {
	root.AddCommand(exitCodesTopic())
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
	root.SetUsageTemplate(usageTemplate) // help_lang.go
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
		if slices.Contains(readCommands, path) {
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			c.Annotations[annStore] = storeRead
		}
		if c.HasSubCommands() && c.Annotations[annOwnArgs] == "" {
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
				return usagef("journal help: %s", err)
			}
			if len(rest) > 0 && cmd.HasSubCommands() && cmd.Annotations[annOwnArgs] == "" {
				if err := unknownSubcommand(cmd, rest); err != nil {
					return usagef("journal help: %s", strings.TrimPrefix(err.Error(), cmd.CommandPath()+": "))
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
		return usagef("%s: unknown command %q: did you mean %v? (see '%s --help')", c.CommandPath(), clip.Text(args[0]),
			orList(quoteAll(sugg)), c.CommandPath())
	}
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return usagef("%s: unknown command %q: want one of %s (see '%s --help')", c.CommandPath(), clip.Text(args[0]),
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
