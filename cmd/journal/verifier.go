package main

import (
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/web"
	"github.com/spf13/cobra"
)

// verifierCommand is 'journal verifier': it writes the offline verifier,
// one self-contained HTML file (no server, nothing loaded from anywhere)
// that checks a dropped export in the browser: the hash chain, the
// signatures, the seeds, every face, the rules and their consequences.
func (a *app) verifierCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "verifier",
		Short: "Write the offline verifier: one HTML file that checks a dropped export in any browser",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			page, err := web.VerifierPage(a.language())
			if err != nil {
				return msgerr.Errorf("verifier: %w", err)
			}
			_, err = c.OutOrStdout().Write(page)
			return err
		},
	}
}
