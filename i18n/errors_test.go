package i18n_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
)

// TestErrorRendering: how an English message is read and written in
// Spanish: templates composed through their holes, values copied, what no
// template reads left as it is.
func TestErrorRendering(t *testing.T) {
	for _, tc := range []struct{ en, es string }{
		// One template; a quoted value, a did-you-mean in a hole.
		{`unknown skill "Sigli": did you mean Sigilo?`, `habilidad desconocida "Sigli": ¿quisiste decir Sigilo?`},
		// The sentinel the command line drops ("not found: ").
		{`no character "gandalf" in campaign mordor (characters: lodin, orco)`, `no hay personaje "gandalf" en la campaña mordor (personajes: lodin, orco)`},
		// Errors wrapped in errors.
		{`lodin cannot raise Sigilo from 3: not enough xp: rank 4 costs 4 xp, have 0`, `lodin no puede subir Sigilo desde 3: PX insuficientes: el rango 4 cuesta 4 PX, hay 0`},
		{`--vs: unknown difficulty "dificl": did you mean difícil?`, `--vs: dificultad desconocida "dificl": ¿quisiste decir difícil?`},
		// A list of violations: each one, not one whose name is the rest.
		{`invalid character: F (Fuerza) = 11, want 2..10; R (Resistencia) is missing; P (Percepción) is missing`,
			`personaje no válido: F (Fuerza) = 11, se espera 2..10; falta R (Resistencia); falta P (Percepción)`},
		// Reordered holes.
		{`lodin's Ballesta is already loaded (1 shots)`, `el Ballesta de lodin ya está cargado (1 disparos)`},
		// A library's message stays; the journal's around it is read.
		{`connect to NATS at nats://x:4222: nats: no servers available for connection`, `conectar con NATS en nats://x:4222: nats: no servers available for connection`},
		{`jsontext: invalid character 'o' in literal false (expecting 'a')`, `jsontext: invalid character 'o' in literal false (expecting 'a')`},
		{`a part of an id needs at least 4 characters`, `a part of an id needs at least 4 characters`},
		// A name in a list is no word of the catalogue's, even "weapon".
		{`journal: unknown command "initiative": want one of void, weapon, xp (see 'journal --help')`,
			`journal: orden "initiative" desconocida: se espera una de void, weapon, xp (ver 'journal --help')`},
		{`invalid character: specialization: missing: choose exactly one skill`, `personaje no válido: especialización: falta: elige exactamente una habilidad`},
		{`mismatch`, `discrepancia`},
		// Rule names and numbers as they are.
		{`Pelea = 9, at most 5 at creation`, `Pelea = 9, como mucho 5 al crear`},
	} {
		require.Equal(t, tc.es, i18n.ES.Error(tc.en), tc.en)
		require.Equal(t, tc.en, i18n.EN.Error(tc.en), "English is as it is")
	}
	require.Equal(t, `orden "rol" desconocida: ¿quisiste decir "log" o "roll"? (ver 'journal --help')`,
		i18n.ES.Error(`journal: unknown command "rol": did you mean "log" or "roll"? (see 'journal --help')`)[len("journal: "):])
}

// TestLongErrorList: a long list of violations is read part by part.
func TestLongErrorList(t *testing.T) {
	var en, es []string
	for range 40 {
		en = append(en, "R (Resistencia) is missing", "Pelea = 9, at most 5 at creation")
		es = append(es, "falta R (Resistencia)", "Pelea = 9, como mucho 5 al crear")
	}
	require.Equal(t, "personaje no válido: "+strings.Join(es, "; "), i18n.ES.Error("invalid character: "+strings.Join(en, "; ")))
}

func TestCheckErrorTemplate(t *testing.T) {
	require.NoError(t, i18n.CheckErrorTemplate("%s's %s is loaded (%d)", "el %[2]s de %[1]s está cargado (%[3]d)"))
	require.Error(t, i18n.CheckErrorTemplate("%s is %d", "%s es"))
	require.Error(t, i18n.CheckErrorTemplate("%s is %d", "%d es %s"))
	require.Error(t, i18n.CheckErrorTemplate("%s is %s", "%[1]s es %[1]s"))
	require.True(t, i18n.NeedsTranslation("no session %s"))
	require.False(t, i18n.NeedsTranslation("%w: %v"))
	require.False(t, i18n.NeedsTranslation("--vs: %w"))
}

// TestNoHalfTranslation: a part no template reads stays English as a
// whole; a generic template ("%s or %s") does not translate the words
// around English it cannot read.
func TestNoHalfTranslation(t *testing.T) {
	for _, tc := range []struct{ en, es string }{
		{`unknown invite: no widget or gadget "d-nothing"`, `invitación desconocida: no widget or gadget "d-nothing"`},
		{`unknown invite: no device or invite "d-nothing"`, `invitación desconocida: no hay dispositivo ni invitación "d-nothing"`},
		// Names in the holes are still read around.
		{`journal: unknown command "rol": did you mean "log" or "roll"? (see 'journal --help')`,
			`journal: orden "rol" desconocida: ¿quisiste decir "log" o "roll"? (ver 'journal --help')`},
	} {
		require.Equal(t, tc.es, i18n.ES.Error(tc.en), tc.en)
	}
}
