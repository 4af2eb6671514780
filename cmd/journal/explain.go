package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/replay/eventref"
)

func (a *app) explainCommand() *cobra.Command {
	var (
		file  string
		seeds []string
	)
	cmd := &cobra.Command{
		Use:   "explain EVENT [--file F] [--seed HEX]",
		Short: "Explain one roll step by step: inputs, commitment, seed, bytes, faces, rules, verdict",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ctx := c.Context()
			id := strings.TrimSpace(args[0])
			src, done, err := a.auditSource(ctx, file, 2)
			if err != nil {
				return err
			}
			defer done()
			src = audit.Warned(src, a.warnForeign())
			if !isEventID(id) {
				r, err := eventref.Resolve(ctx, src, id, audit.Where(file, a.campaign))
				if err != nil {
					return err
				}
				id = r.Event.ID
			}
			x, err := audit.Explain(ctx, src, id, seeds)
			done()
			switch {
			case errors.Is(err, replay.ErrNotFound):
				return msgerr.Errorf("no event %s in %s", clip.Text(id), audit.Where(file, a.campaign))
			case errors.Is(err, replay.ErrNotRoll):
				return msgerr.Errorf("event %s (%s) is not a roll: explain takes a roll event", args[0], id)
			case err != nil:
				return audit.SourceError(err, file)
			}
			if err := a.emit(x, func(w io.Writer) { _ = x.WriteTextIn(w, a.language()) }); err != nil {
				return err
			}
			if (x.FacesMatch != nil && !*x.FacesMatch) || (x.SeedMatches != nil && !*x.SeedMatches) || !x.RulesAgree {
				return exitcode.MismatchError{Message: fmt.Sprintf("roll %s does not verify", id)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "read an export (JSON Lines) instead of the journal: needs no server")
	cmd.Flags().StringArrayVar(&seeds, "seed", nil, "the session's seed if not yet revealed: HEX or SESSION=HEX")
	return cmd
}

// isEventID reports whether s is a whole event id (a canonical UUID).
func isEventID(s string) bool {
	return len(s) == 36 && strings.Count(s, "-") == 4
}
