package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTableCommandsInBothLanguages: journal invite and journal devices
// write their lines in the output's language; names, ids, roles and the
// link stay as they are.
func TestTableCommandsInBothLanguages(t *testing.T) {
	c := newAccessCLI(t)
	c.add("ana", "--role", "gm", "--campaign", "mordor")
	for _, tc := range []struct {
		lang         string
		none, inv    string
		head, state  string
		revokeErr    string
		notContained []string
	}{
		{"es", "aún no hay invitaciones ni dispositivos", "de un solo uso hasta", "ESTADO", "abierta hasta",
			`journal: devices revoke: invitación desconocida: no hay dispositivo ni invitación "d-nada" (ver journal devices list)`,
			[]string{"KIND", "STATE", "open until", "usable once", "invite i-", "unknown invite", "no device"}},
		{"en", "no invites or devices yet", "usable once until", "STATE", "open until",
			`journal: devices revoke: unknown invite: no device or invite "d-nada" (see journal devices list)`,
			[]string{"ESTADO", "abierta", "de un solo uso"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			var all string
			if tc.lang == "es" {
				out := c.ok("--lang", "es", "-c", "mordor", "devices", "list")
				require.Contains(t, out, tc.none)
				all += out
			}
			out := c.ok("--lang", tc.lang, "-c", "mordor", "invite", "bea-"+tc.lang, "--character", "ruisenor")
			require.Contains(t, out, tc.inv)
			require.Contains(t, out, "bea-"+tc.lang)
			all += out
			out = c.ok("--lang", tc.lang, "-c", "mordor", "devices", "list")
			require.Contains(t, out, tc.head)
			require.Contains(t, out, tc.state)
			all += out
			_, errb, code := c.run("--lang", tc.lang, "devices", "revoke", "d-nada")
			require.NotZero(t, code)
			require.Equal(t, tc.revokeErr+"\n", errb)
			for _, w := range tc.notContained {
				require.NotContains(t, all+errb, w)
			}
		})
	}
}
