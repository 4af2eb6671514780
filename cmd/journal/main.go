// Command journal records tabletop role-playing campaigns as immutable
// events in NATS JetStream, rebuilds character sheets from them, and proves
// every roll from committed, seeded randomness.
//
// Every command prints a readable line or table, or a JSON document with
// --json. Bad input exits non-zero with one clear message and records nothing.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/campaign-journal/journal/exitcode"
)

func main() {
	// SIGINT and SIGTERM cancel the command's context: every blocking read
	// and wait ends, and the command cleans up. A second signal ends the
	// process at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns the process exit code (see
// exitcode.Of for their meaning).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runApp(ctx, newApp(stdout, stderr), args)
}

// runApp is run with the given app.
func runApp(ctx context.Context, app *app, args []string) int {
	stdout, stderr := app.stdout, app.stderr
	root := app.rootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	app.close()
	if err == nil {
		return exitcode.OK
	}
	return exitcode.Report(stderr, exitcode.CobraUsage(cmd, err), app.jsonOut || exitcode.WantsJSON(args), errorLanguage(app, args))
}
