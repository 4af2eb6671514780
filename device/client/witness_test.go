package client

import (
	"crypto/rand"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// TestWarnUnrecorded: a device whose reveal or witness is not among what
// the journal says it recorded warns its user; one that is, does not.
func TestWarnUnrecorded(t *testing.T) {
	roll := func(request, signedMsg string) command.Result {
		e, err := events.New(events.Spec{Campaign: "mordor", Kind: events.KindCharacter, AggregateID: "orco",
			Type: events.TypeRollMade, Data: events.RollMade{Character: "orco", Request: request, Signed: signedMsg}},
			events.NewV7(time.Now, rand.Reader), time.Now())
		require.NoError(t, err)
		return command.Result{Events: []events.Recorded{{Event: e}}}
	}
	for _, tt := range []struct {
		name string
		res  command.Result
		warn bool
	}{
		{"recorded", roll("r1", "mine"), false},
		{"another's message recorded", roll("r1", "theirs"), true},
		{"another request's roll", roll("r2", "mine"), true},
		{"nothing recorded", command.Result{}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var errb strings.Builder
			c := &Client{Warn: func(format string, args ...any) { fmt.Fprintf(&errb, format+"\n", args...) }}
			for _, what := range []string{"witness", "reveal"} {
				errb.Reset()
				require.Equal(t, tt.warn, c.warnUnrecorded(tt.res, "mine", what, "r1"))
				require.Equal(t, tt.warn, strings.Contains(errb.String(), "WARNING: your "+what+" for request r1 is not in what the journal recorded"))
			}
		})
	}
}
