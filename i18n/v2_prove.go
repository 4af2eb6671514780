package i18n

// The texts of a suppressed roll's proof (docs/design.md §3.3, "A suppressed
// roll can be proved"): `journal roll prove`, journal.roll.proved.v1, the
// flag cancelled-after-reveal and `journal replay --proof` (kept apart;
// merged at init; every key is in both).
var (
	enProve = map[Key]string{
		"rp2.f.cancelled_after_reveal":  "%s proved request %s (nonce %d) cancelled by %s (event %s): it would have been %s → %s",
		"rp2.f.unrevealed_after_reveal": "%s proved request %s (nonce %d) left unrevealed at the session's end: it would have been %s → %s",
		"rp2.f.proof_cancelled":         "proof file %s: %s's reveal of request %s (nonce %d), cancelled by %s (event %s), is not recorded: its first dice would have been %s",
		"rp2.f.proof_unrevealed":        "proof file %s: %s's reveal of request %s (nonce %d), left unrevealed at the session's end, is not recorded: its first dice would have been %s",
		"rp2.f.proof_cancelled_sealed":  "proof file %s: %s's reveal of request %s (nonce %d), cancelled by %s (event %s), is not recorded; its dice are known once the session's seed is revealed",
		"rp2.f.proof_unrevealed_sealed": "proof file %s: %s's reveal of request %s (nonce %d), left unrevealed at the session's end, is not recorded; its dice are known once the session's seed is revealed",
		"rp2.proof.recorded":            "proof file %s: the roll of request %s was recorded (event %s): nothing was suppressed",
		"rp2.proof.unknown_request":     "the proof names request %s, which is not recorded before it",
		"rp2.proof.not_users":           "the proof is %s's, request %s is %s's",
		"rp2.proof.gm_request":          "the proof names request %s, a GM's request without a commitment",
		"rp2.proof.commitment":          "the proof's r does not open request %s's commitment %s",
		"rp2.proof.made":                "the proof names request %s, whose roll is recorded",
		"rp2.proof.proved":              "the proof names request %s, already proved by event %s",
		"rp2.proof.pending":             "the proof names request %s, still pending: its reveal makes the roll",
		"rp2.proof.not_v2":              "session %s is not a journal-dice-v2 session in the export",
		"rp2.proof.no_request":          "request %s is not in session %s of the export",
		"rp2.proof.no_key":              "the key that signed request %s is not known",
		"rp2.proof.signature":           "the reveal's signature does not hold under the key that signed request %s (%s's, %s)",
		"rp2.proof.not_reveal":          "the signed message is not a roll.reveal of request %s",
		"rp2.proof.no_session":          "session %s of campaign %s is not in the export",
		"rp2.proof.bad":                 "proof file %s: %s",
		"tr.roll_proved":                "%s proved request %s (%s), cancelled by %s: it would have been %s → %s.",
		"tr.roll_proved_unrevealed":     "%s proved request %s (%s), left unrevealed at the session's end: it would have been %s → %s.",
		"cli.prove_written":             "journal: proof of request %s written to %s: check it with 'journal replay --file EXPORT --proof %s'",
	}
	esProve = map[Key]string{
		"rp2.f.cancelled_after_reveal":  "%s demostró la petición %s (nonce %d) cancelada por %s (evento %s): habría salido %s → %s",
		"rp2.f.unrevealed_after_reveal": "%s demostró la petición %s (nonce %d) sin revelar al final de la sesión: habría salido %s → %s",
		"rp2.f.proof_cancelled":         "fichero de prueba %s: la revelación de %s de la petición %s (nonce %d), cancelada por %s (evento %s), no está guardada: sus primeros dados habrían salido %s",
		"rp2.f.proof_unrevealed":        "fichero de prueba %s: la revelación de %s de la petición %s (nonce %d), sin revelar al final de la sesión, no está guardada: sus primeros dados habrían salido %s",
		"rp2.f.proof_cancelled_sealed":  "fichero de prueba %s: la revelación de %s de la petición %s (nonce %d), cancelada por %s (evento %s), no está guardada; sus dados se conocerán cuando se revele la semilla de la sesión",
		"rp2.f.proof_unrevealed_sealed": "fichero de prueba %s: la revelación de %s de la petición %s (nonce %d), sin revelar al final de la sesión, no está guardada; sus dados se conocerán cuando se revele la semilla de la sesión",
		"rp2.proof.recorded":            "fichero de prueba %s: la tirada de la petición %s está guardada (evento %s): no se suprimió nada",
		"rp2.proof.unknown_request":     "la prueba nombra la petición %s, que no está guardada antes",
		"rp2.proof.not_users":           "la prueba es de %s, la petición %s es de %s",
		"rp2.proof.gm_request":          "la prueba nombra la petición %s, una petición del máster sin compromiso",
		"rp2.proof.commitment":          "la r de la prueba no abre el compromiso de la petición %s, %s",
		"rp2.proof.made":                "la prueba nombra la petición %s, cuya tirada está guardada",
		"rp2.proof.proved":              "la prueba nombra la petición %s, ya demostrada por el evento %s",
		"rp2.proof.pending":             "la prueba nombra la petición %s, aún pendiente: su revelación hace la tirada",
		"rp2.proof.not_v2":              "la sesión %s de la exportación no usa el algoritmo v2",
		"rp2.proof.no_request":          "la petición %s no está en la sesión %s de la exportación",
		"rp2.proof.no_key":              "no se conoce la clave que firmó la petición %s",
		"rp2.proof.signature":           "la firma de la revelación no se sostiene con la clave que firmó la petición %s (de %s, %s)",
		"rp2.proof.not_reveal":          "el mensaje firmado no es un roll.reveal de la petición %s",
		"rp2.proof.no_session":          "la sesión %s de la campaña %s no está en la exportación",
		"rp2.proof.bad":                 "fichero de prueba %s: %s",
		"tr.roll_proved":                "%s demostró la petición %s (%s), cancelada por %s: habría salido %s → %s.",
		"tr.roll_proved_unrevealed":     "%s demostró la petición %s (%s), sin revelar al final de la sesión: habría salido %s → %s.",
		"cli.prove_written":             "journal: prueba de la petición %s escrita en %s: compruébala con 'journal replay --file EXPORTACIÓN --proof %s'",
	}
	errorsESProve = map[string]string{
		"request %s is %s's: only its requester proves it":                              "la petición %s es de %s: solo quien la pidió la demuestra",
		"request %s is already proved (event %s): a request is proved once":             "la petición %s ya está demostrada (evento %s): una petición se demuestra una vez",
		"request %s is not pending in session %s at sequence %d":                        "la petición %s no está pendiente en la sesión %s en la secuencia %d",
		"request %s was already made: its roll is recorded, there is nothing to prove":  "la petición %s ya se hizo: su tirada está guardada, no hay nada que demostrar",
		"request %s: its path drew no roll":                                             "petición %s: su camino no sacó ninguna tirada",
		"request %s: its roll cannot be drawn on the state before its cancellation: %v": "petición %s: su tirada no se puede sacar sobre el estado anterior a su cancelación: %v",
		"request %s: the journal does not know where it was cancelled":                  "petición %s: el diario no sabe dónde se canceló",
		"the proof is not its request's: %s":                                            "la prueba no es la de su petición: %s",
		"request %s is recorded but its reveal was not: %w (send it again with 'journal roll prove %s': if the GM cancelled the request meanwhile, the journal records the roll it would have been)": "la petición %s quedó registrada pero su revelación no: %w (envíala otra vez con 'journal roll prove %s': si el máster canceló la petición entretanto, el diario guarda la tirada que habría salido)",
		"%w: a proof file is at most %d bytes, this one %d":                                       "%w: un fichero de prueba tiene como mucho %d bytes, este %d",
		"%w: no roll request %s in campaign %s":                                                   "%w: no hay ninguna petición de tirada %s en la campaña %s",
		"%w: proof version %d, want %d":                                                           "%w: versión de prueba %d, se espera %d",
		"%w: the proof has no %q":                                                                 "%w: la prueba no tiene %q",
		"%w: the proof is not one JSON object: %v":                                                "%w: la prueba no es un objeto JSON: %v",
		"%w: the proof names campaign %s, session %s, request %s; its signed reveal %s, %s, %s":   "%w: la prueba nombra la campaña %s, la sesión %s, la petición %s; su revelación firmada %s, %s, %s",
		"%w: the proof's signed message is a %s, not a %s":                                        "%w: el mensaje firmado de la prueba es un %s, no un %s",
		"%w: the proof: %v":                                                                       "%w: la prueba: %v",
		"request %s has no commitment: a GM's request is witnessed, not revealed":                 "la petición %s no tiene compromiso: la petición de un máster se atestigua, no se revela",
		"request %s is %s's, not %s's: only the device that made it can prove it":                 "la petición %s es de %s, no de %s: solo el dispositivo que la hizo puede demostrarla",
		"request %s was not made with this device's key %s: its secret cannot be re-derived here": "la petición %s no se hizo con la clave %s de este dispositivo: su secreto no se puede volver a derivar aquí",
	}
	// (the verifier's mismatch of a proved event that is not its request's)
	helpShortESProve = map[string]string{
		"roll prove": "Demuestra tu tirada v2 cuya revelación no se guardó: la envía otra vez (una petición cancelada guarda la tirada que habría sido), o --out FICHERO",
	}
	helpFlagESProve = map[string]string{
		"a proof file of a suppressed roll ('journal roll prove --out') to check against the record; repeatable": "un fichero de prueba de una tirada suprimida ('journal roll prove --out') que comprobar contra el registro; repetible",
		"journal-dice-v2: the device key that made the request":                                                  "journal-dice-v2: la clave de dispositivo que hizo la petición",
		"write the proof to this file instead of sending it (for 'journal replay --proof')":                      "escribe la prueba en este fichero en vez de enviarla (para 'journal replay --proof')",
	}
)

func init() {
	for k, v := range helpShortESProve {
		helpShortES[k] = v
	}
	for k, v := range helpFlagESProve {
		helpFlagES[k] = v
	}
	for k, v := range enProve {
		en[k] = v
	}
	for k, v := range esProve {
		es[k] = v
	}
}
