package client

import (
	"fmt"
	"io"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/i18n"
)

// WriteConsent writes, in l, the roller's signed consent m (Consent) to
// the void of its roll event of campaign for reason, as the GM's
// 'journal void' command that passes it on.
func WriteConsent(w io.Writer, l i18n.Lang, campaign, event, reason string, m command.SignedMessage) {
	fmt.Fprintln(w, l.T("void.consent_for", event))
	fmt.Fprintf(w, "  journal -c %s void %s --reason %q --consent-signed '%s' --consent-signature %s\n", campaign, event, reason, m.Signed, m.Signature)
}
