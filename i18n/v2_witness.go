package i18n

// The texts of journal-dice-v2's GM rolls (a player's witness, a drand
// round, or the server's r), merged into en and es at init.
var (
	enGM = map[Key]string{
		"tr.roll_requested_gm": "%s asks for roll %s of %s (nonce %d): it waits for a player's witness (%d s), or its beacon round.",
		"x2.request_gm":        "request %s by %s (seq %d): a GM's, without commitment: r comes from a player's witness, the beacon or the server",
		"x2.witnessed":         "witnessed by %s: r = %s, the value its device signed in a roll.witness after the nonce was fixed",
		"x2.beacon":            "drand quicknet round %d, signature %s: r = SHA-256(signature) = %s",
		"x2.beacon_ok":         "  the round's signature verifies under quicknet's public key",
		"x2.beacon_bad":        "  the round's signature does NOT verify: %s",
		"x2.unwitnessed":       "unwitnessed: r = %s came from the journal's server after the wait (the audit flags it)",
		"x2v.source_bad":       "MISMATCH: r does not come from where the roll says (a witness, the beacon); ",
		"x2v.witnessed":        "; r is the value %s's device witnessed for the GM's request (signatures: journal replay)",
		"x2v.beacon":           "; r is SHA-256 of quicknet round %d's signature, which verifies",
		"x2v.unwitnessed":      "; r came from the journal's server: nothing proves it was not chosen (flagged)",
		"x2v.gm_source_none":   "MISMATCH: a GM's roll whose r names no witness, beacon or unwitnessed resolution; ",
	}
	esGM = map[Key]string{
		"tr.roll_requested_gm": "%s pide la tirada %s de %s (nonce %d): espera el testigo de un jugador (%d s), o su ronda del faro.",
		"x2.request_gm":        "petición %s de %s (sec. %d): del máster, sin compromiso: r viene del testigo de un jugador, del faro o del servidor",
		"x2.witnessed":         "atestiguada por %s: r = %s, el valor que su dispositivo firmó en un roll.witness con el nonce ya fijado",
		"x2.beacon":            "ronda %d de drand quicknet, firma %s: r = SHA-256(firma) = %s",
		"x2.beacon_ok":         "  la firma de la ronda se verifica con la clave pública de quicknet",
		"x2.beacon_bad":        "  la firma de la ronda NO se verifica: %s",
		"x2.unwitnessed":       "sin testigo: r = %s vino del servidor del diario tras la espera (la auditoría lo señala)",
		"x2v.source_bad":       "DISCREPANCIA: r no viene de donde afirma la tirada (un testigo, el faro); ",
		"x2v.witnessed":        "; r es el valor que el dispositivo de %s atestiguó para la petición del máster (firmas: journal replay)",
		"x2v.beacon":           "; r es el SHA-256 de la firma de la ronda %d de quicknet, que se verifica",
		"x2v.unwitnessed":      "; r vino del servidor del diario: nada prueba que no se eligiera (señalado)",
		"x2v.gm_source_none":   "DISCREPANCIA: una tirada del máster cuya r no nombra testigo, faro ni resolución sin testigo; ",
	}
)

func init() {
	for k, v := range enGM {
		en[k] = v
	}
	for k, v := range esGM {
		es[k] = v
	}
}
