package i18n

// The texts of journal-dice-v2's events, kept apart from en.go and es.go
// (merged into them at init; every key is in both).
var (
	enV2 = map[Key]string{
		"tr.participant_registered": "%s registers a %s key, fingerprint %s.",
		"tr.session_contributed":    "%s contributes to session %s's dice key (%s).",
		"tr.roll_requested":         "%s asks for roll %s of %s (nonce %d, commitment %s).",
		"tr.roll_cancelled":         "Roll request %s is cancelled (nonce %d consumed): %s.",
		"x2.key":                    "%s session key K = HMAC-SHA256(seed, %q + contributions)",
		"x2.no_contribution":        "  no contribution: K is the host's seed alone (the audit flags it)",
		"x2.contribution":           "  contribution of %s (seq %d): %s",
		"x2.k":                      "  K = %s",
		"x2.request_missing":        "request %s: not in the input",
		"x2.request":                "request %s by %s (seq %d): commitment %s",
		"x2.reveal_matches":         "reveal r = %s: SHA-256(r) matches the commitment",
		"x2.reveal_differs":         "reveal r = %s: SHA-256(r) does NOT match the commitment",
		"x2.draws":                  "draws (sides, in order): %v",
		"x2.stream":                 "stream: HMAC-SHA256(K, %q + k)",
		"x2v.request_missing":       "the roll's request %s is not in the input; ",
		"x2v.reveal_mismatch":       "MISMATCH: SHA-256 of the reveal is not the request's commitment; ",
		"rp2.contributions.one":     "%[2]s: %[1]d contribution to the session key, signatures and reveals checked",
		"rp2.contributions.many":    "%[2]s: %[1]d contributions to the session key, signatures and reveals checked",
		"rp2.flag":                  "FLAG",
		"x2v.verified":              "; the reveal matches the commitment %s that %s's device signed before its nonce was drawn (signatures: journal replay)",
	}
	esV2 = map[Key]string{
		"tr.participant_registered": "%s registra una clave de %s, huella %s.",
		"tr.session_contributed":    "%s contribuye a la clave de dados de la sesión %s (%s).",
		"tr.roll_requested":         "%s pide la tirada %s de %s (nonce %d, compromiso %s).",
		"tr.roll_cancelled":         "Se cancela la petición de tirada %s (nonce %d consumido): %s.",
		"x2.key":                    "clave de sesión %s K = HMAC-SHA256(semilla, %q + contribuciones)",
		"x2.no_contribution":        "  ninguna contribución: K es solo la semilla del anfitrión (la auditoría lo señala)",
		"x2.contribution":           "  contribución de %s (sec. %d): %s",
		"x2.k":                      "  K = %s",
		"x2.request_missing":        "petición %s: no está en la entrada",
		"x2.request":                "petición %s de %s (sec. %d): compromiso %s",
		"x2.reveal_matches":         "revelación r = %s: SHA-256(r) coincide con el compromiso",
		"x2.reveal_differs":         "revelación r = %s: SHA-256(r) NO coincide con el compromiso",
		"x2.draws":                  "dados sacados (caras, en orden): %v",
		"x2.stream":                 "flujo: HMAC-SHA256(K, %q + k)",
		"x2v.request_missing":       "la petición %s de la tirada no está en la entrada; ",
		"x2v.reveal_mismatch":       "DISCREPANCIA: el SHA-256 de la revelación no es el compromiso de la petición; ",
		"rp2.contributions.one":     "%[2]s: %[1]d contribución a la clave de la sesión, firmas y revelaciones comprobadas",
		"rp2.contributions.many":    "%[2]s: %[1]d contribuciones a la clave de la sesión, firmas y revelaciones comprobadas",
		"rp2.flag":                  "AVISO",
		"x2v.verified":              "; la revelación coincide con el compromiso %s que el dispositivo de %s firmó antes de sacar su nonce (firmas: journal replay)",
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
