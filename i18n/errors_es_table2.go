package i18n

// errorsESTable2: the errors of the table's journal-dice-v2 routes
// (web/table2.go: actions, session ends to co-sign, void proposals).
var errorsESTable2 = map[string]string{
	"%s has no registered key in campaign %s":                           "%s no tiene clave registrada en la campaña %s",
	"%w: no event %s in campaign %s":                                    "%w: no hay ningún evento %s en la campaña %s",
	"%w: no open void proposal %s in campaign %s":                       "%w: no hay ninguna propuesta de anulación abierta %s en la campaña %s",
	"%w: no session %q in campaign %s":                                  "%w: no hay ninguna sesión %q en la campaña %s",
	"%w: roll %s is %s's: only its roller consents to its void, not %s": "%w: la tirada %s es de %s: solo quien la tiró consiente su anulación, no %s",
	"%w: session %s's end is not at seq %d of campaign %s":              "%w: el final de la sesión %s no está en la secuencia %d de la campaña %s",
	"64 void proposals are open: void or let some go first":             "hay 64 propuestas de anulación abiertas: anula o deja caer alguna antes",
	"contest action: entropy_a and entropy_b are not for a journal-dice-v2 contest (the device's secret replaces entropy)": "acción de `contest`: entropy_a y entropy_b no valen en un enfrentamiento journal-dice-v2 (el secreto del dispositivo sustituye a la entropía)",
	"event %s is a %s: a roller consents to the void of a journal-dice-v2 roll only":                                       "el evento %s es un %s: quien tira solo consiente la anulación de una tirada journal-dice-v2",
	"event_id %q: %v": "el id del evento %q: %v",
	"no journal-dice-v2 action %q (contest, combat-start, heal-after-combat, tor-roll, tor-hope, free-roll; attack has its own route)": "no hay ninguna acción journal-dice-v2 %q (`contest`, `combat-start`, `heal-after-combat`, `tor-roll`, `tor-hope`, `free-roll`; `attack` tiene su propia ruta)",
	"reason: write one, at most %d bytes":                          "reason: escribe uno, de %d bytes como mucho",
	"roll %s is already proposed for a void (%s)":                  "ya se propuso anular la tirada %s (%s)",
	"roll %s is already voided":                                    "la tirada %s ya está anulada",
	"session %s has not ended":                                     "la sesión %s no ha terminado",
	"the consent is a %s, not a %s":                                "el consentimiento es un %s, no un %s",
	"the consent's reason %q is not the proposal's %q":             "el motivo del consentimiento %q no es el de la propuesta %q",
	"the consent: %v":                                              "el consentimiento: %v",
	"the stream holds event %s at seq %d, not session %s's end %s": "el flujo tiene el evento %s en la secuencia %d, no el final de la sesión %s, %s",
}
