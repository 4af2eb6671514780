package i18n

// The texts of journal-dice-v2's co-signed session ends, void consents and
// the audit's flags (kept apart from v2.go; merged at init; every key is
// in both).
var (
	enV2Session = map[Key]string{
		"tr.session_cosigned":        "%s co-signs the end of session %s (%s).",
		"rp2.f.no_contribution":      "no contribution: the session key is the host's seed alone",
		"rp2.f.empty":                "session %s ended with no roll (event %s): empty sessions let a host shop for a seed",
		"rp2.f.downgrade":            "session %s was started as journal-dice-v1 (event %s) while %s had a device key: its seed was the host's to read (the journal refuses this)",
		"rp2.f.gm_contribution_only": "no player's contribution: the session key is the host's seed with the GM's own (%d), which the host could choose",
		"rp2.f.cancelled":            "request %s cancelled (nonce %d consumed, event %s): %s",
		"rp2.f.unrevealed":           "request %s (nonce %d, event %s) was never revealed",
		"rp2.f.key_by_other":         "event %s: %s registered the %s key %s for %s (what %s signs from here on is checked against it)",
		"rp2.f.voided":               "roll %s (nonce %d) voided by event %s (%s), without its roller's consent",
		"rp2.f.voided_consented":     "roll %s (nonce %d) voided by event %s (%s); its roller %s consented (signature verified)",
		"rp2.f.not_cosigned":         "no player's device co-signed the session's end (event %s)",
		"rp2.f.stale":                "not revealed: the session has not ended and its last event is of %s, %d days ago",
		"rp2.f.open":                 "not ended: the session's seed is not revealed, so its rolls cannot be checked yet (its last event is of %s, %d days ago); an export cut before the end looks the same",
		"rp2.f.repeated":             "request %s (event %s) of %s asks again for the action of request %s, already revealed (event %s): a roll repeated for the same action",
		"rp2.cosigned.one":           "end co-signed by %[2]s",
		"rp2.cosigned.many":          "end co-signed by %[1]d devices: %[2]s",
		"rp2.cosigned_none":          "end co-signed by no device",
		"rp2.ok_flagged.one":         "OK with %d flag",
		"rp2.ok_flagged.many":        "OK with %d flags",
		"rp2.f.unwitnessed":          "GM roll of request %s (nonce %d, event %s) resolved unwitnessed: r came from the journal's server, not from a player's device or the beacon",
		"rp2.f.witness_key_by_other": "GM roll of request %s (roll %s) witnessed by %s, whose key %s registered: whoever holds that key chose r",
		"rp2.f.beacon_not_used":      "request %s (event %s) named beacon round %d but was resolved by %s's witness (roll %s): the host chose not to use the round",
	}
	esV2Session = map[Key]string{
		"tr.session_cosigned":        "%s cofirma el final de la sesión %s (%s).",
		"rp2.f.no_contribution":      "ninguna contribución: la clave de la sesión es solo la semilla del anfitrión",
		"rp2.f.empty":                "la sesión %s terminó sin ninguna tirada (evento %s): las sesiones vacías dejan al anfitrión elegir semilla",
		"rp2.f.downgrade":            "la sesión %s empezó con el algoritmo v1 (evento %s) cuando %s tenía una clave de dispositivo: su semilla la podía leer el anfitrión (el diario lo rechaza)",
		"rp2.f.gm_contribution_only": "ninguna contribución de un jugador: la clave de la sesión es la semilla del anfitrión con las del máster (%d), que el anfitrión podía elegir",
		"rp2.f.cancelled":            "petición %s cancelada (nonce %d consumido, evento %s): %s",
		"rp2.f.unrevealed":           "la petición %s (nonce %d, evento %s) nunca se reveló",
		"rp2.f.key_by_other":         "evento %s: %s registró la clave de %s %s para %s (lo que %s firme desde aquí se comprueba con ella)",
		"rp2.f.voided":               "tirada %s (nonce %d) anulada por el evento %s (%s), sin el consentimiento de quien tiró",
		"rp2.f.voided_consented":     "tirada %s (nonce %d) anulada por el evento %s (%s); quien tiró, %s, consintió (firma comprobada)",
		"rp2.f.not_cosigned":         "ningún dispositivo de jugador cofirmó el final de la sesión (evento %s)",
		"rp2.f.stale":                "sin revelar: la sesión no ha terminado y su último evento es del %s, hace %d días",
		"rp2.f.open":                 "sin terminar: la semilla de la sesión no se ha revelado, así que sus tiradas aún no se pueden comprobar (su último evento es del %s, hace %d días); una exportación cortada antes del final se ve igual",
		"rp2.f.repeated":             "la petición %s (evento %s) de %s vuelve a pedir la acción de la petición %s, ya revelada (evento %s): una tirada repetida para la misma acción",
		"rp2.cosigned.one":           "final cofirmado por %[2]s",
		"rp2.cosigned.many":          "final cofirmado por %[1]d dispositivos: %[2]s",
		"rp2.cosigned_none":          "final cofirmado por ningún dispositivo",
		"rp2.ok_flagged.one":         "OK con %d aviso",
		"rp2.ok_flagged.many":        "OK con %d avisos",
		"rp2.f.unwitnessed":          "tirada del máster de la petición %s (nonce %d, evento %s) resuelta sin testigo: r vino del servidor del diario, no del dispositivo de un jugador ni del faro",
		"rp2.f.witness_key_by_other": "tirada del máster de la petición %s (tirada %s) atestiguada por %s, cuya clave registró %s: quien tenga esa clave eligió r",
		"rp2.f.beacon_not_used":      "la petición %s (evento %s) nombraba la ronda %d del faro, pero la resolvió el testigo de %s (tirada %s): el anfitrión decidió no usar la ronda",
	}
)

func init() {
	for k, v := range enV2Session {
		en[k] = v
	}
	for k, v := range esV2Session {
		es[k] = v
	}
}
