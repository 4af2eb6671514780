// Package clicomplete is what a command-line argument completes: the kinds
// of argument (a character, a skill, a weapon, a session…), the names of a
// campaign for a kind, cobra's bash script without its own matching, and
// the completion functions it installs on a command tree, built from a
// source of names the caller gives (the journal, read by cmd/journal).
//
// Invariants:
//   - A name completes whatever the case and accents typed (names.Fold of
//     its start); bash keeps every name the program matched.
//   - Completing never completes files and never prints an error: a
//     source that cannot be read gives nil, and nothing completes.
//   - The fixed kinds (difficulties, votes) complete without asking the
//     source; an argument past a command's last completes nothing.
//   - An unknown kind name in an Annotation panics when the tree is
//     walked (a test builds the tree).
package clicomplete

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/names"
	"github.com/campaign-journal/journal/rules/tor"
)

// Annotation is the annotation of a generated command listing what its
// positional arguments complete (Kind names, comma-separated), and of a
// flag, what it completes (one Kind name).
const Annotation = "journal-complete"

// Kind is what a positional argument or a flag names, for completion.
type Kind int

// The kinds of argument.
const (
	None Kind = iota
	Campaign
	Character
	Skill // a skill (or, in a contest, an attribute)
	Weapon
	Session
	Attribute
	Difficulty
	Group // The One Ring: a skill group or a skill
	Vote
)

// kindNames are the Kinds by their names in the request types' complete
// tags (cmd/journal's fromspec.go).
var kindNames = map[string]Kind{"": None, "character": Character, "skill": Skill, "weapon": Weapon,
	"attribute": Attribute, "group": Group, "vote": Vote, "session": Session, "difficulty": Difficulty}

// kindsOf reads complete tags; an unknown name panics (a test builds the tree).
func kindsOf(names []string) []Kind {
	out := make([]Kind, len(names))
	for i, n := range names {
		k, ok := kindNames[n]
		if !ok {
			panic("completion: no argument kind " + n)
		}
		out[i] = k
	}
	return out
}

// Names lists the names of kind k (Campaign or a campaign's kind), or nil
// when they cannot be read. args are the positional arguments before the
// one completed. ctx is never nil.
type Names func(ctx context.Context, k Kind, args []string) []string

// Install turns on 'completion bash|zsh|fish|powershell' under root and
// completes the names a command line takes from src: campaigns (the
// flag --campaign), and what each command's positional arguments and flags
// name — by its Annotation (commands from the catalogue) or by byPath,
// which lists, by command path without root's name, what each positional
// argument names ("character show") or a flag ("log --session"); the last
// kind repeats for variadic commands.
func Install(root *cobra.Command, byPath map[string][]Kind, src Names) {
	root.CompletionOptions.DisableDefaultCmd = false
	root.CompletionOptions.HiddenDefaultCmd = false
	root.InitDefaultCompletionCmd() // now, to change its bash script
	if bash, _, err := root.Find([]string{"completion", "bash"}); err == nil && bash.Name() == "bash" {
		bash.RunE = func(c *cobra.Command, _ []string) error {
			noDesc, _ := c.Flags().GetBool("no-descriptions")
			var b bytes.Buffer
			if err := c.Root().GenBashCompletionV2(&b, !noDesc); err != nil {
				return err
			}
			_, err := io.WriteString(c.OutOrStdout(), bashKeepsJournalMatches(b.String()))
			return err
		}
	}
	_ = root.RegisterFlagCompletionFunc("campaign", completeKind(src, Campaign))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), root.Name()+" ")
		kinds, ok := byPath[path]
		if tags, gen := c.Annotations[Annotation]; gen && strings.Trim(tags, ",") != "" {
			kinds, ok = kindsOf(strings.Split(tags, ",")), true // a command from the catalogue (fromspec.go)
		}
		if ok && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = func(c *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
				k := kinds[min(len(args), len(kinds)-1)]
				if len(args) >= len(kinds) && c.Args != nil && c.Args(c, append(args, "x")) != nil {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return completeKind(src, k)(c, args, prefix)
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if tags := f.Annotations[Annotation]; len(tags) == 1 {
				_ = c.RegisterFlagCompletionFunc(f.Name, completeKind(src, kindsOf(tags)[0]))
			}
		})
		for key, kinds := range byPath {
			name, ok := strings.CutPrefix(key, path+" --")
			if ok && c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, completeKind(src, kinds[0]))
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// bashFilters are the lines of cobra's bash script that match the
// completions again, case-sensitively, against what was typed, and what
// replaces them: the journal has already matched them (names whatever
// their case and accents, commands and flags by their start), so bash
// keeps them all, and "journal roll lo<Tab>" gives Lodin. compgen is kept
// with an empty word, for what it does besides: undo the escaping.
var bashFilters = []struct {
	old, new string
	n        int
}{
	{`compgen -W "${completions[*]}" -- "${cur}")`, `compgen -W "${completions[*]}" -- "")`, 2},
	{`[[ $comp == "$cur"* ]] || continue`, `: # journal __complete matched it, whatever its case and accents`, 1},
}

// bashKeepsJournalMatches is cobra's bash completion script without its
// own, case-sensitive, matching (bashFilters); a script that does not
// have those lines is returned as it is (TestBashCompletionIgnoresCase
// then fails).
func bashKeepsJournalMatches(script string) string {
	for _, f := range bashFilters {
		if strings.Count(script, f.old) != f.n {
			return script
		}
	}
	for _, f := range bashFilters {
		script = strings.ReplaceAll(script, f.old, f.new)
	}
	return script
}

// completeKind returns the completion function of a kind of name.
func completeKind(src Names, k Kind) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, n := range namesOf(c.Context(), src, k, args) {
			if strings.HasPrefix(names.Fold(n), names.Fold(prefix)) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// namesOf lists the names of kind k: the fixed kinds' own, the others
// src's. args are the positional arguments before the one completed.
func namesOf(ctx context.Context, src Names, k Kind, args []string) []string {
	if ctx == nil {
		ctx = context.Background()
	}
	switch k {
	case None:
		return nil
	case Difficulty:
		return []string{"fácil", "media", "difícil", "insólito", "imposible"}
	case Vote:
		return []string{"yes", "no"}
	}
	return src(ctx, k, args)
}

// CampaignNames lists camp's names of kind k (not Campaign, nor the fixed
// kinds: those are nil). args are the positional arguments before the one
// completed.
func CampaignNames(camp *projections.Campaign, k Kind, args []string) []string {
	var out []string
	switch k {
	case Character:
		if camp.TOR != nil {
			return slices.Clone(camp.TOR.Roster)
		}
		return slices.Clone(camp.Roster)
	case Session:
		for _, s := range camp.Sessions {
			out = append(out, s.ID)
		}
	case Weapon:
		if r, err := command.RyFRules(camp); err == nil {
			for _, w := range r.Weapons() {
				out = append(out, w.Name)
			}
		}
	case Skill, Group:
		if camp.TOR != nil {
			if k == Group {
				for _, g := range tor.Groups() {
					out = append(out, string(g))
				}
			}
			for _, s := range tor.Skills() {
				out = append(out, s.Name)
			}
			return out
		}
		if r, err := command.RyFRules(camp); err == nil {
			for _, s := range r.Skills() {
				out = append(out, s.Name)
			}
		}
	case Attribute:
		if camp.TOR != nil {
			return []string{string(tor.Cuerpo), string(tor.Corazon), string(tor.Mente)}
		}
		if r, err := command.RyFRules(camp); err == nil {
			for _, at := range r.Attributes() {
				out = append(out, string(at))
			}
		}
	}
	return out
}
