package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The command groups of 'journal --help', in the order they are listed.
var commandGroups = []*cobra.Group{
	{ID: "play", Title: "Table (play):"},
	{ID: "characters", Title: "Campaign and characters:"},
	{ID: "combat", Title: "Combat:"},
	{ID: "tor", Title: "The One Ring:"},
	{ID: "audit", Title: "Audit (read and verify):"},
	{ID: "server", Title: "Server:"},
	{ID: "setup", Title: "Setup:"},
	{ID: "dev", Title: "Development:"},
}

// groupOf names the group of every top-level command. A command missing
// here is listed under "Additional Commands" (TestEveryCommandHasAGroup
// fails).
var groupOf = map[string]string{
	"session": "play", "roll": "play", "contest": "play", "xp": "play", "token": "play",
	"day": "play", "rest": "play", "damage": "play", "heal": "play", "void": "play", "key": "play", "call": "play",
	"campaign": "characters", "character": "characters", "skill": "characters", "weapon": "characters",
	"combat": "combat", "attack": "combat", "reload": "combat", "heal-after-combat": "combat",
	"hope": "tor", "fellowship": "tor", "shadow": "tor", "madness": "tor", "trait": "tor",
	"advancement": "tor", "adventure": "tor",
	"log": "audit", "export": "audit", "replay": "audit", "explain": "audit", "stats": "audit", "odds": "audit", "verifier": "audit",
	"serve": "server", "access": "server", "invite": "server", "devices": "server", "backup": "server", "restore": "server", "healthcheck": "server", "migrate": "server",
	"demo": "setup", "login": "setup", "whoami": "setup", "version": "setup", "completion": "setup", "help": "setup",
	"bench": "dev",
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

// examples are the Example sections of the commands defined outside this
// package's command files (replay.go, serve.go, ...) and of the groups;
// a command's own Example wins.
var examples = map[string]string{
	"campaign":              "  journal campaign create mordor --system ryf --name \"Sombras de Mordor\"\n  journal -c mordor campaign show",
	"character":             "  journal -c mordor character create lodin --player ana --attrs F=8,R=7,D=9,I=8,P=8 --skills \"Pelea=5,Sigilo=3\" --spec Sigilo\n  journal -c mordor character show lodin",
	"skill":                 "  journal -c mordor skill define \"Juegos de azar\" --attribute P\n  journal -c mordor skill raise lodin Sigilo",
	"weapon":                "  journal -c mordor weapon define Ballesta --damage 1d10 --ranges 35/60/120",
	"session":               "  journal -c mordor session start --title \"La torre\"\n  journal -c mordor session end",
	"combat":                "  journal -c mordor combat start lodin orco\n  journal -c mordor combat round\n  journal -c mordor combat end",
	"xp":                    "  journal -c mordor xp grant lodin 7",
	"token":                 "  journal -c mordor token return lodin",
	"day":                   "  journal -c mordor day new",
	"hope":                  "  journal -c erebor hope spend bilbo",
	"fellowship":            "  journal -c erebor fellowship ask bilbo\n  journal -c erebor fellowship vote bilbo thorin yes",
	"shadow":                "  journal -c erebor shadow gain bilbo 2 --reason \"the Ring\"",
	"madness":               "  journal -c erebor madness end bilbo --flaw Receloso",
	"trait":                 "  journal -c erebor trait invoke bilbo Ladrón --auto --skill Sigilo",
	"advancement":           "  journal -c erebor advancement show bilbo\n  journal -c erebor advancement grant bilbo Movimiento",
	"adventure":             "  journal -c erebor adventure start \"La Montaña Solitaria\"",
	"odds":                  "  journal odds ryf --base 12 --vs 20\n  journal odds tor --dice 3 --tn 14",
	"replay":                "  journal -c mordor replay\n  journal -c mordor replay --session s1 --reproduce\n  journal replay --file mordor.jsonl",
	"explain":               "  journal -c mordor explain 12\n  journal -c mordor explain 1c3ee42e",
	"stats":                 "  journal -c mordor stats --character lodin\n  journal -c mordor stats --session s1",
	"log":                   "  journal -c mordor log\n  journal -c mordor log --session s1 --follow",
	"export":                "  journal -c mordor export > mordor.jsonl\n  journal -c mordor export --session s1 > s1.jsonl",
	"serve":                 "  journal serve --http 127.0.0.1:8080\n  journal --access access.json serve --http :8080 --nats-listen :4222",
	"access":                "  journal --access access.json access add ana --role player --campaign mordor --character lodin",
	"access add":            "  journal --access access.json access add gm --role gm --campaign mordor\n  journal --access access.json access add ana --role player --campaign mordor --character lodin",
	"access list":           "  journal --access access.json access list",
	"access remove":         "  journal --access access.json access remove ana",
	"access rotate":         "  journal --access access.json access rotate ana",
	"access nats-config":    "  journal --access access.json access nats-config --out auth.conf",
	"backup":                "  journal --data ./journal-data backup backups/journal-2026-12-01.jbk",
	"restore":               "  journal --data ./new-data restore backups/journal-2026-12-01.jbk --key backup.key\n  journal --nats nats://127.0.0.1:4222 --replicas 3 restore journal.jbk",
	"healthcheck":           "  journal healthcheck --url http://127.0.0.1:8080/healthz",
	"migrate":               "  journal --data ./journal-data migrate",
	"campaign list":         "  journal campaign list",
	"session list":          "  journal -c mordor session list",
	"skill list":            "  journal -c mordor skill list",
	"weapon list":           "  journal -c mordor weapon list --json",
	"demo":                  "  journal --data /tmp/demo demo\n  journal --data /tmp/demo-tor demo --system tor",
	"bench":                 "  journal --data /tmp/bench bench",
	"completion":            "  source <(journal completion bash)\n  journal completion zsh > \"${fpath[1]}/_journal\"\n  journal completion fish > ~/.config/fish/completions/journal.fish",
	"help":                  "  journal help roll\n  journal help environment\n  journal help exit-codes",
	"completion bash":       "  source <(journal completion bash)",
	"completion zsh":        "  journal completion zsh > \"${fpath[1]}/_journal\"",
	"completion fish":       "  journal completion fish > ~/.config/fish/completions/journal.fish",
	"completion powershell": "  journal completion powershell | Out-String | Invoke-Expression",
	"campaign create":       "  journal campaign create mordor --system ryf --name \"Sombras de Mordor\"\n  journal campaign create erebor --system tor\n  journal campaign create nave --system galaxia --carisma --hard-defense",
	"campaign show":         "  journal -c mordor campaign show\n  journal -c mordor campaign show --json",
	"character create":      "  journal -c mordor character create lodin --player ana --attrs F=8,R=7,D=9,I=8,P=8 --skills \"Pelea=5,Sigilo=3\" --spec Sigilo --weapons Espada\n  journal -c mordor character create orco --npc --attrs F=7,R=4,D=5,I=3,P=4 --skills Pelea=4",
	"character list":        "  journal -c mordor character list\n  journal -c mordor character list --json",
	"character show":        "  journal -c mordor character show lodin\n  journal -c mordor character show lodin --at 12\n  journal -c mordor character show lodin --at \"2026-03-14 21:30\"",
	"skill define":          "  journal -c mordor skill define \"Juegos de azar\" --attribute P",
	"skill raise":           "  journal -c mordor skill raise lodin Sigilo",
	"weapon define":         "  journal -c mordor weapon define Hacha --damage 1d10+1 --precision -1\n  journal -c mordor weapon define Ballesta --damage 1d10 --ranges 35/60/120 --magazine 1",
	"session start":         "  journal -c mordor session start\n  journal -c mordor session start s2 --title \"La torre\"",
	"session end":           "  journal -c mordor session end",
	"combat start":          "  journal -c mordor combat start lodin orco\n  journal -c mordor combat start lodin orco --token lodin",
	"combat round":          "  journal -c mordor combat round",
	"combat end":            "  journal -c mordor combat end",
	"combat show":           "  journal -c mordor combat show",
	"attack":                "  journal -c mordor attack lodin orco\n  journal -c mordor attack lodin orco --weapon Ballesta --range media --cover",
	"damage":                "  journal -c mordor damage lodin 3 --source orco",
	"heal":                  "  journal -c mordor heal lodin 2",
	"rest":                  "  journal -c mordor rest\n  journal -c mordor rest --comfort",
	"heal-after-combat":     "  journal -c mordor heal-after-combat lodin",
	"xp grant":              "  journal -c mordor xp grant lodin 7",
	"token return":          "  journal -c mordor token return lodin",
	"day new":               "  journal -c mordor day new",
	"reload":                "  journal -c mordor reload lodin\n  journal -c mordor reload lodin Ballesta",
	"void":                  "  journal -c mordor void 01a230d8-6f16-71f1-a668-c1a24eff7dad --reason \"rolled for the wrong character\"",
	"hope spend":            "  journal -c erebor hope spend bilbo\n  journal -c erebor hope spend bilbo 01a230d8-6f16-71f1-a668-c1a24eff7dad",
	"fellowship ask":        "  journal -c erebor fellowship ask bilbo",
	"fellowship vote":       "  journal -c erebor fellowship vote bilbo thorin yes",
	"fellowship take":       "  journal -c erebor fellowship take bilbo",
	"fellowship withdraw":   "  journal -c erebor fellowship withdraw bilbo",
	"fellowship phase":      "  journal -c erebor fellowship phase",
	"fellowship show":       "  journal -c erebor fellowship show\n  journal -c erebor fellowship show --at 40",
	"shadow gain":           "  journal -c erebor shadow gain bilbo 1 --reason \"the dragon's gold\"",
	"madness end":           "  journal -c erebor madness end bilbo --flaw Receloso",
	"trait invoke":          "  journal -c erebor trait invoke bilbo Ladrón --auto --skill Sigilo\n  journal -c erebor trait invoke bilbo \"Ojo avizor\" --roll",
	"advancement grant":     "  journal -c erebor advancement grant bilbo Movimiento --roll 01a230d8-6f16-71f1-a668-c1a24eff7dad\n  journal -c erebor advancement grant bilbo Sigilo",
	"advancement show":      "  journal -c erebor advancement show bilbo",
	"adventure start":       "  journal -c erebor adventure start \"La Montaña Solitaria\"",
}

const environmentHelp = `Global flags and the environment

Every command takes these flags; each may also be set in the environment.

  --data DIR, $JOURNAL_DATA (default ./journal-data)
      The folder of the embedded JetStream store. It is made absolute, and
      every error names it. Only commands that record something create it:
      reading commands (show, list, log, export, replay...) report "no journal
      in DIR" instead. When 'journal serve' owns the folder, other commands
      connect through it.

  -c, --campaign ID, $JOURNAL_CAMPAIGN
      The campaign a command acts on.

  --json
      Print a JSON document instead of text. Errors are then one JSON object
      on stderr: {"error": {"code": "...", "message": "...", "message_en":
      "...", "exit": N}}; message is in the output's language (--lang),
      message_en in English; code and exit never change with the language.

  --nats URL, $NATS_URL
      Use an external NATS server or cluster instead of the embedded one
      (comma-separated URLs; user:password@ is never printed).
      With a player's, GM's or dashboard's credentials in the URL
      (nats://bea:PASSWORD@host:4222, as 'journal access add' prints them),
      from any machine: the CLI is then a client of the journal's NATS
      command service, not of JetStream. It acts as that NATS user (a login
      naming another user is refused), reads one campaign (-c) with the
      service's events command, follows it on journalfeed.<campaign>, and
      records only the commands of the catalogue, signing v2 rolls with
      this device's key. A URL whose user is the journal's own (role
      journal in --access, else the user "journal"), or with no user, is
      the journal's own connection to JetStream.

  --inbox-prefix PREFIX
      With --nats as a player, GM or dashboard: the inbox prefix of your
      NATS user, _INBOX.<user> by default (the only one the service answers
      on); another is refused before anything is sent.

  --replicas N
      With --nats: a new journal's number of replicas (give 3 when creating
      it on a cluster), fixed when it is created, for its streams and
      buckets alike. Later commands read it from the journal (default: the
      journal's, 1 for a new one); an N that disagrees is refused, changing
      nothing. The embedded server's journal has 1.

  --partitions K
      A new journal's number of partitions (1 to 64, default 1), fixed when
      it is created: its campaigns spread over K streams JOURNAL-0…K-1 by a
      hash of their id. Later commands read it from the journal; a K that
      disagrees is refused. 'journal serve' needs one partition for now.

  --sync (default true)
      Embedded store: sync every write to disk before acknowledging it.
      --sync=false lets JetStream flush on its interval: a power loss can
      then lose acknowledged events.

  --access FILE, $JOURNAL_ACCESS
      The access file (users, roles, tokens; see deploy/access.example.json):
      the embedded server admits only its users, and serve requires a token
      on /api/ and answers the NATS command service.

  --lang es|en, else $LC_ALL, $LC_MESSAGES, $LANG (the first one set)
      The language of every label, message and help page: es* is Spanish,
      anything else English. serve's pages speak serve --lang, else each
      browser's language.

Variables without a flag:

  $JOURNAL_ACTOR
      Who this command line is, for one command: it overrides the user
      'journal login' set (there is no default: a device with neither is
      refused when it acts), and what journal serve records for the requests it
      answers without an access file (default api; with one, each user's
      name).

  $JOURNAL_CONFIG
      The folder of this device's user ('journal login': identity.json),
      keys ('journal key'; they sign your journal-dice-v2 rolls:
      $JOURNAL_CONFIG/keys) and receipts. Default: journal/ in the user's
      configuration folder.

  $XDG_CONFIG_HOME
      The user's configuration folder (else ~/.config on Linux; the
      system's own elsewhere). It holds journal/keys, the device keys'
      default folder, and campaign-journal/backup.key, the default key of
      'journal backup' and 'journal restore' (--key names another).

  $JOURNAL_URL
      The default of 'journal invite --url': the address players reach
      journal serve by (default http://127.0.0.1:8080).

  $TMPDIR
      Where 'journal demo' makes its folder (without --data) and its
      players' device keys, and where replay --file copies an export that is
      not a regular file (a pipe).
`

const exitCodesHelp = `Exit codes

  0  ok: the command did what it was asked
  1  failure: refused by the rules, the state of play, a permission, a
     rate limit (rate_limited) or a quota (quota), or an I/O failure
  2  usage: a bad flag or value, an unknown command, a missing or unreadable
     argument, an id that is not a slug, an unknown system
  3  not found: an unknown campaign, character, skill, weapon, session or
     event, a file the command names that does not exist, or no journal in
     the data folder
  4  mismatch: replay (or the demo's verification) found a mismatch
  5  flagged: replay verified every roll, and flagged something that is
     not a mismatch (a journal-dice-v2 session without contributions or
     whose end no player co-signed, a voided or repeated roll, a cancelled
     or unrevealed request, a session not revealed long after its last
     event...): read the FLAG lines, or "flags" in --json

With --json an error is one JSON object on stderr (message in the output's
language, message_en in English, for scripts to compare with code):
  {"error": {"code": "not_found", "message": "...", "message_en": "...", "exit": 3}}
`

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

// annAliasOf marks a hidden flag kept as an alias of a renamed one.
const annAliasOf = "journal/alias-of"

// aliasFlag adds the hidden flag old to c, an alias of c's flag current
// (they share one value): a command line that uses it still works, with a
// one-line notice (see noticeAliases).
func aliasFlag(c *cobra.Command, old, current string) {
	f := c.Flags().Lookup(current)
	c.Flags().AddFlag(&pflag.Flag{Name: old, Usage: "deprecated: use --" + current, Value: f.Value, DefValue: f.DefValue,
		NoOptDefVal: f.NoOptDefVal, Hidden: true, Annotations: map[string][]string{annAliasOf: {current}}})
}

// noticeAliases prints a notice for each deprecated alias on the command line.
func noticeAliases(c *cobra.Command, warnf func(format string, args ...any)) {
	c.Flags().Visit(func(f *pflag.Flag) {
		if cur := f.Annotations[annAliasOf]; len(cur) == 1 {
			warnf("journal: notice: --%s is deprecated, use --%s", f.Name, cur[0])
		}
	})
}
