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
		"cli.call_head":         "PETICIÓN\tPERSONAJES\tTIRADA\tCONTRA\tRESPONDIDA\tNOTA",
	}
	// errorsESCalls: the errors of command/calls.go and the table's routes.
	errorsESCalls = map[string]string{}
	// helpShortESCalls and helpFlagESCalls: `journal call`'s help.
	helpShortESCalls = map[string]string{}
	helpFlagESCalls  = map[string]string{}
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
