package i18n

// The texts of the table's command line: invites and devices (journal
// invite, journal devices), the notes of journal-dice-v2's GM rolls on
// standard output, a player's consent to a void; merged into en and es at
// init. Command lines are passed in the holes, as they are.
var (
	enTable = map[Key]string{
		"inv.created":       "journal invite: %s (%s of %s%s), invite %s, usable once until %s:",
		"dev.none":          "no invites or devices yet: %s",
		"dev.head":          "ID\tKIND\tUSER\tROLE\tCHARACTERS\tFINGERPRINT\tSTATE",
		"dev.kind.invite":   "invite",
		"dev.kind.device":   "device",
		"dev.state.active":  "active",
		"dev.state.revoked": "revoked",
		"dev.state.used":    "used",
		"dev.state.expired": "expired",
		"dev.state.open":    "open until %s",
		"dev.revoked":       "journal devices: revoked %s",
		"w2.waits":          "request %s of %s: it waits for a player's witness (%s) for %s; a player's %s witnesses it, or %s; after the wait: %s",
		"w2.pinned":         "request %s is pinned to drand quicknet round %d (published %s): then %s",
		"w2.no_witness":     "no player has a registered key yet",
		"w2.the_gm":         "the GM",
		"void.consent_for":  "Your consent to void %s, for the GM:",
	}
	esTable = map[Key]string{
		"inv.created":       "journal invite: %s (%s de %s%s), invitación %s, de un solo uso hasta %s:",
		"dev.none":          "aún no hay invitaciones ni dispositivos: %s",
		"dev.head":          "ID\tTIPO\tUSUARIO\tROL\tPERSONAJES\tHUELLA\tESTADO",
		"dev.kind.invite":   "invitación",
		"dev.kind.device":   "dispositivo",
		"dev.state.active":  "activo",
		"dev.state.revoked": "revocado",
		"dev.state.used":    "usada",
		"dev.state.expired": "caducada",
		"dev.state.open":    "abierta hasta %s",
		"dev.revoked":       "journal devices: revocado %s",
		"w2.waits":          "petición %s de %s: espera el testigo de un jugador (%s) durante %s; un jugador la atestigua con %s, o %s; tras la espera: %s",
		"w2.pinned":         "la petición %s está fijada a la ronda %d de drand quicknet (publicada %s): después %s",
		"w2.no_witness":     "ningún jugador tiene aún una clave registrada",
		"w2.the_gm":         "el máster",
		"void.consent_for":  "Tu consentimiento para anular %s, para el máster:",
	}
)

func init() {
	for k, v := range enTable {
		en[k] = v
	}
	for k, v := range esTable {
		es[k] = v
	}
}
