package access_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command/catalog"
)

// TestEveryCommandHasAPermission attacks every catalogued command as each
// role: the permissions come from the catalogue alone. A game master may
// issue it in its campaign, not in another; a dashboard and a user of
// another campaign never; a player only when the catalogue gives it the
// Player role, and then only for its own character.
func TestEveryCommandHasAPermission(t *testing.T) {
	gm := access.Principal{Name: "gm", Role: access.RoleGM, Campaign: "mordor"}
	other := access.Principal{Name: "gm2", Role: access.RoleGM, Campaign: "erebor"}
	dash := access.Principal{Name: "wall", Role: access.RoleDashboard, Campaign: "mordor"}
	ana := access.Principal{Name: "ana", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"lodin"}}
	denied := func(err error) bool { return err != nil && errors.Is(err, access.ErrDenied) }
	players := 0
	for _, s := range catalog.All() {
		field, isPlayer := access.PlayerCommand(s.Name)
		require.Equal(t, s.Role == catalog.Player, isPlayer, "command %s: role %q", s.Name, s.Role)
		body := func(ch string) []byte {
			if !isPlayer {
				return []byte(`{}`)
			}
			b, _ := json.Marshal(map[string]string{field: ch})
			return b
		}
		require.NoError(t, access.AuthorizeRequest(gm, "mordor", s.Name, body("lodin")), s.Name)
		require.True(t, denied(access.AuthorizeRequest(other, "mordor", s.Name, body("lodin"))), s.Name)
		require.True(t, denied(access.AuthorizeRequest(dash, "mordor", s.Name, body("lodin"))), s.Name)
		require.True(t, denied(access.AuthorizeRequest(ana, "mordor", s.Name, body("orco"))), "%s for another's character", s.Name)
		require.True(t, denied(access.AuthorizeRequest(ana, "erebor", s.Name, body("lodin"))), "%s in another campaign", s.Name)
		err := access.AuthorizeRequest(ana, "mordor", s.Name, body("lodin"))
		if isPlayer {
			players++
			require.NoError(t, err, s.Name)
			require.Equal(t, s.Acting, field)
		} else {
			require.True(t, denied(err), "a player issued the GM's %s", s.Name)
		}
	}
	require.Equal(t, players, len(access.PlayerCommands()))
	require.Positive(t, players)
}
