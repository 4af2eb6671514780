package main

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/names"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// argKind is what a positional argument or a flag names, for completion.
type argKind int

const (
	argNone argKind = iota
	argCampaign
	argCharacter
	argSkill // a skill (or, in a contest, an attribute)
	argWeapon
	argSession
	argAttribute
	argDifficulty
	argGroup // The One Ring: a skill group or a skill
	argVote
)

// argKinds lists, by command path (without "journal "), what each
// positional argument names, of the commands not built from the catalogue
// (those say it in their request types' complete tags, fromspec.go); the
// last kind repeats for variadic commands.
var argKinds = map[string][]argKind{
	"character show":    {argCharacter},
	"advancement show":  {argCharacter},
	"log --session":     {argSession},
	"export --session":  {argSession},
	"replay --session":  {argSession},
	"stats --session":   {argSession},
	"stats --character": {argCharacter},
	"odds ryf --vs":     {argDifficulty},
}

// kindNames are the argKinds by their names in the request types' complete
// tags (fromspec.go).
var kindNames = map[string]argKind{"": argNone, "character": argCharacter, "skill": argSkill, "weapon": argWeapon,
	"attribute": argAttribute, "group": argGroup, "vote": argVote, "session": argSession, "difficulty": argDifficulty}

// kindsOf reads complete tags; an unknown name panics (a test builds the tree).
func kindsOf(names []string) []argKind {
	out := make([]argKind, len(names))
	for i, n := range names {
		k, ok := kindNames[n]
		if !ok {
			panic("completion: no argument kind " + n)
		}
		out[i] = k
	}
	return out
}

// completion turns on 'journal completion bash|zsh|fish|powershell' and
// completes the names a command line takes from the journal: campaigns,
// characters, skills, weapons, sessions. Completing never creates the data
// folder and never prints an error: a journal that cannot be read
// completes nothing.
func (a *app) completion(root *cobra.Command) {
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
	_ = root.RegisterFlagCompletionFunc("campaign", a.completeKind(argCampaign))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), root.Name()+" ")
		kinds, ok := argKinds[path]
		if tags, gen := c.Annotations[annComplete]; gen && strings.Trim(tags, ",") != "" {
			kinds, ok = kindsOf(strings.Split(tags, ",")), true // a command from the catalogue (fromspec.go)
		}
		if ok && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = func(c *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
				k := kinds[min(len(args), len(kinds)-1)]
				if len(args) >= len(kinds) && c.Args != nil && c.Args(c, append(args, "x")) != nil {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return a.completeKind(k)(c, args, prefix)
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if tags := f.Annotations[annComplete]; len(tags) == 1 {
				_ = c.RegisterFlagCompletionFunc(f.Name, a.completeKind(kindsOf(tags)[0]))
			}
		})
		for key, kinds := range argKinds {
			name, ok := strings.CutPrefix(key, path+" --")
			if ok && c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, a.completeKind(kinds[0]))
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
func (a *app) completeKind(k argKind) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, n := range a.namesOf(c.Context(), k, args) {
			if strings.HasPrefix(names.Fold(n), names.Fold(prefix)) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// namesOf lists the names of kind k in the journal, or nil when it cannot
// be read. args are the positional arguments before the one completed.
func (a *app) namesOf(ctx context.Context, k argKind, args []string) []string {
	if ctx == nil {
		ctx = context.Background()
	}
	switch k {
	case argNone:
		return nil
	case argDifficulty:
		return []string{"fácil", "media", "difícil", "insólito", "imposible"}
	case argVote:
		return []string{"yes", "no"}
	}
	a.readOnly = true // completing never creates the folder
	if err := a.resolveDataDir(); err != nil {
		return nil
	}
	if k == argCampaign {
		ids, _ := a.campaignNames(ctx)
		return ids
	}
	camp, err := a.completionCampaign(ctx)
	if err != nil {
		return nil
	}
	return campaignNamesOf(camp, k, args)
}

// completionCampaign folds the campaign of -c, or the only one.
func (a *app) completionCampaign(ctx context.Context) (*projections.Campaign, error) {
	id := a.campaign
	if id == "" {
		ids, err := a.campaignNames(ctx)
		if err != nil || len(ids) != 1 {
			return nil, msgerr.New("no campaign")
		}
		id = ids[0]
	}
	j, err := a.journal(ctx)
	if err != nil {
		return nil, err
	}
	return j.Load(ctx, id, 0)
}

// campaignNamesOf lists camp's names of kind k.
func campaignNamesOf(camp *projections.Campaign, k argKind, args []string) []string {
	var out []string
	switch k {
	case argCharacter:
		if camp.TOR != nil {
			return slices.Clone(camp.TOR.Roster)
		}
		return slices.Clone(camp.Roster)
	case argSession:
		for _, s := range camp.Sessions {
			out = append(out, s.ID)
		}
	case argWeapon:
		if r, err := campaignRules(camp); err == nil {
			for _, w := range r.Weapons() {
				out = append(out, w.Name)
			}
		}
	case argSkill, argGroup:
		if camp.TOR != nil {
			if k == argGroup {
				for _, g := range tor.Groups() {
					out = append(out, string(g))
				}
			}
			for _, s := range tor.Skills() {
				out = append(out, s.Name)
			}
			return out
		}
		if r, err := campaignRules(camp); err == nil {
			for _, s := range r.Skills() {
				out = append(out, s.Name)
			}
		}
	case argAttribute:
		if camp.TOR != nil {
			return []string{string(tor.Cuerpo), string(tor.Corazon), string(tor.Mente)}
		}
		if r, err := campaignRules(camp); err == nil {
			for _, at := range r.Attributes() {
				out = append(out, string(at))
			}
		}
	}
	return out
}

// campaignRules are the RyF rules of a ryf or galaxia campaign.
func campaignRules(camp *projections.Campaign) (*ryf.Rules, error) {
	opts := ryf.Options{System: ryf.System(camp.System), Carisma: camp.Carisma, HardDefense: camp.HardDefense, AttributeBudget: camp.AttrBudget}
	for _, s := range camp.Skills {
		opts.Skills = append(opts.Skills, ryf.Skill{Name: s.Name, Attr: ryf.Attr(s.Attribute)})
	}
	return ryf.New(opts)
}

// campaignNames lists the campaigns of the journal, in creation order.
func (a *app) campaignNames(ctx context.Context) ([]string, error) {
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	var names []string
	err = st.Read(ctx, events.Query{Types: []string{events.TypeCampaignCreated}}, func(r events.Recorded) error {
		if !slices.Contains(names, r.Event.Campaign) {
			names = append(names, r.Event.Campaign)
		}
		return nil
	})
	return names, err
}
