package client

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/i18n"
)

// TestWriteConsent: the consent is printed as the GM's 'journal void'
// command that passes it on.
func TestWriteConsent(t *testing.T) {
	var w strings.Builder
	WriteConsent(&w, i18n.EN, "mordor", "ev1", `a "bad" roll`, command.SignedMessage{Signed: `{"m":1}`, Signature: "SIG"})
	require.Equal(t, "Your consent to void ev1, for the GM:\n"+
		`  journal -c mordor void ev1 --reason "a \"bad\" roll" --consent-signed '{"m":1}' --consent-signature SIG`+"\n", w.String())
}
