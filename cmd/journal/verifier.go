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
		Long: "Write the offline verifier to standard output: one self-contained HTML file, its scripts inlined,\n" +
			"that checks an export (journal export) dropped on it, with no server and no network: the hash chain\n" +
			"of the lines, the device signatures, each seed against its commitment, every face re-derived, and\n" +
			"the rules and consequences judged again (journal-dice-v1 and journal-dice-v2). Its words follow --lang or $LANG.",
		Example: "  journal verifier > verify.html\n  journal --lang es verifier > verificar.html",
		Args:    cobra.NoArgs,
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
