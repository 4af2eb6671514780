package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/buildinfo"
	"github.com/campaign-journal/journal/events/backup"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/textout"
)

// backupCommands are journal backup and journal restore.
func (a *app) backupCommands() []*cobra.Command {
	return []*cobra.Command{a.backupCommand(), a.restoreCommand()}
}

func (a *app) backupCommand() *cobra.Command {
	var keyFile string
	cmd := &cobra.Command{
		Use:   "backup FILE [--key KEYFILE]",
		Short: "Write the whole journal (events, sealed session secrets, checkpoints) into one file",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ctx := c.Context()
			if err := backup.MakeDir(args[0]); err != nil {
				return err
			}
			path, err := backup.KeyPath(keyFile)
			if err != nil {
				return err
			}
			key, created, err := backup.LoadOrCreateKey(path, rand.Reader)
			if err != nil {
				return err
			}
			if created {
				a.warnf("journal: created the backup key %s (fingerprint %s): keep a copy away from this machine and from the backups; a restore of open sessions needs it", path, key.Fingerprint())
			}
			if _, err := a.openStore(ctx, false, ""); err != nil {
				return err
			}
			if a.natsURL == "" {
				for _, p := range []string{args[0], path} {
					if backup.Within(p, a.dataDir) {
						a.warnf("journal: warning: %s is inside the data folder %s: a lost disk loses it with the journal", p, a.dataDir)
					}
				}
			}
			start := time.Now()
			m, err := backup.Write(ctx, a.nc, key, args[0], backup.Options{
				Prefix: jetstream.DefaultAPIPrefix, Version: buildinfo.ModuleVersion(), Progress: a.progressLine(),
			})
			if err != nil {
				return err
			}
			st, err := os.Stat(args[0])
			if err != nil {
				return err
			}
			return a.emit(map[string]any{"file": args[0], "bytes": st.Size(), "key": path, "manifest": m}, func(w io.Writer) {
				fmt.Fprintf(w, "backup %s: %d bytes in %v, sealed with key %s (fingerprint %s)\n", args[0], st.Size(), time.Since(start).Round(time.Millisecond), path, key.Fingerprint())
				m.WriteText(w)
			})
		},
	}
	cmd.Flags().StringVar(&keyFile, "key", "", "the backup key file (default: backup.key in the user's configuration folder, created if absent)")
	return cmd
}

func (a *app) restoreCommand() *cobra.Command {
	var (
		keyFile        string
		withoutSecrets bool
	)
	cmd := &cobra.Command{
		Use:   "restore FILE [--key KEYFILE] [--without-secrets]",
		Short: "Restore a backup into an empty journal (a new --data folder, or a cluster without it)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ctx := c.Context()
			// The key checks the manifest's MAC, which proves every part's
			// SHA-256: --without-secrets needs it too.
			path, err := backup.KeyPath(keyFile)
			if err != nil {
				return err
			}
			key, err := backup.LoadKey(path)
			if errors.Is(err, backup.ErrNoKey) {
				return msgerr.Errorf("%w: pass --key FILE (the key whose fingerprint journal backup printed): a restore checks the manifest's MAC under it, with --without-secrets too", err)
			}
			if err != nil {
				return err
			}
			arch, err := backup.Open(args[0], key)
			if err != nil {
				return err
			}
			if withoutSecrets {
				arch.LeaveSecretsOut()
			}
			nc, replicas, done, err := a.restoreConn(ctx)
			if err != nil {
				return err
			}
			defer done()
			start := time.Now()
			res, err := arch.Restore(ctx, nc, backup.Options{Prefix: jetstream.DefaultAPIPrefix, Replicas: replicas, Progress: a.progressLine()})
			if err != nil {
				return err
			}
			// The restored journal opens and is audited as journal replay
			// would (audit.Restored).
			rep, err := audit.Restored(ctx, nc, jetstream.DefaultAPIPrefix, replicas)
			if err != nil {
				return err
			}
			if err := a.emit(map[string]any{"file": args[0], "restored": res, "verified": rep.Totals, "foreign": rep.Foreign, "manifest": arch.Manifest}, func(w io.Writer) {
				fmt.Fprintf(w, "restored %s (taken %s) into %s in %v\n", args[0], arch.Manifest.Created.Format(time.RFC3339), strings.TrimSpace(a.targetFlags()), time.Since(start).Round(time.Millisecond))
				backup.WriteRestored(w, res)
				rep.WriteSummary(w) // what is not an event, in journal replay's words
			}); err != nil {
				return err
			}
			if !rep.OK() {
				// journal replay's summary (replay.go), exit 4 as it.
				msg := rep.Failure()
				return exitcode.MismatchError{Message: fmt.Sprintf("restored, but %s (see journal replay%s)", msg, a.targetFlags())}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&keyFile, "key", "", "the backup key file the backup was sealed with (default: backup.key in the user's configuration folder)")
	f.BoolVar(&withoutSecrets, "without-secrets", false, "leave out the sealed seeds of sessions open at the backup (the key is still needed)")
	return cmd
}

// restoreConn connects to the target of a restore without opening the
// journal (which would create its streams): the cluster of --nats, or an
// embedded server that this process owns on --data — never through a
// journal serve running on the folder.
func (a *app) restoreConn(ctx context.Context) (nc *nats.Conn, replicas int, done func(), err error) {
	if a.natsURL != "" {
		nc, err := nats.Connect(a.natsURL, nats.Name("journal restore"), nats.Timeout(5*time.Second))
		if err != nil {
			return nil, 0, nil, msgerr.Errorf("connect to NATS at %s: %w", access.RedactURLs(a.natsURL), err)
		}
		return nc, a.replicas, nc.Close, nil
	}
	if err := a.embeddedReplicas(); err != nil {
		return nil, 0, nil, err
	}
	nc, done, err = backup.StartEmbedded(ctx, a.dataDir)
	return nc, 1, done, err
}

// targetFlags are the global flags that name the journal just used.
func (a *app) targetFlags() string {
	if a.natsURL != "" {
		return " --nats " + access.RedactURLs(a.natsURL)
	}
	return " --data " + a.dataDir
}

// progressLine is stderr when it is a terminal, else nil: a nightly job's
// log gets the summary on stdout and nothing else.
func (a *app) progressLine() io.Writer {
	if textout.IsTerminal(a.stderr) {
		return a.stderr
	}
	return nil
}
