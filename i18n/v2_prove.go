package i18n

// The texts of a suppressed roll's proof (DESIGN.md §3.3, "A suppressed
// roll can be proved"): `journal roll prove`, journal.roll.proved.v1, the
// flag cancelled-after-reveal and `journal replay --proof` (kept apart;
// merged at init; every key is in both).
var (
	enProve = map[Key]string{
		"rp2.f.cancelled_after_reveal":  "%s proved request %s (nonce %d) cancelled by %s (event %s): it would have been %s → %s",
		"rp2.f.unrevealed_after_reveal": "%s proved request %s (nonce %d) left unrevealed at the session's end: it would have been %s → %s",
		"rp2.f.proof_file":              "proof file %s: %s",
		"rp2.proof.recorded":            "proof file %s: the roll of request %s was recorded (event %s): nothing was suppressed",
		"tr.roll_proved":                "%s proved request %s (%s), cancelled by %s: it would have been %s → %s.",
		"tr.roll_proved_unrevealed":     "%s proved request %s (%s), left unrevealed at the session's end: it would have been %s → %s.",
		"cli.prove_written":             "journal: proof of request %s written to %s: check it with 'journal replay --file EXPORT --proof %s'",
	}
	esProve = map[Key]string{
		"rp2.f.cancelled_after_reveal":  "%s demostró la petición %s (nonce %d) cancelada por %s (evento %s): habría salido %s → %s",
		"rp2.f.unrevealed_after_reveal": "%s demostró la petición %s (nonce %d) sin revelar al final de la sesión: habría salido %s → %s",
		"rp2.f.proof_file":              "fichero de prueba %s: %s",
		"rp2.proof.recorded":            "fichero de prueba %s: la tirada de la petición %s está guardada (evento %s): no se suprimió nada",
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
	}
)

func init() {
	for en2, es2 := range errorsESProve {
		if _, ok := errorsES[en2]; !ok {
			errorsES[en2] = es2
		}
	}
	for k, v := range enProve {
		en[k] = v
	}
	for k, v := range esProve {
		es[k] = v
	}
}
