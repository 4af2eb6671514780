package i18n

// The texts of the default dice algorithm of a new session (docs/design.md
// §3.2: journal-dice-v2 when a player has a registered device key) and of
// the demo played with journal-dice-v2 (kept apart; merged at init; every
// key is in both).
var (
	enV2Default = map[Key]string{
		"tr.role.gm":            "gm",
		"tr.role.player":        "player",
		"v2d.default_v1":        "journal: this session uses %s: no player has a registered device key: register one with `journal key register` or invite players with `journal invite` to make new sessions %s",
		"demo.keys":             "Device keys: the GM and each player make theirs and register it",
		"demo.v2_session_start": "Session 1 begins (%s): the seed's commitment is recorded, then each player's device contributes to the session key",
		"demo.v2_rolls":         "Each roll is asked for (a signed request with a commitment) and then revealed by the roller's own device; the GM's rolls are witnessed by a player's device",
		"demo.v2_session_end":   "The session ends: the seed is revealed and each player's device co-signs the end",
		"demo.v2_verification":  "Verification: every signature, reveal, witness and draw checked, every roll re-derived and judged again by the rules, the chain and the co-signatures",
	}
	esV2Default = map[Key]string{
		"tr.role.gm":            "máster",
		"tr.role.player":        "jugador",
		"v2d.default_v1":        "journal: esta sesión usa %s: ningún jugador tiene una clave de dispositivo registrada: registra una con `journal key register` o invita a los jugadores con `journal invite` para que las sesiones nuevas sean %s",
		"demo.keys":             "Claves de dispositivo: el máster y cada jugador crean la suya y la registran",
		"demo.v2_session_start": "Empieza la sesión 1 (%s): se registra el compromiso de la semilla y el dispositivo de cada jugador contribuye a la clave de la sesión",
		"demo.v2_rolls":         "Cada tirada se pide (una petición firmada con un compromiso) y luego la revela el propio dispositivo de quien tira; las tiradas del máster las atestigua el dispositivo de un jugador",
		"demo.v2_session_end":   "La sesión termina: se revela la semilla y el dispositivo de cada jugador cofirma el final",
		"demo.v2_verification":  "Verificación: cada firma, revelación, testigo y extracción comprobados, cada tirada derivada de nuevo y juzgada otra vez por las reglas, la cadena y las cofirmas",
	}
)

// errorsESV2Default are the Spanish of this slice's errors (added to
// errorsES unless another part has them already).
var errorsESV2Default = map[string]string{
	"action: skill %q: name it as the rules do, %q":     "acción: habilidad %q: nómbrala como lo hacen las reglas, %q",
	"action: attribute %q: name it as the rules do, %q": "acción: atributo %q: nómbralo como lo hacen las reglas, %q",
	"demo --dice %q: want v1 or v2":                     "demo --dice %q: se espera v1 o v2",
}

func init() {
	for k, v := range enV2Default {
		en[k] = v
	}
	for k, v := range esV2Default {
		es[k] = v
	}
}
