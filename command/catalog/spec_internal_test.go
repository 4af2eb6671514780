package catalog

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// TestEverySpecIsComplete: every catalogued command runs, has a CLI form,
// a role (a player command names the string field of its body that holds
// the acting character) and a way back from its events to its inputs
// (for the reproduction); its name is what events record.
func TestEverySpecIsComplete(t *testing.T) {
	clis := map[string]string{}
	for _, s := range All() {
		require.NoError(t, events.ValidCommand(s.Name), "command %q: its name is recorded on its events", s.Name)
		require.NotNil(t, s.run, "command %s: no handler", s.Name)
		require.NotNil(t, s.inputs, "command %s: no mapping from its events back to its inputs (reproduce)", s.Name)
		require.NotEmpty(t, s.Doc, "command %s: no doc", s.Name)
		require.NotEmpty(t, s.CLI, "command %s: no CLI form", s.Name)
		require.Empty(t, clis[s.CLI], "commands %s and %s: one CLI form %q", clis[s.CLI], s.Name, s.CLI)
		clis[s.CLI] = s.Name
		switch s.Role {
		case GM:
			require.Empty(t, s.Acting, "command %s: a GM command names no acting character", s.Name)
		case Player:
			require.True(t, stringField(s.Body, s.Acting), "command %s: acting character %q is not a string field of its body %T", s.Name, s.Acting, s.Body)
			if !s.ActingOptional { // a player must still name its own (access.Authorize)
				require.Contains(t, s.Required, s.Acting, "command %s: its acting character must be given", s.Name)
			}
		default:
			t.Fatalf("command %s: role %q: want %q or %q", s.Name, s.Role, GM, Player)
		}
	}
}

// stringField reports whether v's JSON has a string member named name.
func stringField(v any, name string) bool {
	rt := reflect.TypeOf(v)
	for i := range rt.NumField() {
		f := rt.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name {
			return f.Type.Kind() == reflect.String
		}
	}
	return false
}
