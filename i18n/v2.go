package i18n

// The texts of journal-dice-v2's events, kept apart from en.go and es.go
// (merged into them at init; every key is in both).
var (
	enV2 = map[Key]string{
		"tr.participant_registered": "%s registers a %s key, fingerprint %s.",
		"tr.session_contributed":    "%s contributes to session %s's dice key (%s).",
		"tr.roll_requested":         "%s asks for roll %s of %s (nonce %d, commitment %s).",
		"tr.roll_cancelled":         "Roll request %s is cancelled (nonce %d consumed): %s.",
	}
	esV2 = map[Key]string{
		"tr.participant_registered": "%s registra una clave de %s, huella %s.",
		"tr.session_contributed":    "%s contribuye a la clave de dados de la sesión %s (%s).",
		"tr.roll_requested":         "%s pide la tirada %s de %s (nonce %d, compromiso %s).",
		"tr.roll_cancelled":         "Se cancela la petición de tirada %s (nonce %d consumido): %s.",
	}
)

func init() {
	for k, v := range enV2 {
		en[k] = v
	}
	for k, v := range esV2 {
		es[k] = v
	}
}
