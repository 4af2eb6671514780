package reproduce_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/reproduce"
	"github.com/campaign-journal/journal/rolls"
)

// Every roll event every catalogued command records (rolls, contests,
// attacks and their damage, healing, The One Ring's rolls, free rolls, the
// GM's secret rolls and their reveal, journal-dice-v2's revealed rolls)
// names the rules version of its engine today.
func TestEveryRollNamesItsRulesVersion(t *testing.T) {
	r := catalogSessions(t)
	kinds := map[string]bool{}
	for _, x := range r.Records() {
		var in events.RollMade
		switch x.Event.Type {
		case events.TypeRollMade:
			require.NoError(t, x.Event.DecodeData(&in))
		case events.TypeRollHidden:
			var h events.RollHidden
			require.NoError(t, x.Event.DecodeData(&h))
			in = h.Inputs()
		default:
			continue
		}
		require.Equal(t, rolls.Current(in.Kind), in.Rules, "%s %s (%s, command %s)", x.Event.Type, x.Event.ID, in.Kind, x.Event.Command)
		kinds[in.Kind] = true
	}
	for _, k := range []string{"skill", "attribute", "initiative", "melee", "ranged", "damage", "heal", "tor", "free"} {
		require.True(t, kinds[k], "no %s roll recorded: its version is untested", k)
	}
}

// The same sessions as recorded before roll events named their rules
// version (no rules member, no command attribute) reproduce identical: the
// absent member reads as the version the re-run records, or one that
// judges those rolls alike (ryf/1 and ryf/2 outside contests).
func TestRollsWithoutTheirRulesVersionReproduce(t *testing.T) {
	r := catalogSessions(t)
	var legacy []events.Recorded
	stripped := 0
	for _, x := range r.Records() {
		if x.Event.Session == "s2" || x.Event.Type == events.TypeParticipantRegistered || x.Event.Type == events.TypeDeviceRegistered ||
			x.Event.Type == events.TypeDeviceApproved || x.Event.Type == events.TypeDeviceRevoked {
			continue // journal-dice-v2's events always name their command and version
		}
		x.Event.Command = ""
		if x.Event.Type == events.TypeRollMade || x.Event.Type == events.TypeRollHidden {
			var m map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(x.Event.Data, &m))
			delete(m, "rules")
			b, err := json.Marshal(m)
			require.NoError(t, err)
			x.Event.Data = slices.Clip(b)
			stripped++
		}
		legacy = append(legacy, x)
	}
	require.Positive(t, stripped)
	rp := reproduced(t, legacy)
	for _, s := range rp.Sessions {
		require.Equal(t, reproduce.StatusIdentical, s.Status, "%s", s.Session)
	}
}
