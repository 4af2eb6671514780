package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/replay"
)

func (a *app) statsCommand() *cobra.Command {
	var f replay.LuckFilter
	var file string
	cmd := &cobra.Command{
		Use:   "stats [--character C | --player P | --session S] [--file F]",
		Short: "Luck: faces observed against a fair die's exact odds, and each character's results",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			src, done, err := a.auditSource(ctx, file, 2)
			if err != nil {
				return err
			}
			defer done()
			src = audit.Warned(src, a.warnForeign())
			f.Campaign = a.campaign
			rep, err := replay.Luck(ctx, src, f)
			done()
			if err != nil {
				return audit.SourceError(err, file)
			}
			return a.emit(rep, func(w io.Writer) { _ = rep.WriteTextIn(w, a.language()) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Character, "character", "", "only this character's rolls")
	fl.StringVar(&f.Player, "player", "", "only the rolls of this player's characters")
	fl.StringVar(&f.Session, "session", "", "only this session's rolls")
	fl.StringVar(&file, "file", "", "read an export (JSON Lines) instead of the journal: needs no server")
	return cmd
}
