package main

import (
	"io"
	"os"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/clicomplete"
	"github.com/campaign-journal/journal/clihelp"
	"github.com/campaign-journal/journal/cobraspec"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/recorder"
	"github.com/campaign-journal/journal/textout"
)

// app holds the global options of one invocation and the resources opened
// for it. Commands open the journal lazily, so that pure commands (odds)
// never start a server.
type app struct {
	stdout, stderr io.Writer

	jsonOut bool
	// signedShown: signedAs has told who this command signs as (identity.go).
	signedShown bool
	lang        langFlag // --lang; see language
	dataDir     string
	natsURL     string
	// inboxPrefix is --inbox-prefix: a service client's (remote.go);
	// service is its connection, opened once.
	inboxPrefix string
	service     *remoteService
	// recorded is what the last command of this invocation recorded
	// (recordWith).
	recorded command.Result
	// fold is this invocation's fold of the campaign and the state the
	// commands recorded since the last report were decided on.
	fold     recorder.Fold
	campaign string
	sync     bool
	// replicas is --replicas: the journal's number of replicas, fixed at
	// its creation (0: the journal's, 1 for a new one; see openStore).
	replicas int
	// partitions is --partitions: the journal's number of partitions,
	// fixed at its creation (0: the journal's, see openStore).
	partitions int
	// accessFile is --access; access is the configuration loaded from it
	// (nil without --access).
	accessFile string
	access     *access.Config
	// requestID is --request-id: the id of this invocation's command
	// (one is made when it is not given), so that running it again, or
	// its own retry after a timeout, records it once.
	requestID string
	// wrapStore, set by tests, wraps the store commands record through.
	wrapStore func(command.Store) command.Store
	// readOnly is set for the commands that only read the journal: they
	// never create the data folder (see readCommands).
	readOnly bool
	// announced is set once the acting user was told of the devices added
	// to its name (announceDevices, key_devices.go).
	announced bool

	// Opened lazily by openStore.
	st store
	// js and jsReplicas are the JetStream the store was opened on, and
	// the journal's replicas (jetstore.Store.Replicas).
	js         jetstream.JetStream
	jsReplicas int
	srv        *embedded.Server
	nc         *nats.Conn // the journal's connection to NATS (--nats or the embedded server)

	// handlers are the command handlers over st, made once (journal).
	handlers *command.Handler

	closers []func()

	// receipts holds, by campaign, what checking this device's receipts
	// found (receipts.go): checked once per invocation.
	receipts map[string][]device.Alarm
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
		Use:           "journal",
		Short:         "The campaign journal: every roll and every wound of a campaign, proven and replayable",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(a.stdout) // before the completion command captures its output
	root.SetErr(a.stderr)
	root.Version = buildVersion().Short()
	pf := root.PersistentFlags()
	pf.BoolVar(&a.jsonOut, "json", false, "print JSON (errors too, on stderr)")
	pf.Var(&a.lang, "lang", "language of the output, `es|en` (default: from $LANG)")
	pf.StringVar(&a.dataDir, "data", envOr("JOURNAL_DATA", "./journal-data"), "the journal's data folder `DIR` ($JOURNAL_DATA)")
	pf.StringVar(&a.natsURL, "nats", os.Getenv("NATS_URL"), "external NATS server `URL` ($NATS_URL)")
	pf.StringVar(&a.inboxPrefix, "inbox-prefix", "", "with --nats as a player, GM or dashboard: the inbox `PREFIX` of your NATS user (default _INBOX.<user>)")
	pf.StringVarP(&a.campaign, "campaign", "c", os.Getenv("JOURNAL_CAMPAIGN"), "campaign `ID` ($JOURNAL_CAMPAIGN)")
	pf.BoolVar(&a.sync, "sync", true, "sync every write to disk (embedded store)")
	pf.StringVar(&a.requestID, "request-id", "", "`ID` of this command: run again with it, recorded once")
	pf.IntVar(&a.replicas, "replicas", 0, "`N` replicas of a new journal, fixed at its creation (default: the journal's, 1 when new)")
	pf.IntVar(&a.partitions, "partitions", 0, "`K` partitions of a new journal, fixed at its creation (default: the journal's, 1 when new)")
	pf.StringVar(&a.accessFile, "access", os.Getenv("JOURNAL_ACCESS"), "access `FILE`: users, roles, tokens ($JOURNAL_ACCESS)")
	root.SetFlagErrorFunc(exitcode.FlagError)
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		a.readOnly = readOnly(c)
		cobraspec.NoticeAliases(c, a.warnf)
		return a.resolveDataDir()
	}

	root.AddCommand(a.oddsCommand(), a.demoCommand(), a.campaignCommand(), a.weaponCommand(), a.skillCommand(),
		a.characterCommand(), a.sessionCommand(), a.rollCommand(), a.keyCommand(), a.contestCommand(), a.combatCommand(),
		a.attackCommand(), a.logCommand(), a.exportCommand(), a.voidCommand(), a.callCommand())
	root.AddCommand(a.healthCommands()...)
	root.AddCommand(a.progressCommands()...)
	root.AddCommand(a.torCommands()...)
	root.AddCommand(a.replayCommands()...)
	root.AddCommand(a.serveCommand())
	root.AddCommand(a.accessCommand(), a.healthcheckCommand(), a.inviteCommand(), a.devicesCommand())
	root.AddCommand(a.benchCommand())
	root.AddCommand(a.backupCommands()...)
	root.AddCommand(a.migrateCommand())
	root.AddCommand(a.identityCommands()...)
	root.AddCommand(a.versionCommand(), a.verifierCommand())
	clicomplete.Install(root, argKinds, a.namesOf)
	clihelp.Organize(root)
	return root
}

// emit prints v as JSON with --json, or calls text to print it readably.
func (a *app) emit(v any, text func(w io.Writer)) error {
	return textout.Emit(a.stdout, a.jsonOut, v, text)
}
