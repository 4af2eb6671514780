package i18n

// The texts of the table's roll calls and void proposals as events
// (events/types_table.go): their transcript lines, the errors of their
// commands and the `journal call` command line (kept apart; merged at
// init; every key is in both).
var (
	enCalls = map[Key]string{
		"tr.call_made":          "%s calls roll %s: %s, for %s.",
		"tr.call_closed":        "%s closes roll call %s.",
		"tr.call_closed_reason": "%s closes roll call %s: %s.",
		"tr.call_answered":      "%s answers roll call %s.",
		"tr.void_proposed":      "%s proposes void %s of roll %s (%s): %s; %s's consent is asked.",
		"tr.void_consented":     "%s consents to void %s of roll %s.",
		"cli.call_none":         "no open roll calls",
		"dev.state.key_revoked": "key revoked in the journal",
		"cli.call_head":         "CALL\tCHARACTERS\tROLL\tVS\tANSWERED\tNOTE",
	}
	esCalls = map[Key]string{
		"tr.call_made":          "%s pide la tirada %s: %s, a %s.",
		"tr.call_closed":        "%s cierra la petición de tirada %s.",
		"tr.call_closed_reason": "%s cierra la petición de tirada %s: %s.",
		"tr.call_answered":      "%s responde a la petición de tirada %s.",
		"tr.void_proposed":      "%s propone la anulación %s de la tirada %s (%s): %s; se pide el consentimiento de %s.",
		"tr.void_consented":     "%s consiente la anulación %s de la tirada %s.",
		"cli.call_none":         "no hay peticiones de tirada abiertas",
		"dev.state.key_revoked": "clave revocada en el diario",
		"cli.call_head":         "PETICIÓN\tPERSONAJES\tTIRADA\tCONTRA\tRESPONDIDA\tNOTA",
	}
	// errorsESCalls: the errors of command/calls.go and the table's routes.
	errorsESCalls = map[string]string{
		"%d roll calls are open: close some first":                      "hay %d peticiones de tirada abiertas: cierra alguna antes",
		"%d void proposals are open: void or let some go first":         "hay %d propuestas de anulación abiertas: anula o deja caer alguna antes",
		"%w: %s answered roll call %s already (event %s)":               "%w: %s ya respondió a la petición de tirada %s (evento %s)",
		"%w: roll %s is already proposed for a void (%s)":               "%w: ya se propuso anular la tirada %s (%s)",
		"%w: roll call %s of campaign %s is closed":                     "%w: la petición de tirada %s de la campaña %s está cerrada",
		"a The One Ring roll call names a skill, not an attribute (%q)": "una petición de tirada de El Anillo Único nombra una habilidad, no un atributo (%q)",
		"already answered":                                      "ya respondida",
		"character %s is named twice":                           "el personaje %s aparece dos veces",
		"characters: name one to %d characters":                 "characters: nombra de uno a %d personajes",
		"command: roll call %s: no roll drafted to answer it":   "command: petición de tirada %s: no hay ninguna tirada que la responda",
		"no open void proposal %s in campaign %s":               "no hay ninguna propuesta de anulación abierta %s en la campaña %s",
		"no roll call %q in campaign %s":                        "no hay ninguna petición de tirada %q en la campaña %s",
		"roll call %s asks for %s, not %q":                      "la petición de tirada %s pide %s, no %q",
		"roll call %s asks for the attribute %s":                "la petición de tirada %s pide el atributo %s",
		"roll call %s is against %s, not %q":                    "la petición de tirada %s es contra %s, no %q",
		"roll call %s is for %s, not %s":                        "la petición de tirada %s es para %s, no para %s",
		"roll call closed":                                      "petición de tirada cerrada",
		"the command recorded no %s":                            "la orden no registró ningún %s",
		"void consent: %v":                                      "void consent: %v",
		"void consent: no open void proposal %q in campaign %s": "void consent: no hay ninguna propuesta de anulación abierta %q en la campaña %s",
		"void proposal %s has its roller's consent already":     "la propuesta de anulación %s ya tiene el consentimiento de quien tiró",
		"void proposal %s is of %s's roll, not %s's":            "la propuesta de anulación %s es de la tirada de %s, no de %s",
		"vs %q: a target number, %d to %d":                      "vs %q: un número objetivo, de %d a %d",
		"vs: %v":                                                "vs: %v",
	}
	// helpShortESCalls and helpFlagESCalls: `journal call`'s help.
	helpShortESCalls = map[string]string{
		"call":         "Pide a personajes una tirada de habilidad o atributo (cada uno responde una vez: 'journal roll ... --call ID')",
		"call close":   "Cierra una petición de tirada: no admite más respuestas",
		"call list":    "Lista las peticiones de tirada abiertas y quién respondió a cada una",
		"void consent": "journal-dice-v2: consiente, firmado en este dispositivo, una propuesta de anulación de tu tirada",
		"void propose": "journal-dice-v2: propone anular una tirada, pidiendo el consentimiento firmado de quien la tiró",
	}
	helpFlagESCalls = map[string]string{
		"the GM's note for the players":                                     "la nota del GM para los jugadores",
		"the GM's roll call this roll answers ('journal call list')":        "la petición de tirada del GM a la que responde esta tirada ('journal call list')",
		"the attribute to roll (RyF), or the skill's attribute":             "el atributo que tirar (RyF), o el atributo de la habilidad",
		"the difficulty (RyF: a name or a number; The One Ring: the TN)":    "la dificultad (RyF: un nombre o un número; El Anillo Único: el NO)",
		"the skill to roll (named as the rules do once recorded)":           "la habilidad que tirar (se registra como la nombran las reglas)",
		"why the call is closed":                                            "por qué se cierra la petición",
		"why the roll would be voided (the roller consents to this reason)": "por qué se anularía la tirada (quien tiró consiente este motivo)",
	}
)

func init() {
	for en2, es2 := range errorsESCalls {
		if _, dup := errorsES[en2]; dup {
			panic("i18n: error " + en2 + " translated twice")
		}
		errorsES[en2] = es2
	}
	for k, v := range helpShortESCalls {
		helpShortES[k] = v
	}
	for k, v := range helpFlagESCalls {
		helpFlagES[k] = v
	}
	for k, v := range enCalls {
		en[k] = v
	}
	for k, v := range esCalls {
		es[k] = v
	}
}
