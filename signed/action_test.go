package signed_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/signed"
)

// TestDecodeAction: an action is read strictly: an unknown member or data
// after the object is refused, a well-formed one is read whole.
func TestDecodeAction(t *testing.T) {
	type action struct {
		Command string `json:"command"`
		TN      int    `json:"tn"`
	}
	var a action
	require.NoError(t, signed.DecodeAction([]byte(`{"command":"tor-roll","tn":14}`), &a))
	require.Equal(t, action{Command: "tor-roll", TN: 14}, a)
	require.ErrorContains(t, signed.DecodeAction([]byte(`{"command":"x","extra":1}`), &a), "unknown field")
	require.ErrorIs(t, signed.DecodeAction([]byte(`{"command":"x"} {}`), &a), signed.ErrAfterAction)
	require.Error(t, signed.DecodeAction([]byte(`[1]`), &a))
}
