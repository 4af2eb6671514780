package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// migrateCommand is `journal migrate`: copy a journal written in the old
// layout (before 2026-12-01: a subject per aggregate and event, a
// republished feed) into the current one (a subject per campaign), losing
// nothing (jetstore.Migrate). Every other command refuses an old-layout
// journal with a message naming this one.
func (a *app) migrateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Copy a journal of the old layout into the current one, keeping a backup",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			js, replicas, err := a.openJetStream(c.Context(), false, "")
			if err != nil {
				return err
			}
			if a.srv != nil && a.srv.Remote() {
				return msgerr.Errorf("migrate: %s is served by another process (NATS at %s): stop it first", a.dataDir, a.srv.ClientURL())
			}
			m, err := jetstore.Migrate(c.Context(), js, jetstore.Options{Replicas: replicas})
			if errors.Is(err, jetstore.ErrReplicas) {
				return msgerr.Errorf("--replicas %d: %w", a.replicas, err)
			}
			if err != nil {
				return err
			}
			return a.emit(m, func(w io.Writer) {
				if !m.Migrated {
					fmt.Fprintln(w, "nothing to migrate: the journal is in the current layout")
					return
				}
				fmt.Fprintf(w, "migrated %d messages (%d events, %d not events, copied as they were) of %d campaigns and %d sessions into the current layout; the old layout is kept in the stream %s\n",
					m.Messages, m.Events, m.Foreign, m.Campaigns, m.Sessions, m.Backup)
			})
		},
	}
}
