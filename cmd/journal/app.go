package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events/embedded"
)

// app holds the global options of one invocation and the resources opened
// for it. Commands open the journal lazily, so that pure commands (odds)
// never start a server.
type app struct {
	stdout, stderr io.Writer

	jsonOut  bool
	dataDir  string
	natsURL  string
	campaign string
	sync     bool
	replicas int
	// accessFile is --access; access is the configuration loaded from it
	// (nil without --access).
	accessFile string
	access     *access.Config

	// Opened lazily by openStore.
	st  store
	srv *embedded.Server
	nc  *nats.Conn // the journal's connection to NATS (--nats or the embedded server)

	closers []func()
}

func newApp(stdout, stderr io.Writer) *app {
	return &app{stdout: stdout, stderr: stderr}
}

func (a *app) close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "journal",
		Short: "The campaign journal: every roll and every wound of a campaign, proven and replayable",
		Long: `The campaign journal records every dice roll, damage, heal, XP grant and
advancement point of a tabletop role-playing campaign as an immutable event
in NATS JetStream. Sheets are rebuilt from the events; every roll comes from a
committed, seeded stream that anyone can verify once the session ends.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	pf := root.PersistentFlags()
	pf.BoolVar(&a.jsonOut, "json", false, "print a JSON document instead of text")
	pf.StringVar(&a.dataDir, "data", envOr("JOURNAL_DATA", "./journal-data"), "folder of the embedded JetStream store ($JOURNAL_DATA)")
	pf.StringVar(&a.natsURL, "nats", os.Getenv("NATS_URL"), "use an external NATS server or cluster instead of the embedded one ($NATS_URL)")
	pf.StringVarP(&a.campaign, "campaign", "c", os.Getenv("JOURNAL_CAMPAIGN"), "campaign id ($JOURNAL_CAMPAIGN)")
	pf.BoolVar(&a.sync, "sync", true, "embedded store: sync every write to disk before acknowledging it; --sync=false lets JetStream flush on its interval (a power loss can then lose acknowledged events)")
	pf.IntVar(&a.replicas, "replicas", 1, "with --nats: replicas of the stream (3 on a cluster)")
	pf.StringVar(&a.accessFile, "access", os.Getenv("JOURNAL_ACCESS"), "access file (users, roles, tokens; see deploy/access.example.json): the embedded server admits only its users, and serve requires a token on /api/ and answers the NATS command service ($JOURNAL_ACCESS)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())
	})

	root.AddCommand(a.oddsCommand(), a.demoCommand(), a.campaignCommand(), a.weaponCommand(), a.skillCommand(),
		a.characterCommand(), a.sessionCommand(), a.rollCommand(), a.contestCommand(), a.combatCommand(),
		a.attackCommand(), a.logCommand(), a.exportCommand(), a.voidCommand())
	root.AddCommand(a.healthCommands()...)
	root.AddCommand(a.progressCommands()...)
	root.AddCommand(a.torCommands()...)
	root.AddCommand(a.replayCommands()...)
	root.AddCommand(a.serveCommand())
	root.AddCommand(a.accessCommand())
	root.AddCommand(a.benchCommand())
	root.AddCommand(a.migrateCommand())
	var wrap func(c *cobra.Command)
	wrap = func(c *cobra.Command) {
		c.Args = wrapArgs(c.Args)
		for _, sub := range c.Commands() {
			wrap(sub)
		}
	}
	for _, c := range root.Commands() {
		wrap(c)
	}
	return root
}

// wrapArgs keeps cobra's argument checks but names the command in the error.
func wrapArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	if check == nil {
		return nil
	}
	return func(c *cobra.Command, args []string) error {
		if err := check(c, args); err != nil {
			return fmt.Errorf("%s: %w (usage: %s)", c.CommandPath(), err, c.UseLine())
		}
		return nil
	}
}

// emit prints v as JSON with --json, or calls text to print it readably.
func (a *app) emit(v any, text func(w io.Writer)) error {
	if a.jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	text(a.stdout)
	return nil
}
